# cmd_git: git over the workspace (init, add, commit, status, log, diff, show, branch, checkout, restore, rm, config), recorded from git 2.39 with fixed identities and dates so hashes repeat
# Known divergences:
# git-unsupported: remote subcommands and unknown ones exit 1 saying the network is off or what is offered; real git exits 128 (push, clone), 0 (fetch with no remote) or 1
### git-init-message
git init | sed 's#in .*/\.git/$#in X/.git/#'; ls .git | sort | grep -E '^(HEAD|config|objects|refs)$'; cat .git/HEAD; rm -rf .git
### git-init-quiet-branch
git init -q -b trunk; cat .git/HEAD; git init -q --initial-branch=dev sub; cat sub/.git/HEAD; rm -rf .git sub
### git-not-a-repo
git status; echo "s=$?"; git log; echo "s=$?"
### git-status-fresh
git init -q; git status; echo "s=$?"; rm -rf .git
### git-status-untracked
git init -q; echo a > a.txt; mkdir -p d/e; echo x > d/e/y; git status; git status -s; git status --porcelain; rm -rf .git
### git-status-staged-new
git init -q; echo a > a.txt; echo b > b.txt; git add a.txt; git status; git status -s; git status -sb; rm -rf .git
### git-first-commit
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf 'one\ntwo\n' > a.txt; git add a.txt; git commit -m "first commit"; echo "s=$?"; git status; rm -rf .git
### git-commit-summary-counts
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf '1\n2\n3\n' > a; printf 'x\n' > b; printf '' > empty; git add .; git commit -m init
printf '1\n3\n4\n5\n' > a; rm b; echo c > c; chmod +x empty; git add -A; git commit -m change; rm -rf .git
### git-commit-identity-from-c
export GIT_AUTHOR_DATE='2026-02-03T04:05:06+0100' GIT_COMMITTER_DATE='2026-02-03T04:05:06+0100'
git init -q; echo a > a; git add a; git -c user.name='Bo B' -c user.email=bo@x.org commit -q -m m; git log; rm -rf .git
### git-commit-identity-from-config
export GIT_AUTHOR_DATE='@1767225600 +0000' GIT_COMMITTER_DATE='@1767225600 +0000'
git init -q; git config user.name "Cy C"; git config user.email cy@x.org; git config user.name; echo a > a; git add a; git commit -q -m m; git log --format='%an <%ae> %cn %ad %H'; rm -rf .git
### git-commit-env-split-author-committer
export GIT_AUTHOR_NAME=Au GIT_AUTHOR_EMAIL=au@x GIT_COMMITTER_NAME=Co GIT_COMMITTER_EMAIL=co@x GIT_AUTHOR_DATE='2025-06-30T23:59:59Z' GIT_COMMITTER_DATE='2026-01-01T12:00:00-0500'
git init -q; echo a > a; git add a; git commit -q -m m; git log --format='%an %ae|%cn %ce|%ad|%cd|%at %ct'; git log -1 --format=%H; rm -rf .git
### git-commit-multiple-m
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git commit -q -m "subject  " -m "" -m "body line 1
body line 2   

