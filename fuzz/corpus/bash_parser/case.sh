case x in a|b) echo;; *) :;;& esac
