# cmd_text_encode: od, xxd, base64, md5sum, sha1sum, sha256sum
# Known divergences: none
### od-default-octal-words
printf 'abc\n\001\377' | od
### od-characters
printf 'hello\tworld\n\000\177\200' | od -c
### od-named-characters
printf 'a\000\n\177 ' | od -a
### od-hex-bytes-no-address
printf 'abcdefghijklmnopqrstu' | od -An -tx1
### od-address-radix
printf 'abc' | od -Ax -c
printf 'abcdefghijklmnopq' | od -Ad -tx1
### od-duplicate-suppression
printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaX' | od -c
printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' | od -v -c
### od-multiple-types-aligned
printf 'abcdefghijklmnopq' | od -tx1 -c
printf 'ab' | od -t d1 -t u4
### od-integer-widths
printf '\377\377\001\000abcd' | od -td2
printf '\377\377\001\000abcd' | od -tu4
printf '\377\377\001\000abcd' | od -tx8
printf 'abcdefgh' | od -b
printf 'abcdefgh' | od -x
printf 'abcdefgh' | od -d
### od-skip-and-count
printf 'abcdefghij' | od -j 2 -N 4 -c
printf 'abcdefghij' | od -w4 -tx1
### od-text-column
printf 'hi there' | od -tx1z
### xxd-default
printf 'Hello, xxd world!\n\000\001\377' | xxd
### xxd-plain-and-revert
printf 'abc\n' | xxd -p
printf '616263\n' | xxd -r -p
echo
printf 'round trip\n' | xxd | xxd -r
### xxd-columns-groups-upper
printf 'abcdefghijklmnopqrstuvwxyz' | xxd -c 8 -g 4 -u
printf 'abcdefghijklmnop' | xxd -g 1
printf 'abcdefghijklmnop' | xxd -g 0
### xxd-seek-and-length
printf 'abcdefghijklmnopqrstuvwxyz' | xxd -s 4 -l 6
printf 'abcdefghij' > f
xxd -s -3 f
### xxd-include-and-bits
printf 'ab\n' > data.bin
xxd -i data.bin
printf 'AB' | xxd -b
### base64-encode-decode
printf 'hello world' | base64
printf 'hello world' | base64 | base64 -d
echo
### base64-wrap
seq 1 40 | base64
seq 1 10 | base64 -w 16
printf 'abc' | base64 -w 0
echo
### base64-invalid-input
printf 'aGVs!bG8=' | base64 -d
echo "rc=$?"
printf 'aGVs!bG8=' | base64 -d -i
echo
### md5sum-files-and-stdin
printf 'abc' > a
printf '' > empty
md5sum a empty
printf 'abc' | md5sum
printf 'abc' | md5sum -
### sha-sums
printf 'abc' > a
sha1sum a
sha256sum a
printf 'hello\n' | sha256sum
### md5sum-check-ok-and-failed
printf 'one\n' > a
printf 'two\n' > b
md5sum a b > sums
md5sum -c sums
echo "rc=$?"
printf 'changed\n' > b
md5sum -c sums
echo "rc=$?"
md5sum -c --quiet sums
echo "rc=$?"
### md5sum-check-missing-file
printf 'one\n' > a
md5sum a > sums
rm a
md5sum -c sums
echo "rc=$?"
### sha256sum-check-status
printf 'x' > a
sha256sum a > sums
sha256sum -c --status sums
echo "rc=$?"
### md5sum-missing-input
md5sum nosuch
echo "rc=$?"
