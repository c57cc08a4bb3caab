# cmd_awk: POSIX awk (mawk 1.3.4 as on this machine): fields, patterns, arrays, functions, printf, getline, I/O
# Known divergences: none
### awk-print-fields
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '{print $1, $3}'
### awk-print-nf-nr
printf '%s' 'the quick brown fox
jumps over the lazy dog
the end
' | awk '{print NR, NF, $NF}'
### awk-field-separator-option
printf '%s' 'name,qty,price
apple,3,0.5
pear,10,0.25
plum,7,1.5
' | awk -F, '{print $2}'
### awk-field-separator-tab-escape
printf '%s' 'a	b c	d
' | awk '-F\t' '{print $2}'
### awk-field-separator-regex
printf '%s' 'a,,b;;c
' | awk '-F[,;]+' '{print $3}'
### awk-fs-in-begin
printf '%s' 'root:x:0
bin:x:1
' | awk 'BEGIN{FS=":"} {print $1}'
### awk-ofs-rebuild-on-field-assign
printf '%s' 'a b  c
' | awk 'BEGIN{OFS="-"} {$1=$1; print}'
### awk-assign-field-beyond-nf
printf '%s' 'a b
' | awk '{$5="x"; print; print NF}'
### awk-assign-nf-truncates
printf '%s' 'a:b:c:d
' | awk -F: 'BEGIN{OFS=":"} {NF=2; print}'
### awk-assign-record-resplits
printf '%s' 'a
' | awk '{$0="x y z"; print NF, $2}'
### awk-variable-option
awk -v n=3 -v 's=hi\tthere' 'BEGIN{print n*2, s}' < /dev/null
### awk-operand-assignment
printf '%s' 'x
' > a.txt
awk '{print v, $0}' v=1 a.txt v=2 a.txt < /dev/null
### awk-program-file
printf '%s' '{ s += $2 }
END { print s }
' > prog.awk
printf '%s' 'a 1
b 2
c 3
' > data.txt
awk -f prog.awk data.txt < /dev/null
### awk-begin-end-only
printf '%s' 'the quick brown fox
jumps over the lazy dog
the end
' | awk 'BEGIN{print "start"} END{print NR, "lines"}'
### awk-sum-column
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '{s += $2 * $3} END {printf "%.2f\n", s}'
### awk-pattern-comparison
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '$3 > 15'
### awk-pattern-regex
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '/^M/ {print $1}'
### awk-pattern-negated-regex-field
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '$1 !~ /a/'
### awk-pattern-compound
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '$2 >= 4 && $3 > 0 || $1 == "Dan"'
### awk-range-pattern
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk '/Kathy/,/Mary/ {print NR": "$1}'
### awk-range-pattern-same-line
printf '%s' 'a
b
a
' | awk /a/,/a/
### awk-nr-pattern
printf '%s' 'Beth 4.00 0
Dan 3.75 0
Kathy 4.00 10
Mark 5.00 20
Mary 5.50 22
Susie 4.25 18
' | awk 'NR==2, NR==4'
### awk-uninitialized-values
awk 'BEGIN{print x+0, "[" x "]", length(x), (x == 0), (x == "")}' < /dev/null
### awk-string-vs-number-compare
printf '%s' '10 9
2 10
abc abd
' | awk '{print ($1 < $2), ($1 "" < $2 "")}'
### awk-numeric-string-fields
printf '%s' '1
1.0
+1
 1e0