" ; git log; git log --format='[%s][%b]'; git log -1 --format=%B | od -c | head -5; rm -rf .git
### git-commit-a
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; echo b > b; git add .; git commit -q -m one; echo a2 >> a; rm b; echo new > n; git commit -a -m two; git status -s; rm -rf .git
### git-commit-nothing
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; git commit -m x; echo "s=$?"; echo a > a; git commit -m x; echo "s=$?"; git add a; git commit -q -m x; git commit -m y; echo "s=$?"; echo z > z; git commit -m y; echo "s=$?"; rm -rf .git
### git-commit-allow-empty
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; git commit --allow-empty -m empty; git log --oneline; git show; rm -rf .git
### git-status-long-mixed
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; echo b > b; echo c > c; git add .; git commit -q -m one
echo a2 > a; git add a; echo a3 > a; rm b; git rm -q --cached c; echo u > u; git status; git status -s; rm -rf .git
### git-status-deleted-unstaged
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; echo b > b; git add .; git commit -q -m one; rm a; echo bb > b; git status; rm -rf .git
### git-status-clean
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add .; git commit -q -m one; git status; git status -s; git status -sb; rm -rf .git
### git-status-subdir-relative
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; mkdir -p src/lib; echo a > top; echo b > src/b; echo c > src/lib/c; git add .; git commit -q -m one
echo x >> top; echo y >> src/lib/c; echo n > src/new; cd src; git status; git status -s; git status --porcelain; cd ..; rm -rf .git
### git-gitignore
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf '*.log\nbuild/\n' > .gitignore; echo a > a; echo l > x.log; mkdir build; echo o > build/o; git status -s; git add .; git status -s; git add x.log; echo "s=$?"; git add -f x.log; git status -s; rm -rf .git
### git-add-missing-pathspec
git init -q; git add nope; echo "s=$?"; git add; echo "s=$?"; rm -rf .git
### git-add-dir-and-glob
git init -q; mkdir -p d/e; echo 1 > d/a.txt; echo 2 > d/e/b.txt; echo 3 > c.md; echo 4 > d/e/c.md; git add d/e; git status -s; git add '*.md'; git status -s; rm -rf .git
### git-add-removal
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; echo b > b; git add .; git commit -q -m one; rm a; echo b2 > b; echo c > c; git add -u; git status -s; git add .; git status -s; rm -rf .git
### git-log-default-and-oneline
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com
git init -q; for i in 1 2 3 4; do echo $i > f; git add f; GIT_AUTHOR_DATE="2026-01-0${i}T10:00:00Z" GIT_COMMITTER_DATE="2026-01-0${i}T10:00:00Z" git commit -q -m "change $i"; done
git log; git log --oneline; git log -n 2 --oneline; git log -2 --oneline; git log --max-count=1; git log --oneline HEAD~2; rm -rf .git
### git-log-format-placeholders
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git commit -q -m one; echo b > a; git commit -qam two; git log --format='%h %H %t %T %p %P%n%s|%an|%ae|%cn|%ce|%ad|%cd|%%'; git log --pretty=format:'%h %s'; echo; git log --pretty=oneline; rm -rf .git
### git-log-path
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git commit -q -m "add a"; echo b > b; git add b; git commit -q -m "add b"; echo a2 > a; git commit -qam "change a"
git log --oneline -- a; git log --oneline b; git log --oneline -- nothing-here; rm -rf .git
### git-log-empty-repo
git init -q; git log; echo "s=$?"; rm -rf .git
### git-log-bad-revision
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git commit -q -m one; git log nosuch; echo "s=$?"; git log -n x; echo "s=$?"; rm -rf .git
### git-diff-worktree
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; seq 1 20 > n; printf 'keep' > nonl; echo gone > gone; git add .; git commit -q -m one
sed -i 's/^5$/five/; s/^17$/seventeen/' n; printf 'keep2' > nonl; rm gone; echo untracked > u; git diff; echo "s=$?"; git diff --exit-code > /dev/null; echo "s=$?"; git diff --quiet; echo "s=$?"; git diff --name-only; git diff --name-status; git diff -- n | head -3; rm -rf .git
### git-diff-function-context
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf 'def alpha():\n    one = 1\n    two = 2\n    three = 3\n    four = 4\n    return one\n\nclass Beta:\n    x = 1\n    y = 2\n    z = 3\n    w = 4\n' > m.py; git add .; git commit -q -m one
sed -i 's/four = 4/four = 44/; s/w = 4/w = 44/' m.py; git diff; rm -rf .git
### git-diff-cached
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git diff --cached; git commit -q -m one; echo b >> a; echo n > n; : > e; git add .; git diff; echo "--"; git diff --cached; git diff --staged --name-status; rm -rf .git
### git-diff-between-commits
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf 'a\nb\nc\n' > f; git add f; git commit -q -m one; printf 'a\nB\nc\nd\n' > f; echo x > g; git add .; git commit -q -m two; chmod +x g; git commit -qam three
git diff HEAD~2 HEAD; git diff HEAD~2..HEAD~1 --name-only; git diff HEAD~1 HEAD; git diff HEAD~2 -- g; rm -rf .git
### git-diff-binary
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; printf 'a\0b' > bin; git add bin; git commit -m bin; printf 'a\0c' > bin; git diff; rm -rf .git
### git-show-commit-and-blob
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; mkdir d; printf 'x\ny\n' > d/f; git add .; git commit -q -m one -m "details"; printf 'x\nz\n' > d/f; git commit -qam two
git show; git show HEAD~1; git show HEAD~1:d/f; git show HEAD:d/f; git show -s --format='%s'; git show --oneline HEAD~1; git show HEAD:nope; echo "s=$?"; rm -rf .git
### git-branch-list-create-delete
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; git branch; git branch x; echo "s=$?"; echo a > a; git add a; git commit -q -m one; git branch feature; git branch zeta; git branch alpha HEAD; git branch
git branch feature; echo "s=$?"; git branch -d alpha; git branch -d nosuch; echo "s=$?"; git branch -d master; echo "s=$?"; git branch --show-current; git branch; rm -rf .git
### git-branch-unmerged-delete
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add a; git commit -q -m one; git checkout -q -b side; echo s > s; git add s; git commit -q -m side; git checkout -q master
git branch -d side; echo "s=$?"; git branch -D side; echo "s=$?"; git branch; rm -rf .git
### git-checkout-branches
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo base > f; git add f; git commit -q -m base; git checkout -b topic; echo topic > f; echo t > t; git add .; git commit -q -m topic
ls; cat f; git checkout master; ls; cat f; git checkout topic; ls; cat f; git checkout topic; git branch; git log --oneline; rm -rf .git
### git-checkout-carries-local-changes
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; echo b > b; git add .; git commit -q -m one; git branch other; echo a2 > a; git checkout other; echo "s=$?"; git status -s; git branch --show-current; rm -rf .git
### git-checkout-refuses-overwrite
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo a > a; git add .; git commit -q -m one; git checkout -q -b other; echo other > a; git commit -qam other; git checkout -q master; echo local > a
git checkout other; echo "s=$?"; cat a; git branch --show-current; rm -rf .git
### git-checkout-file
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo v1 > f; git add f; git commit -q -m one; echo v2 > f; git commit -qam two; echo dirty > f; git checkout f; cat f; echo dirty > f; git checkout -- f; cat f
git checkout HEAD~1 -- f; cat f; git status -s; git checkout nosuch; echo "s=$?"; rm -rf .git
### git-checkout-new-branch-unborn
git init -q; git checkout -b fresh; cat .git/HEAD; git branch; git status | head -1; rm -rf .git
### git-restore
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo v1 > f; echo g > g; git add .; git commit -q -m one; echo v2 > f; git add f; echo v3 > f; git status -s
git restore f; cat f; git status -s; git restore --staged f; git status -s; cat f; rm g; git restore g; cat g; echo n > n; git add n; git restore --staged n; git status -s; git restore; echo "s=$?"; git restore nosuch; echo "s=$?"; rm -rf .git
### git-restore-source
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; echo v1 > f; git add .; git commit -q -m one; echo v2 > f; git commit -qam two; git restore --source=HEAD~1 f; cat f; git status -s; rm -rf .git
### git-rm
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; mkdir d; echo a > a; echo b > d/b; echo c > d/c; git add .; git commit -q -m one; git rm a; ls; git rm --cached d/b; git status -s; git rm d; echo "s=$?"; git rm -r -q d; git status -s; ls; rm -rf .git d
### git-unsupported
git init -q; git push; echo "s=$?"; git clone https://example.com/x.git; echo "s=$?"; git fetch; echo "s=$?"; git frobnicate; echo "s=$?"; rm -rf .git
### git-subdir-paths
export GIT_AUTHOR_NAME=Ada GIT_AUTHOR_EMAIL=ada@example.com GIT_COMMITTER_NAME=Ada GIT_COMMITTER_EMAIL=ada@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
git init -q; mkdir -p a/b; echo 1 > a/b/f; cd a; git add b/f; git commit -q -m one; echo 2 > b/f; git diff --name-only; git diff | head -1; git -C .. status -s; cd ..; git -C a/b log --oneline; rm -rf .git a