' | awk '{print ($1 == 1.0), ($1 == "1.0")}'
### awk-number-to-string-convfmt
awk 'BEGIN{x = 3.14159265; y = x ""; print y; CONVFMT="%.2f"; z = x ""; print z; print 17 ""}' < /dev/null
### awk-ofmt-output
awk 'BEGIN{OFMT="%.2f"; print 3.14159, 10, 1e6, 2^31, 0.1+0.2}' < /dev/null
### awk-large-and-small-numbers
awk 'BEGIN{print 2^53, 1e30, 123456789012, -2147483647, 1e-5, 100/3}' < /dev/null
### awk-integer-division-and-modulo
awk 'BEGIN{print 7/2, int(7/2), 7%3, -7%3, 2^10, 2^0.5}' < /dev/null
### awk-increment-decrement
awk 'BEGIN{x=5; print x++, x, ++x, x--, --x}' < /dev/null
### awk-compound-assignment
awk 'BEGIN{x=10; x+=5; x-=3; x*=2; x/=4; x%=4; x^=3; print x}' < /dev/null
### awk-ternary-and-logic
printf '%s' '5
0
2
' | awk '{print ($1 > 3 ? "big" : "small"), !$1, ($1 && 1)}'
### awk-string-functions
awk 'BEGIN{s="Hello, World"; print length(s), substr(s, 8), substr(s, 1, 5), index(s, "World"), toupper(s), tolower(s)}' < /dev/null
### awk-substr-edge-cases
awk 'BEGIN{s="hello"; print substr(s,0,3) "|" substr(s,-1,3) "|" substr(s,1.5,2.3) "|" substr(s,5,10) "|" substr(s,6) "|" substr(s,2)}' < /dev/null
### awk-split-function
awk 'BEGIN{n = split("a:b:c", arr, ":"); print n, arr[1], arr[3]; n = split("  x  y  ", w); print n, w[1] w[2]}' < /dev/null
### awk-split-regex
awk 'BEGIN{n = split("a1b22c333d", p, /[0-9]+/); for (i = 1; i <= n; i++) printf "%s.", p[i]; print ""}' < /dev/null
### awk-sub-and-gsub
printf '%s' 'hello world
foo
' | awk '{n = gsub(/o/, "0"); sub(/l/, "L"); print n, $0}'
### awk-gsub-ampersand
printf '%s' 'a1 b22 c333
' | awk '{gsub(/[0-9]+/, "<&>"); print}'
### awk-gsub-escaped-ampersand
printf '%s' 'axbx
' | awk '{gsub(/x/, "\\&"); print}'
### awk-gsub-on-field
printf '%s' 'banana banana
' | awk '{gsub(/a/, "A", $2); print; print $2}'
### awk-gsub-empty-matches
printf '%s' 'abc
' | awk '{gsub(/x*/, "-"); print}'
### awk-gsub-star-after-match
printf '%s' 'baaac
' | awk '{gsub(/a*/, "x"); print}'
### awk-match-rstart-rlength
printf '%s' 'abc123def
none
' | awk '{if (match($0, /[0-9]+/)) print RSTART, RLENGTH, substr($0, RSTART, RLENGTH); else print RSTART, RLENGTH}'
### awk-sprintf-formats
awk 'BEGIN{print sprintf("%5d|%-5d|%05d|%+d|%x|%X|%o|%e|%E|%g|%G|%c|%c|%%", 42, 42, 42, 42, 255, 255, 8, 1234.5, 0.00012, 0.0001, 1e20, 65, "hello")}' < /dev/null
### awk-printf-width-precision
awk 'BEGIN{printf "[%10s][%-10s][%.2s][%*d][%.*f]\n", "right", "left", "truncate", 6, 42, 3, 3.14159}' < /dev/null
### awk-printf-int-conversions
awk 'BEGIN{printf "%d %d %i %d\n", 3.99, -3.99, "12abc", "0x1A"}' < /dev/null
### awk-printf-not-enough-args
awk 'BEGIN{printf "%s %s\n", "a"}' < /dev/null
### awk-math-functions
awk 'BEGIN{printf "%.4f %.4f %.4f %.4f %.4f %.4f\n", sqrt(2), exp(1), log(10), sin(1), cos(0), atan2(1, 1)*4}' < /dev/null
### awk-int-function
awk 'BEGIN{print int(3.9), int(-3.9), int("42abc"), int("")}' < /dev/null
### awk-srand-rand-deterministic
awk 'BEGIN{srand(1); a = rand(); srand(1); b = rand(); print (a == b), (a >= 0 && a < 1), srand(5)}' < /dev/null
### awk-srand-sequences-as-glibc-random
awk 'BEGIN{srand(1); a = rand(); b = rand(); srand(12345); c = rand(); srand(0); d = rand(); srand(4294967296); e = rand(); printf "%.10f %.10f %.10f %.10f %.10f\n", a, b, c, d, e}' < /dev/null
### awk-srand-clamps-its-seed
awk 'BEGIN{srand(-1e20); a = rand(); srand(-3.7); b = rand(); srand(-1); c = rand(); srand(log(-1)); d = rand(); srand(-log(0)); e = rand(); printf "%.10f %.10f %.10f %.10f %.10f\n", a, b, c, d, e}' < /dev/null
### awk-arrays-count-words
printf '%s' 'the quick brown fox
jumps over the lazy dog
the end
' | awk '{for (i = 1; i <= NF; i++) c[$i]++} END {print c["the"], c["fox"], length(c)}'
### awk-array-in-and-delete
awk 'BEGIN{a[1]; a[2]="x"; delete a[1]; print (1 in a), (2 in a), (3 in a); delete a; print length(a)}' < /dev/null
### awk-multi-subscript
awk 'BEGIN{a[1,2]=3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2], a[k]}; print ((1,2) in a)}' < /dev/null
### awk-user-function-local-array
awk 'function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i*i; return n }
BEGIN { fill(sq, 4); print sq[3], length(sq), i "|" }' < /dev/null
### awk-recursive-function
awk 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) }
BEGIN { print fact(10) }' < /dev/null
### awk-function-scalar-by-value
awk 'function f(x) { x = 5; return x }
BEGIN { y = 1; f(y); print y, f(y) }' < /dev/null
### awk-getline-from-file
printf '%s' 'a
b
c
' > in.txt
awk 'BEGIN { while ((getline line < "in.txt") > 0) n++; print n, line }' < /dev/null
### awk-getline-plain-advances-nr
printf '%s' '1
2
3
' | awk 'NR==1 { getline; print "got", $0, NR } END { print NR }'
### awk-getline-var-from-input
printf '%s' 'a
b
c
d
' | awk '{ getline nxt; print $0 "+" nxt }'
### awk-getline-missing-file
awk 'BEGIN { print (getline x < "nosuch") }' < /dev/null
### awk-output-redirection
printf '%s' 'old
' > app.txt
printf '%s' 'a 1
b 2
' | awk '{ print $1 > "out.txt"; print $2 >> "app.txt" } END { close("out.txt"); while ((getline l < "out.txt") > 0) print "read", l }'
### awk-output-to-multiple-files
printf '%s' 'x 1
y 2
x 3
' | awk '{ print > ($1 ".txt") }'
### awk-print-to-stderr
awk 'BEGIN { print "err" > "/dev/stderr"; print "out" }' < /dev/null
### awk-next-statement
printf '%s' 'a
skip me
b
' | awk '/skip/ { next } { print }'
### awk-exit-with-status
printf '%s' 'a
b
c
' | awk 'NR == 2 { exit 3 } { print } END { print "end" }'
### awk-exit-in-begin-runs-end
printf '%s' 'x
' | awk 'BEGIN { print "b"; exit } END { print "e" }'
### awk-while-do-for-loops
awk 'BEGIN { i = 0; while (i < 3) i++; do { j++ } while (j < 5); for (k = 0; k < 10; k += 3) s = s k; print i, j, s }' < /dev/null
### awk-break-continue
awk 'BEGIN { for (i = 1; i <= 10; i++) { if (i % 2) continue; if (i > 6) break; s = s i } print s }' < /dev/null
### awk-regex-dynamic
printf '%s' '12
ab
345
' | awk 'BEGIN { re = "^[0-9]+$" } $0 ~ re { print "num:", $0 }'
### awk-regex-special-chars
printf '%s' 'a.b
a/b
xyx
axb
' | awk '/a\.b/ { print "dot" } /a\/b/ { print "slash" } /^(x|y)+$/ { print "xy" }'
### awk-regex-bracket-classes
printf '%s' 'a b	c!d?
' | awk '{ gsub(/[[:space:]]+/, "_"); gsub(/[^[:alnum:]_]/, ""); print }'
### awk-regex-interval
printf '%s' 'aa
abbb
a
' | awk '/^a{2}$/ { print "two" } /b{2,}/ { print "many b" }'
### awk-rs-paragraph-mode
printf '%s' 'a b
c


d e
' | awk 'BEGIN { RS = "" } { print NR ": " $1 " (" NF ")" }'
### awk-rs-single-char
printf '%s' 'a;b;c
' | awk 'BEGIN { RS = ";" } { print NR, $0 }'
### awk-ors-and-ofs
printf '%s' 'a b
c d
' | awk 'BEGIN { OFS = "|"; ORS = ";\n" } { print $1, $2 }'
### awk-filename-and-fnr
printf '%s' '1
2
' > a.txt
printf '%s' '3
' > b.txt
awk 'FNR == 1 { print FILENAME } END { print NR }' a.txt b.txt < /dev/null
### awk-missing-input-file
awk '{ print }' nosuch.txt < /dev/null
### awk-argv-argc
awk 'BEGIN { for (i = 0; i < ARGC; i++) print i, ARGV[i] }' x y=1 z < /dev/null
### awk-environ
awk 'BEGIN { print ENVIRON["LC_ALL"] }' < /dev/null
### awk-syntax-error
awk 'BEGIN { print ( }' < /dev/null
### awk-length-without-parens
printf '%s' 'ab
abcd
abcdef
' | awk 'length > 3'
### awk-concatenation-precedence
awk 'BEGIN { x = 1; print 1 " " 2+3 " " x-1; print 2 " " -1 }' < /dev/null
### awk-comparison-in-print-needs-parens
awk 'BEGIN { print (2 > 1), ("a" < "b") }' < /dev/null
### awk-unary-minus-and-power
awk 'BEGIN { print -2^2, 2^3^2, (-2)^2 }' < /dev/null
### awk-string-escapes
awk 'BEGIN { print "a\tb\\c\"d\101\n-" }' < /dev/null
### awk-printf-no-newline
printf '%s' 'a
b
c
' | awk '{ printf "%s,", $1 } END { printf "\n" }'
### awk-uninitialized-in-numeric-context
printf '%s' 'a
b
' | awk '{ s += $2 } END { print s, s + 0, t + 0 }'
### awk-field-by-expression
printf '%s' 'a b c d
' | awk '{ i = 2; print $i, $(i+1), $NF, $(NF-1) }'
### awk-nf-modification-in-loop
printf '%s' '1 2 3
a b
' | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "\n") }'
### awk-printf-c-number
awk 'BEGIN { printf "%c%c%c\n", 72, 105, 33 }' < /dev/null
### awk-division-by-zero
awk 'BEGIN { print 1/0, -1/0 }' < /dev/null
### awk-dollar-zero-modification
printf '%s' 'ab cd
' | awk '{ $0 = toupper($0); print $2 }'
### awk-delete-during-for-in
awk 'BEGIN { a[1]; a[2]; a[3]; for (k in a) delete a[k]; print length(a) }' < /dev/null
### awk-semicolons-and-newlines
awk 'BEGIN {
  x = 1
  if (x)
    print "yes"
  else
    print "no"
  y = 2; print y
}' < /dev/null
### awk-getline-from-command
awk 'BEGIN { "echo hello" | getline x; print "got", x }' < /dev/null
### awk-system-call
awk 'BEGIN { r = system("echo from system"); print "status", r }' < /dev/null
### awk-print-to-pipe
printf '%s' 'c
a
b
' | awk '{ print | "sort" } END { close("sort"); print "done" }'
### awk-streams-with-exit
printf '%s' '1
2
3
4
5
6
7
8
9
10
11
12
13
14
15
16
17
18
19
20
21
22
23
24
25
26
27
28
29
30
31
32
33
34
35
36
37
38
39
40
41
42
43
44
45
46
47
48
49
50
51
52
53
54
55
56
57
58
59
60
61
62
63
64
65
66
67
68
69
70
71
72
73
74
75
76
77
78
79
80
81
82
83
84
85
86
87
88
89
90
91
92
93
94
95
96
97
98
99
100
101
102
103
104
105
106
107
108
109
110
111
112
113
114
115
116
117
118
119
120
121
122
123
124
125
126
127
128
129
130
131
132
133
134
135
136
137
138
139
140
141
142
143
144
145
146
147
148
149
150
151
152
153
154
155
156
157
158
159
160
161
162
163
164
165
166
167
168
169
170
171
172
173
174
175
176
177
178
179
180
181
182
183
184
185
186
187
188
189
190
191
192
193
194
195
196
197
198
199
200
201
202
203
204
205
206
207
208
209
210
211
212
213
214
215
216
217
218
219
220
221
222
223
224
225
226
227
228
229
230
231
232
233
234
235
236
237
238
239
240
241
242
243
244
245
246
247
248
249
250
251
252
253
254
255
256
257
258
259
260
261
262
263
264
265
266
267
268
269
270
271
272
273
274
275
276
277
278
279
280
281
282
283
284
285
286
287
288
289
290
291
292
293
294
295
296
297
298
299
300
301
302
303
304
305
306
307
308
309
310
311
312
313
314
315
316
317
318
319
320
321
322
323
324
325
326
327
328
329
330
331
332
333
334
335
336
337
338
339
340
341
342
343
344
345
346
347
348
349
350
351
352
353
354
355
356
357
358
359
360
361
362
363
364
365
366
367
368
369
370
371
372
373
374
375
376
377
378
379
380
381
382
383
384
385
386
387
388
389
390
391
392
393
394
395
396
397
398
399
400
401
402
403
404
405
406
407
408
409
410
411
412
413
414
415
416
417
418
419
420
421
422
423
424
425
426
427
428
429
430
431
432
433
434
435
436
437
438
439
440
441
442
443
444
445
446
447
448
449
450
451
452
453
454
455
456
457
458
459
460
461
462
463
464
465
466
467
468
469
470
471
472
473
474
475
476
477
478
479
480
481
482
483
484
485
486
487
488
489
490
491
492
493
494
495
496
497
498
499
500
501
502
503
504
505
506
507
508
509
510
511
512
513
514
515
516
517
518
519
520
521
522
523
524
525
526
527
528
529
530
531
532
533
534
535
536
537
538
539
540
541
542
543
544
545
546
547
548
549
550
551
552
553
554
555
556
557
558
559
560
561
562
563
564
565
566
567
568
569
570
571
572
573
574
575
576
577
578
579
580
581
582
583
584
585
586
587
588
589
590
591
592
593
594
595
596
597
598
599
600
601
602
603
604
605
606
607
608
609
610
611
612
613
614
615
616
617
618
619
620
621
622
623
624
625
626
627
628
629
630
631
632
633
634
635
636
637
638
639
640
641
642
643
644
645
646
647
648
649
650
651
652
653
654
655
656
657
658
659
660
661
662
663
664
665
666
667
668
669
670
671
672
673
674
675
676
677
678
679
680
681
682
683
684
685
686
687
688
689
690
691
692
693
694
695
696
697
698
699
700
701
702
703
704
705
706
707
708
709
710
711
712
713
714
715
716
717
718
719
720
721
722
723
724
725
726
727
728
729
730
731
732
733
734
735
736
737
738
739
740
741
742
743
744
745
746
747
748
749
750
751
752
753
754
755
756
757
758
759
760
761
762
763
764
765
766
767
768
769
770
771
772
773
774
775
776
777
778
779
780
781
782
783
784
785
786
787
788
789
790
791
792
793
794
795
796
797
798
799
800
801
802
803
804
805
806
807
808
809
810
811
812
813
814
815
816
817
818
819
820
821
822
823
824
825
826
827
828
829
830
831
832
833
834
835
836
837
838
839
840
841
842
843
844
845
846
847
848
849
850
851
852
853
854
855
856
857
858
859
860
861
862
863
864
865
866
867
868
869
870
871
872
873
874
875
876
877
878
879
880
881
882
883
884
885
886
887
888
889
890
891
892
893
894
895
896
897
898
899
900
901
902
903
904
905
906
907
908
909
910
911
912
913
914
915
916
917
918
919
920
921
922
923
924
925
926
927
928
929
930
931
932
933
934
935
936
937
938
939
940
941
942
943
944
945
946
947
948
949
950
951
952
953
954
955
956
957
958
959
960
961
962
963
964
965
966
967
968
969
970
971
972
973
974
975
976
977
978
979
980
981
982
983
984
985
986
987
988
989
990
991
992
993
994
995
996
997
998
999
1000
1001
1002
1003
1004
1005
1006
1007
1008
1009
1010
1011
1012
1013
1014
1015
1016
1017
1018
1019
1020
1021
1022
1023
1024
1025
1026
1027
1028
1029
1030
1031
1032
1033
1034
1035
1036
1037
1038
1039
1040
1041
1042
1043
1044
1045
1046
1047
1048
1049
1050
1051
1052
1053
1054
1055
1056
1057
1058
1059
1060
1061
1062
1063
1064
1065
1066
1067
1068
1069
1070
1071
1072
1073
1074
1075
1076
1077
1078
1079
1080
1081
1082
1083
1084
1085
1086
1087
1088
1089
1090
1091
1092
1093
1094
1095
1096
1097
1098
1099
1100
1101
1102
1103
1104
1105
1106
1107
1108
1109
1110
1111
1112
1113
1114
1115
1116
1117
1118
1119
1120
1121
1122
1123
1124
1125
1126
1127
1128
1129
1130
1131
1132
1133
1134
1135
1136
1137
1138
1139
1140
1141
1142
1143
1144
1145
1146
1147
1148
1149
1150
1151
1152
1153
1154
1155
1156
1157
1158
1159
1160
1161
1162
1163
1164
1165
1166
1167
1168
1169
1170
1171
1172
1173
1174
1175
1176
1177
1178
1179
1180
1181
1182
1183
1184
1185
1186
1187
1188
1189
1190
1191
1192
1193
1194
1195
1196
1197
1198
1199
1200
1201
1202
1203
1204
1205
1206
1207
1208
1209
1210
1211
1212
1213
1214
1215
1216
1217
1218
1219
1220
1221
1222
1223
1224
1225
1226
1227
1228
1229
1230
1231
1232
1233
1234
1235
1236
1237
1238
1239
1240
1241
1242
1243
1244
1245
1246
1247
1248
1249
1250
1251
1252
1253
1254
1255
1256
1257
1258
1259
1260
1261
1262
1263
1264
1265
1266
1267
1268
1269
1270
1271
1272
1273
1274
1275
1276
1277
1278
1279
1280
1281
1282
1283
1284
1285
1286
1287
1288
1289
1290
1291
1292
1293
1294
1295
1296
1297
1298
1299
1300
1301
1302
1303
1304
1305
1306
1307
1308
1309
1310
1311
1312
1313
1314
1315
1316
1317
1318
1319
1320
1321
1322
1323
1324
1325
1326
1327
1328
1329
1330
1331
1332
1333
1334
1335
1336
1337
1338
1339
1340
1341
1342
1343
1344
1345
1346
1347
1348
1349
1350
1351
1352
1353
1354
1355
1356
1357
1358
1359
1360
1361
1362
1363
1364
1365
1366
1367
1368
1369
1370
1371
1372
1373
1374
1375
1376
1377
1378
1379
1380
1381
1382
1383
1384
1385
1386
1387
1388
1389
1390
1391
1392
1393
1394
1395
1396
1397
1398
1399
1400
1401
1402
1403
1404
1405
1406
1407
1408
1409
1410
1411
1412
1413
1414
1415
1416
1417
1418
1419
1420
1421
1422
1423
1424
1425
1426
1427
1428
1429
1430
1431
1432
1433
1434
1435
1436
1437
1438
1439
1440
1441
1442
1443
1444
1445
1446
1447
1448
1449
1450
1451
1452
1453
1454
1455
1456
1457
1458
1459
1460
1461
1462
1463
1464
1465
1466
1467
1468
1469
1470
1471
1472
1473
1474
1475
1476
1477
1478
1479
1480
1481
1482
1483
1484
1485
1486
1487
1488
1489
1490
1491
1492
1493
1494
1495
1496
1497
1498
1499
1500
1501
1502
1503
1504
1505
1506
1507
1508
1509
1510
1511
1512
1513
1514
1515
1516
1517
1518
1519
1520
1521
1522
1523
1524
1525
1526
1527
1528
1529
1530
1531
1532
1533
1534
1535
1536
1537
1538
1539
1540
1541
1542
1543
1544
1545
1546
1547
1548
1549
1550
1551
1552
1553
1554
1555
1556
1557
1558
1559
1560
1561
1562
1563
1564
1565
1566
1567
1568
1569
1570
1571
1572
1573
1574
1575
1576
1577
1578
1579
1580
1581
1582
1583
1584
1585
1586
1587
1588
1589
1590
1591
1592
1593
1594
1595
1596
1597
1598
1599
1600
1601
1602
1603
1604
1605
1606
1607
1608
1609
1610
1611
1612
1613
1614
1615
1616
1617
1618
1619
1620
1621
1622
1623
1624
1625
1626
1627
1628
1629
1630
1631
1632
1633
1634
1635
1636
1637
1638
1639
1640
1641
1642
1643
1644
1645
1646
1647
1648
1649
1650
1651
1652
1653
1654
1655
1656
1657
1658
1659
1660
1661
1662
1663
1664
1665
1666
1667
1668
1669
1670
1671
1672
1673
1674
1675
1676
1677
1678
1679
1680
1681
1682
1683
1684
1685
1686
1687
1688
1689
1690
1691
1692
1693
1694
1695
1696
1697
1698
1699
1700
1701
1702
1703
1704
1705
1706
1707
1708
1709
1710
1711
1712
1713
1714
1715
1716
1717
1718
1719
1720
1721
1722
1723
1724
1725
1726
1727
1728
1729
1730
1731
1732
1733
1734
1735
1736
1737
1738
1739
1740
1741
1742
1743
1744
1745
1746
1747
1748
1749
1750
1751
1752
1753
1754
1755
1756
1757
1758
1759
1760
1761
1762
1763
1764
1765
1766
1767
1768
1769
1770
1771
1772
1773
1774
1775
1776
1777
1778
1779
1780
1781
1782
1783
1784
1785
1786
1787
1788
1789
1790
1791
1792
1793
1794
1795
1796
1797
1798
1799
1800
1801
1802
1803
1804
1805
1806
1807
1808
1809
1810
1811
1812
1813
1814
1815
1816
1817
1818
1819
1820
1821
1822
1823
1824
1825
1826
1827
1828
1829
1830
1831
1832
1833
1834
1835
1836
1837
1838
1839
1840
1841
1842
1843
1844
1845
1846
1847
1848
1849
1850
1851
1852
1853
1854
1855
1856
1857
1858
1859
1860
1861
1862
1863
1864
1865
1866
1867
1868
1869
1870
1871
1872
1873
1874
1875
1876
1877
1878
1879
1880
1881
1882
1883
1884
1885
1886
1887
1888
1889
1890
1891
1892
1893
1894
1895
1896
1897
1898
1899
1900
1901
1902
1903
1904
1905
1906
1907
1908
1909
1910
1911
1912
1913
1914
1915
1916
1917
1918
1919
1920
1921
1922
1923
1924
1925
1926
1927
1928
1929
1930
1931
1932
1933
1934
1935
1936
1937
1938
1939
1940
1941
1942
1943
1944
1945
1946
1947
1948
1949
1950
1951
1952
1953
1954
1955
1956
1957
1958
1959
1960
1961
1962
1963
1964
1965
1966
1967
1968
1969
1970
1971
1972
1973
1974
1975
1976
1977
1978
1979
1980
1981
1982
1983
1984
1985
1986
1987
1988
1989
1990
1991
1992
1993
1994
1995
1996
1997
1998
1999
' | awk 'NR == 3 { exit } { print }'
### awk-printf-percent-s-number
awk 'BEGIN { printf "%s %s %s\n", 1/4, 100, 1e6 }' < /dev/null
### awk-index-empty-needle
awk 'BEGIN { print index("abc", ""), index("", "a") }' < /dev/null
### awk-pipe-output-ordering-like-mawk
awk 'BEGIN { print "hdr"; print "b\na" | "sort"; print "end" }' < /dev/null
### awk-pipe-output-before-buffered-end
printf '%s' 'c
b
a
' | awk '{ print | "sort" } END { print "total", NR }'
### awk-system-flushes-output-first
awk 'BEGIN { print "x"; system("echo sys"); print "y" }' < /dev/null
### awk-getline-command-sets-record
awk 'BEGIN { "echo a b" | getline; print $2, NF, NR }' < /dev/null
### awk-two-file-join-idiom
printf '%s' '1 x
2 y
' > a.txt
printf '%s' '2 B
3 C
' > b.txt
awk 'NR == FNR { m[$1] = $2; next } $1 in m { print $0, m[$1] }' a.txt b.txt < /dev/null
### awk-argv-modified-in-begin
printf '%s' '1
' > a.txt
printf '%s' '2
' > b.txt
awk 'BEGIN { ARGV[2] = "b.txt"; ARGC = 3 } { print FILENAME ": " $0 }' a.txt < /dev/null
### awk-nextfile
printf '%s' '1
2
3
' > a.txt
printf '%s' '4
5
' > b.txt
awk 'FNR == 2 { nextfile } { print FILENAME, $0 }' a.txt b.txt < /dev/null
### awk-printf-improper-conversion
awk 'BEGIN { printf "%z %s\n", "a" }' < /dev/null
### awk-regex-missing-operand
awk 'BEGIN { s = "a+b"; gsub("+", "P", s); print s }' < /dev/null
### awk-string-escapes-hex-and-slash
awk 'BEGIN { print "\x41", "a\/b" }' < /dev/null
### awk-field-separator-empty-splits-chars
printf '%s' 'abc
' | awk -F '' '{ print NF, $2 }'
### awk-field-separator-single-dot-is-literal
printf '%s' 'a.b.c
' | awk -F . '{ print $2 }'
### awk-rs-regex
printf '%s' a1b2c | awk 'BEGIN { RS = "[0-9]" } { print NR ":" $0 }'
### awk-record-without-final-newline
printf '%s' 'a
b' | awk '{ print NR ": " $0 }'
### awk-nf-zero-clears-record
printf '%s' 'a b
' | awk '{ NF = 0; print "[" $0 "]" }'
### awk-number-output-limits
awk 'BEGIN { x = 2147483647; x++; print x, int(2147483648), -2147483647 - 1; printf "%d\n", 2147483648 }' < /dev/null
### awk-rounding-in-printf
awk 'BEGIN { printf "%.2f %.2f %.0f %.0f\n", 2.675, 1.005, 0.5, 1.5 }' < /dev/null
### awk-uninitialized-array-param
awk 'function f(a) { a[1] = 5 } BEGIN { f(b); print b[1], length(b) }' < /dev/null
### awk-local-variable-shadowing
awk 'function g(n,  loc) { loc = n * 2; return loc } BEGIN { loc = 1; print g(3), loc }' < /dev/null
### awk-missing-file-after-good-file
printf '%s' 'x y
' > a.txt
awk '{ print $1 }' a.txt nosuch < /dev/null
### awk-no-program-prints-usage
awk < /dev/null
### awk-time-functions
awk 'BEGIN { print strftime("%Y-%m-%d %H:%M", 86400 * 365, 1); print (systime() > 1000), (mktime("2020 01 02 03 04 05") > 0) }' < /dev/null
### awk-for-in-order-mixed-keys
awk 'BEGIN { a["x"]; a["b"]; a["z"]; a["a"]; a[10]; a[9]; a[100]; for (k in a) printf "%s ", k; print "" }' < /dev/null
### awk-for-in-order-integer-keys
awk 'BEGIN { for (i = 1; i <= 12; i++) a[i]; for (k in a) printf "%s ", k; print "" }' < /dev/null
### awk-for-in-order-word-count
printf '%s' 'the cat the dog a cat
and the bird sat on a mat
' | awk '{ for (i = 1; i <= NF; i++) c[$i]++ } END { for (w in c) print w, c[w] }'
### awk-for-in-order-after-table-growth
awk 'BEGIN { for (i = 0; i < 2000; i++) a["k" i]; for (k in a) if (n++ < 40) printf "%s ", k; print "" }' < /dev/null
### awk-for-in-order-after-deletes-and-lookups
awk 'BEGIN { for (i = 0; i < 60; i++) a[i]; for (i = 0; i < 60; i += 3) delete a[i]; x = (5 in a); y = a[7]; for (k in a) printf "%s ", k; print "" }' < /dev/null
### awk-for-in-order-split-array
awk 'BEGIN { n = split("a b c d e f g h i j k l m", arr); arr["x"] = 1; for (k in arr) printf "%s ", k; print "" }' < /dev/null
### awk-for-in-key-is-a-string
awk 'BEGIN { a[10]; a[9]; for (k in a) if (k < 5) print "string compare", k }' < /dev/null
### awk-for-in-iterates-snapshot
awk 'BEGIN { a[1]; a[2]; a[3]; for (k in a) { delete a; print k } }' < /dev/null
### awk-for-in-argv
awk 'BEGIN { for (k in ARGV) printf "%s=%s ", k, ARGV[k]; print "" }' a b c < /dev/null
### awk-regex-alternation-longest-match
printf '%s' 'xyz international inn
' | awk '{ match($0, /x|xy/); print RSTART, RLENGTH; gsub(/in|inter/, "#"); print }'
### awk-hex-looking-fields
printf '%s' '0x19 0xff 0x1f 0xA 0X10 -0x10 0x1.8
' | awk '{ for (i = 1; i <= NF; i++) printf "%s:%d:%s ", $i, ($i == $i+0), $i+0; print "" }'
### awk-printf-char-from-numeric-field
printf '%s' '65 66.7 abc
' | awk '{ printf "%c|%c|%c|%c\n", $1, $2, $3, $1 + 0 }'
### awk-printf-flags-and-star
awk 'BEGIN { printf "%#x|%#o|%#.3g|%*.*f|%-*s|%.3d|%+5d|% 5d|\n", 255, 8, 1, 8, 2, 3.14159, 6, "ab", 5, 5, 5 }' < /dev/null
### awk-convfmt-and-ofmt-differ
awk 'BEGIN { OFMT = "%.2g"; CONVFMT = "%.3g"; x = 123.456; print x, x ""; a[x] = 1; for (k in a) print k }' < /dev/null
### awk-return-outside-function-error
awk 'BEGIN { return 1 }' < /dev/null
### awk-break-outside-loop-error
awk 'BEGIN { break }' < /dev/null
### awk-next-in-function-error
printf '%s' 'x
' | awk 'function f() { next } { f() }'
### awk-next-in-end-error
printf '%s' 'x
' | awk 'END { next }'
### awk-toupper-non-ascii-untouched
awk 'BEGIN { s = "abcé"; print toupper(s), length(s) }' < /dev/null
### awk-nested-parentheses
awk 'BEGIN { print ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) }' < /dev/null
### awk-too-deeply-nested-parentheses-are-a-syntax-error
awk 'BEGIN { print ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))) }' < /dev/null
### awk-long-else-if-chain
printf '%s' '7
60
61
' | awk '{ if ($1 == 0) print 0; else if ($1 == 1) print 1; else if ($1 == 2) print 2; else if ($1 == 3) print 3; else if ($1 == 4) print 4; else if ($1 == 5) print 5; else if ($1 == 6) print 6; else if ($1 == 7) print 7; else if ($1 == 8) print 8; else if ($1 == 9) print 9; else if ($1 == 10) print 10; else if ($1 == 11) print 11; else if ($1 == 12) print 12; else if ($1 == 13) print 13; else if ($1 == 14) print 14; else if ($1 == 15) print 15; else if ($1 == 16) print 16; else if ($1 == 17) print 17; else if ($1 == 18) print 18; else if ($1 == 19) print 19; else if ($1 == 20) print 20; else if ($1 == 21) print 21; else if ($1 == 22) print 22; else if ($1 == 23) print 23; else if ($1 == 24) print 24; else if ($1 == 25) print 25; else if ($1 == 26) print 26; else if ($1 == 27) print 27; else if ($1 == 28) print 28; else if ($1 == 29) print 29; else if ($1 == 30) print 30; else if ($1 == 31) print 31; else if ($1 == 32) print 32; else if ($1 == 33) print 33; else if ($1 == 34) print 34; else if ($1 == 35) print 35; else if ($1 == 36) print 36; else if ($1 == 37) print 37; else if ($1 == 38) print 38; else if ($1 == 39) print 39; else if ($1 == 40) print 40; else if ($1 == 41) print 41; else if ($1 == 42) print 42; else if ($1 == 43) print 43; else if ($1 == 44) print 44; else if ($1 == 45) print 45; else if ($1 == 46) print 46; else if ($1 == 47) print 47; else if ($1 == 48) print 48; else if ($1 == 49) print 49; else if ($1 == 50) print 50; else if ($1 == 51) print 51; else if ($1 == 52) print 52; else if ($1 == 53) print 53; else if ($1 == 54) print 54; else if ($1 == 55) print 55; else if ($1 == 56) print 56; else if ($1 == 57) print 57; else if ($1 == 58) print 58; else if ($1 == 59) print 59; else if ($1 == 60) print 60; else print -1 }'
