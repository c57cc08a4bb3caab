# fid_printf: printf formats, flags, precision and integer edge values
# Known divergences:
#   m-escape-in-format: fixtures are recorded under LC_ALL=C, where bash cannot encode \u00e9 and prints it escaped; the sandbox always speaks UTF-8
### f00-v00-s-0
printf '%s|
' 0; echo "s=$?"
### f00-v01-s-1
printf '%s|
' 1; echo "s=$?"
### f00-v02-s-1
printf '%s|
' -1; echo "s=$?"
### f00-v03-s-42
printf '%s|
' 42; echo "s=$?"
### f00-v04-s-255
printf '%s|
' 255; echo "s=$?"
### f00-v05-s-abc
printf '%s|
' abc; echo "s=$?"
### f00-v06-s-x
printf '%s|
' ''; echo "s=$?"
### f00-v07-s-3.5
printf '%s|
' 3.5; echo "s=$?"
### f00-v08-s-0x1f
printf '%s|
' 0x1f; echo "s=$?"
### f00-v09-s-010
printf '%s|
' 010; echo "s=$?"
### f00-v10-s-9223372036854775807
printf '%s|
' 9223372036854775807; echo "s=$?"
### f00-v11-s-9223372036854775808
printf '%s|
' 9223372036854775808; echo "s=$?"
### f00-v12-s-9223372036854775809
printf '%s|
' -9223372036854775809; echo "s=$?"
### f00-v13-s-18446744073709551615
printf '%s|
' 18446744073709551615; echo "s=$?"
### f00-v14-s-A
printf '%s|
' ''"'"'A'; echo "s=$?"
### f00-v15-s-b
printf '%s|
' '"b'; echo "s=$?"
### f00-v16-s-1e3
printf '%s|
' 1e3; echo "s=$?"
### f00-v17-s-12
printf '%s|
' ' 12'; echo "s=$?"
### f00-v18-s-12abc
printf '%s|
' 12abc; echo "s=$?"
### f00-v19-s-a-b
printf '%s|
' 'a b'; echo "s=$?"
### f01-v00-5s-0
printf '%5s|
' 0; echo "s=$?"
### f01-v01-5s-1
printf '%5s|
' 1; echo "s=$?"
### f01-v02-5s-1
printf '%5s|
' -1; echo "s=$?"
### f01-v03-5s-42
printf '%5s|
' 42; echo "s=$?"
### f01-v04-5s-255
printf '%5s|
' 255; echo "s=$?"
### f01-v05-5s-abc
printf '%5s|
' abc; echo "s=$?"
### f01-v06-5s-x
printf '%5s|
' ''; echo "s=$?"
### f01-v07-5s-3.5
printf '%5s|
' 3.5; echo "s=$?"
### f01-v08-5s-0x1f
printf '%5s|
' 0x1f; echo "s=$?"
### f01-v09-5s-010
printf '%5s|
' 010; echo "s=$?"
### f01-v10-5s-9223372036854775807
printf '%5s|
' 9223372036854775807; echo "s=$?"
### f01-v11-5s-9223372036854775808
printf '%5s|
' 9223372036854775808; echo "s=$?"
### f01-v12-5s-9223372036854775809
printf '%5s|
' -9223372036854775809; echo "s=$?"
### f01-v13-5s-18446744073709551615
printf '%5s|
' 18446744073709551615; echo "s=$?"
### f01-v14-5s-A
printf '%5s|
' ''"'"'A'; echo "s=$?"
### f01-v15-5s-b
printf '%5s|
' '"b'; echo "s=$?"
### f01-v16-5s-1e3
printf '%5s|
' 1e3; echo "s=$?"
### f01-v17-5s-12
printf '%5s|
' ' 12'; echo "s=$?"
### f01-v18-5s-12abc
printf '%5s|
' 12abc; echo "s=$?"
### f01-v19-5s-a-b
printf '%5s|
' 'a b'; echo "s=$?"
### f02-v00-5s-0
printf '%-5s||
' 0; echo "s=$?"
### f02-v01-5s-1
printf '%-5s||
' 1; echo "s=$?"
### f02-v02-5s-1
printf '%-5s||
' -1; echo "s=$?"
### f02-v03-5s-42
printf '%-5s||
' 42; echo "s=$?"
### f02-v04-5s-255
printf '%-5s||
' 255; echo "s=$?"
### f02-v05-5s-abc
printf '%-5s||
' abc; echo "s=$?"
### f02-v06-5s-x
printf '%-5s||
' ''; echo "s=$?"
### f02-v07-5s-3.5
printf '%-5s||
' 3.5; echo "s=$?"
### f02-v08-5s-0x1f
printf '%-5s||
' 0x1f; echo "s=$?"
### f02-v09-5s-010
printf '%-5s||
' 010; echo "s=$?"
### f02-v10-5s-9223372036854775807
printf '%-5s||
' 9223372036854775807; echo "s=$?"
### f02-v11-5s-9223372036854775808
printf '%-5s||
' 9223372036854775808; echo "s=$?"
### f02-v12-5s-9223372036854775809
printf '%-5s||
' -9223372036854775809; echo "s=$?"
### f02-v13-5s-18446744073709551615
printf '%-5s||
' 18446744073709551615; echo "s=$?"
### f02-v14-5s-A
printf '%-5s||
' ''"'"'A'; echo "s=$?"
### f02-v15-5s-b
printf '%-5s||
' '"b'; echo "s=$?"
### f02-v16-5s-1e3
printf '%-5s||
' 1e3; echo "s=$?"
### f02-v17-5s-12
printf '%-5s||
' ' 12'; echo "s=$?"
### f02-v18-5s-12abc
printf '%-5s||
' 12abc; echo "s=$?"
### f02-v19-5s-a-b
printf '%-5s||
' 'a b'; echo "s=$?"
### f03-v00-06s-0
printf '%06s|
' 0; echo "s=$?"
### f03-v01-06s-1
printf '%06s|
' 1; echo "s=$?"
### f03-v02-06s-1
printf '%06s|
' -1; echo "s=$?"
### f03-v03-06s-42
printf '%06s|
' 42; echo "s=$?"
### f03-v04-06s-255
printf '%06s|
' 255; echo "s=$?"
### f03-v05-06s-abc
printf '%06s|
' abc; echo "s=$?"
### f03-v06-06s-x
printf '%06s|
' ''; echo "s=$?"
### f03-v07-06s-3.5
printf '%06s|
' 3.5; echo "s=$?"
### f03-v08-06s-0x1f
printf '%06s|
' 0x1f; echo "s=$?"
### f03-v09-06s-010
printf '%06s|
' 010; echo "s=$?"
### f03-v10-06s-9223372036854775807
printf '%06s|
' 9223372036854775807; echo "s=$?"
### f03-v11-06s-9223372036854775808
printf '%06s|
' 9223372036854775808; echo "s=$?"
### f03-v12-06s-9223372036854775809
printf '%06s|
' -9223372036854775809; echo "s=$?"
### f03-v13-06s-18446744073709551615
printf '%06s|
' 18446744073709551615; echo "s=$?"
### f03-v14-06s-A
printf '%06s|
' ''"'"'A'; echo "s=$?"
### f03-v15-06s-b
printf '%06s|
' '"b'; echo "s=$?"
### f03-v16-06s-1e3
printf '%06s|
' 1e3; echo "s=$?"
### f03-v17-06s-12
printf '%06s|
' ' 12'; echo "s=$?"
### f03-v18-06s-12abc
printf '%06s|
' 12abc; echo "s=$?"
### f03-v19-06s-a-b
printf '%06s|
' 'a b'; echo "s=$?"
### f04-v00-.2s-0
printf '%.2s|
' 0; echo "s=$?"
### f04-v01-.2s-1
printf '%.2s|
' 1; echo "s=$?"
### f04-v02-.2s-1
printf '%.2s|
' -1; echo "s=$?"
### f04-v03-.2s-42
printf '%.2s|
' 42; echo "s=$?"
### f04-v04-.2s-255
printf '%.2s|
' 255; echo "s=$?"
### f04-v05-.2s-abc
printf '%.2s|
' abc; echo "s=$?"
### f04-v06-.2s-x
printf '%.2s|
' ''; echo "s=$?"
### f04-v07-.2s-3.5
printf '%.2s|
' 3.5; echo "s=$?"
### f04-v08-.2s-0x1f
printf '%.2s|
' 0x1f; echo "s=$?"
### f04-v09-.2s-010
printf '%.2s|
' 010; echo "s=$?"
### f04-v10-.2s-9223372036854775807
printf '%.2s|
' 9223372036854775807; echo "s=$?"
### f04-v11-.2s-9223372036854775808
printf '%.2s|
' 9223372036854775808; echo "s=$?"
### f04-v12-.2s-9223372036854775809
printf '%.2s|
' -9223372036854775809; echo "s=$?"
### f04-v13-.2s-18446744073709551615
printf '%.2s|
' 18446744073709551615; echo "s=$?"
### f04-v14-.2s-A
printf '%.2s|
' ''"'"'A'; echo "s=$?"
### f04-v15-.2s-b
printf '%.2s|
' '"b'; echo "s=$?"
### f04-v16-.2s-1e3
printf '%.2s|
' 1e3; echo "s=$?"
### f04-v17-.2s-12
printf '%.2s|
' ' 12'; echo "s=$?"
### f04-v18-.2s-12abc
printf '%.2s|
' 12abc; echo "s=$?"
### f04-v19-.2s-a-b
printf '%.2s|
' 'a b'; echo "s=$?"
### f05-v00-6.0s-0
printf '%6.0s|
' 0; echo "s=$?"
### f05-v01-6.0s-1
printf '%6.0s|
' 1; echo "s=$?"
### f05-v02-6.0s-1
printf '%6.0s|
' -1; echo "s=$?"
### f05-v03-6.0s-42
printf '%6.0s|
' 42; echo "s=$?"
### f05-v04-6.0s-255
printf '%6.0s|
' 255; echo "s=$?"
### f05-v05-6.0s-abc
printf '%6.0s|
' abc; echo "s=$?"
### f05-v06-6.0s-x
printf '%6.0s|
' ''; echo "s=$?"
### f05-v07-6.0s-3.5
printf '%6.0s|
' 3.5; echo "s=$?"
### f05-v08-6.0s-0x1f
printf '%6.0s|
' 0x1f; echo "s=$?"
### f05-v09-6.0s-010
printf '%6.0s|
' 010; echo "s=$?"
### f05-v10-6.0s-9223372036854775807
printf '%6.0s|
' 9223372036854775807; echo "s=$?"
### f05-v11-6.0s-9223372036854775808
printf '%6.0s|
' 9223372036854775808; echo "s=$?"
### f05-v12-6.0s-9223372036854775809
printf '%6.0s|
' -9223372036854775809; echo "s=$?"
### f05-v13-6.0s-18446744073709551615
printf '%6.0s|
' 18446744073709551615; echo "s=$?"
### f05-v14-6.0s-A
printf '%6.0s|
' ''"'"'A'; echo "s=$?"
### f05-v15-6.0s-b
printf '%6.0s|
' '"b'; echo "s=$?"
### f05-v16-6.0s-1e3
printf '%6.0s|
' 1e3; echo "s=$?"
### f05-v17-6.0s-12
printf '%6.0s|
' ' 12'; echo "s=$?"
### f05-v18-6.0s-12abc
printf '%6.0s|
' 12abc; echo "s=$?"
### f05-v19-6.0s-a-b
printf '%6.0s|
' 'a b'; echo "s=$?"
### f06-v00-.s-0
printf '%.s|
' 0; echo "s=$?"
### f06-v01-.s-1
printf '%.s|
' 1; echo "s=$?"
### f06-v02-.s-1
printf '%.s|
' -1; echo "s=$?"
### f06-v03-.s-42
printf '%.s|
' 42; echo "s=$?"
### f06-v04-.s-255
printf '%.s|
' 255; echo "s=$?"
### f06-v05-.s-abc
printf '%.s|
' abc; echo "s=$?"
### f06-v06-.s-x
printf '%.s|
' ''; echo "s=$?"
### f06-v07-.s-3.5
printf '%.s|
' 3.5; echo "s=$?"
### f06-v08-.s-0x1f
printf '%.s|
' 0x1f; echo "s=$?"
### f06-v09-.s-010
printf '%.s|
' 010; echo "s=$?"
### f06-v10-.s-9223372036854775807
printf '%.s|
' 9223372036854775807; echo "s=$?"
### f06-v11-.s-9223372036854775808
printf '%.s|
' 9223372036854775808; echo "s=$?"
### f06-v12-.s-9223372036854775809
printf '%.s|
' -9223372036854775809; echo "s=$?"
### f06-v13-.s-18446744073709551615
printf '%.s|
' 18446744073709551615; echo "s=$?"
### f06-v14-.s-A
printf '%.s|
' ''"'"'A'; echo "s=$?"
### f06-v15-.s-b
printf '%.s|
' '"b'; echo "s=$?"
### f06-v16-.s-1e3
printf '%.s|
' 1e3; echo "s=$?"
### f06-v17-.s-12
printf '%.s|
' ' 12'; echo "s=$?"
### f06-v18-.s-12abc
printf '%.s|
' 12abc; echo "s=$?"
### f06-v19-.s-a-b
printf '%.s|
' 'a b'; echo "s=$?"
### f07-v00-6.2s-0
printf '%-6.2s||
' 0; echo "s=$?"
### f07-v01-6.2s-1
printf '%-6.2s||
' 1; echo "s=$?"
### f07-v02-6.2s-1
printf '%-6.2s||
' -1; echo "s=$?"
### f07-v03-6.2s-42
printf '%-6.2s||
' 42; echo "s=$?"
### f07-v04-6.2s-255
printf '%-6.2s||
' 255; echo "s=$?"
### f07-v05-6.2s-abc
printf '%-6.2s||
' abc; echo "s=$?"
### f07-v06-6.2s-x
printf '%-6.2s||
' ''; echo "s=$?"
### f07-v07-6.2s-3.5
printf '%-6.2s||
' 3.5; echo "s=$?"
### f07-v08-6.2s-0x1f
printf '%-6.2s||
' 0x1f; echo "s=$?"
### f07-v09-6.2s-010
printf '%-6.2s||
' 010; echo "s=$?"
### f07-v10-6.2s-9223372036854775807
printf '%-6.2s||
' 9223372036854775807; echo "s=$?"
### f07-v11-6.2s-9223372036854775808
printf '%-6.2s||
' 9223372036854775808; echo "s=$?"
### f07-v12-6.2s-9223372036854775809
printf '%-6.2s||
' -9223372036854775809; echo "s=$?"
### f07-v13-6.2s-18446744073709551615
printf '%-6.2s||
' 18446744073709551615; echo "s=$?"
### f07-v14-6.2s-A
printf '%-6.2s||
' ''"'"'A'; echo "s=$?"
### f07-v15-6.2s-b
printf '%-6.2s||
' '"b'; echo "s=$?"
### f07-v16-6.2s-1e3
printf '%-6.2s||
' 1e3; echo "s=$?"
### f07-v17-6.2s-12
printf '%-6.2s||
' ' 12'; echo "s=$?"
### f07-v18-6.2s-12abc
printf '%-6.2s||
' 12abc; echo "s=$?"
### f07-v19-6.2s-a-b
printf '%-6.2s||
' 'a b'; echo "s=$?"
### f08-v00-d-0
printf '%d|
' 0; echo "s=$?"
### f08-v01-d-1
printf '%d|
' 1; echo "s=$?"
### f08-v02-d-1
printf '%d|
' -1; echo "s=$?"
### f08-v03-d-42
printf '%d|
' 42; echo "s=$?"
### f08-v04-d-255
printf '%d|
' 255; echo "s=$?"
### f08-v05-d-abc
printf '%d|
' abc; echo "s=$?"
### f08-v06-d-x
printf '%d|
' ''; echo "s=$?"
### f08-v07-d-3.5
printf '%d|
' 3.5; echo "s=$?"
### f08-v08-d-0x1f
printf '%d|
' 0x1f; echo "s=$?"
### f08-v09-d-010
printf '%d|
' 010; echo "s=$?"
### f08-v10-d-9223372036854775807
printf '%d|
' 9223372036854775807; echo "s=$?"
### f08-v11-d-9223372036854775808
printf '%d|
' 9223372036854775808; echo "s=$?"
### f08-v12-d-9223372036854775809
printf '%d|
' -9223372036854775809; echo "s=$?"
### f08-v13-d-18446744073709551615
printf '%d|
' 18446744073709551615; echo "s=$?"
### f08-v14-d-A
printf '%d|
' ''"'"'A'; echo "s=$?"
### f08-v15-d-b
printf '%d|
' '"b'; echo "s=$?"
### f08-v16-d-1e3
printf '%d|
' 1e3; echo "s=$?"
### f08-v17-d-12
printf '%d|
' ' 12'; echo "s=$?"
### f08-v18-d-12abc
printf '%d|
' 12abc; echo "s=$?"
### f08-v19-d-a-b
printf '%d|
' 'a b'; echo "s=$?"
### f09-v00-5d-0
printf '%5d|
' 0; echo "s=$?"
### f09-v01-5d-1
printf '%5d|
' 1; echo "s=$?"
### f09-v02-5d-1
printf '%5d|
' -1; echo "s=$?"
### f09-v03-5d-42
printf '%5d|
' 42; echo "s=$?"
### f09-v04-5d-255
printf '%5d|
' 255; echo "s=$?"
### f09-v05-5d-abc
printf '%5d|
' abc; echo "s=$?"
### f09-v06-5d-x
printf '%5d|
' ''; echo "s=$?"
### f09-v07-5d-3.5
printf '%5d|
' 3.5; echo "s=$?"
### f09-v08-5d-0x1f
printf '%5d|
' 0x1f; echo "s=$?"
### f09-v09-5d-010
printf '%5d|
' 010; echo "s=$?"
### f09-v10-5d-9223372036854775807
printf '%5d|
' 9223372036854775807; echo "s=$?"
### f09-v11-5d-9223372036854775808
printf '%5d|
' 9223372036854775808; echo "s=$?"
### f09-v12-5d-9223372036854775809
printf '%5d|
' -9223372036854775809; echo "s=$?"
### f09-v13-5d-18446744073709551615
printf '%5d|
' 18446744073709551615; echo "s=$?"
### f09-v14-5d-A
printf '%5d|
' ''"'"'A'; echo "s=$?"
### f09-v15-5d-b
printf '%5d|
' '"b'; echo "s=$?"
### f09-v16-5d-1e3
printf '%5d|
' 1e3; echo "s=$?"
### f09-v17-5d-12
printf '%5d|
' ' 12'; echo "s=$?"
### f09-v18-5d-12abc
printf '%5d|
' 12abc; echo "s=$?"
### f09-v19-5d-a-b
printf '%5d|
' 'a b'; echo "s=$?"
### f10-v00-5d-0
printf '%-5d||
' 0; echo "s=$?"
### f10-v01-5d-1
printf '%-5d||
' 1; echo "s=$?"
### f10-v02-5d-1
printf '%-5d||
' -1; echo "s=$?"
### f10-v03-5d-42
printf '%-5d||
' 42; echo "s=$?"
### f10-v04-5d-255
printf '%-5d||
' 255; echo "s=$?"
### f10-v05-5d-abc
printf '%-5d||
' abc; echo "s=$?"
### f10-v06-5d-x
printf '%-5d||
' ''; echo "s=$?"
### f10-v07-5d-3.5
printf '%-5d||
' 3.5; echo "s=$?"
### f10-v08-5d-0x1f
printf '%-5d||
' 0x1f; echo "s=$?"
### f10-v09-5d-010
printf '%-5d||
' 010; echo "s=$?"
### f10-v10-5d-9223372036854775807
printf '%-5d||
' 9223372036854775807; echo "s=$?"
### f10-v11-5d-9223372036854775808
printf '%-5d||
' 9223372036854775808; echo "s=$?"
### f10-v12-5d-9223372036854775809
printf '%-5d||
' -9223372036854775809; echo "s=$?"
### f10-v13-5d-18446744073709551615
printf '%-5d||
' 18446744073709551615; echo "s=$?"
### f10-v14-5d-A
printf '%-5d||
' ''"'"'A'; echo "s=$?"
### f10-v15-5d-b
printf '%-5d||
' '"b'; echo "s=$?"
### f10-v16-5d-1e3
printf '%-5d||
' 1e3; echo "s=$?"
### f10-v17-5d-12
printf '%-5d||
' ' 12'; echo "s=$?"
### f10-v18-5d-12abc
printf '%-5d||
' 12abc; echo "s=$?"
### f10-v19-5d-a-b
printf '%-5d||
' 'a b'; echo "s=$?"
### f11-v00-05d-0
printf '%05d|
' 0; echo "s=$?"
### f11-v01-05d-1
printf '%05d|
' 1; echo "s=$?"
### f11-v02-05d-1
printf '%05d|
' -1; echo "s=$?"
### f11-v03-05d-42
printf '%05d|
' 42; echo "s=$?"
### f11-v04-05d-255
printf '%05d|
' 255; echo "s=$?"
### f11-v05-05d-abc
printf '%05d|
' abc; echo "s=$?"
### f11-v06-05d-x
printf '%05d|
' ''; echo "s=$?"
### f11-v07-05d-3.5
printf '%05d|
' 3.5; echo "s=$?"
### f11-v08-05d-0x1f
printf '%05d|
' 0x1f; echo "s=$?"
### f11-v09-05d-010
printf '%05d|
' 010; echo "s=$?"
### f11-v10-05d-9223372036854775807
printf '%05d|
' 9223372036854775807; echo "s=$?"
### f11-v11-05d-9223372036854775808
printf '%05d|
' 9223372036854775808; echo "s=$?"
### f11-v12-05d-9223372036854775809
printf '%05d|
' -9223372036854775809; echo "s=$?"
### f11-v13-05d-18446744073709551615
printf '%05d|
' 18446744073709551615; echo "s=$?"
### f11-v14-05d-A
printf '%05d|
' ''"'"'A'; echo "s=$?"
### f11-v15-05d-b
printf '%05d|
' '"b'; echo "s=$?"
### f11-v16-05d-1e3
printf '%05d|
' 1e3; echo "s=$?"
### f11-v17-05d-12
printf '%05d|
' ' 12'; echo "s=$?"
### f11-v18-05d-12abc
printf '%05d|
' 12abc; echo "s=$?"
### f11-v19-05d-a-b
printf '%05d|
' 'a b'; echo "s=$?"
### f12-v00-d-0
printf '%+d|
' 0; echo "s=$?"
### f12-v01-d-1
printf '%+d|
' 1; echo "s=$?"
### f12-v02-d-1
printf '%+d|
' -1; echo "s=$?"
### f12-v03-d-42
printf '%+d|
' 42; echo "s=$?"
### f12-v04-d-255
printf '%+d|
' 255; echo "s=$?"
### f12-v05-d-abc
printf '%+d|
' abc; echo "s=$?"
### f12-v06-d-x
printf '%+d|
' ''; echo "s=$?"
### f12-v07-d-3.5
printf '%+d|
' 3.5; echo "s=$?"
### f12-v08-d-0x1f
printf '%+d|
' 0x1f; echo "s=$?"
### f12-v09-d-010
printf '%+d|
' 010; echo "s=$?"
### f12-v10-d-9223372036854775807
printf '%+d|
' 9223372036854775807; echo "s=$?"
### f12-v11-d-9223372036854775808
printf '%+d|
' 9223372036854775808; echo "s=$?"
### f12-v12-d-9223372036854775809
printf '%+d|
' -9223372036854775809; echo "s=$?"
### f12-v13-d-18446744073709551615
printf '%+d|
' 18446744073709551615; echo "s=$?"
### f12-v14-d-A
printf '%+d|
' ''"'"'A'; echo "s=$?"
### f12-v15-d-b
printf '%+d|
' '"b'; echo "s=$?"
### f12-v16-d-1e3
printf '%+d|
' 1e3; echo "s=$?"
### f12-v17-d-12
printf '%+d|
' ' 12'; echo "s=$?"
### f12-v18-d-12abc
printf '%+d|
' 12abc; echo "s=$?"
### f12-v19-d-a-b
printf '%+d|
' 'a b'; echo "s=$?"
### f13-v00-d-0
printf '% d|
' 0; echo "s=$?"
### f13-v01-d-1
printf '% d|
' 1; echo "s=$?"
### f13-v02-d-1
printf '% d|
' -1; echo "s=$?"
### f13-v03-d-42
printf '% d|
' 42; echo "s=$?"
### f13-v04-d-255
printf '% d|
' 255; echo "s=$?"
### f13-v05-d-abc
printf '% d|
' abc; echo "s=$?"
### f13-v06-d-x
printf '% d|
' ''; echo "s=$?"
### f13-v07-d-3.5
printf '% d|
' 3.5; echo "s=$?"
### f13-v08-d-0x1f
printf '% d|
' 0x1f; echo "s=$?"
### f13-v09-d-010
printf '% d|
' 010; echo "s=$?"
### f13-v10-d-9223372036854775807
printf '% d|
' 9223372036854775807; echo "s=$?"
### f13-v11-d-9223372036854775808
printf '% d|
' 9223372036854775808; echo "s=$?"
### f13-v12-d-9223372036854775809
printf '% d|
' -9223372036854775809; echo "s=$?"
### f13-v13-d-18446744073709551615
printf '% d|
' 18446744073709551615; echo "s=$?"
### f13-v14-d-A
printf '% d|
' ''"'"'A'; echo "s=$?"
### f13-v15-d-b
printf '% d|
' '"b'; echo "s=$?"
### f13-v16-d-1e3
printf '% d|
' 1e3; echo "s=$?"
### f13-v17-d-12
printf '% d|
' ' 12'; echo "s=$?"
### f13-v18-d-12abc
printf '% d|
' 12abc; echo "s=$?"
### f13-v19-d-a-b
printf '% d|
' 'a b'; echo "s=$?"
### f14-v00-.3d-0
printf '%.3d|
' 0; echo "s=$?"
### f14-v01-.3d-1
printf '%.3d|
' 1; echo "s=$?"
### f14-v02-.3d-1
printf '%.3d|
' -1; echo "s=$?"
### f14-v03-.3d-42
printf '%.3d|
' 42; echo "s=$?"
### f14-v04-.3d-255
printf '%.3d|
' 255; echo "s=$?"
### f14-v05-.3d-abc
printf '%.3d|
' abc; echo "s=$?"
### f14-v06-.3d-x
printf '%.3d|
' ''; echo "s=$?"
### f14-v07-.3d-3.5
printf '%.3d|
' 3.5; echo "s=$?"
### f14-v08-.3d-0x1f
printf '%.3d|
' 0x1f; echo "s=$?"
### f14-v09-.3d-010
printf '%.3d|
' 010; echo "s=$?"
### f14-v10-.3d-9223372036854775807
printf '%.3d|
' 9223372036854775807; echo "s=$?"
### f14-v11-.3d-9223372036854775808
printf '%.3d|
' 9223372036854775808; echo "s=$?"
### f14-v12-.3d-9223372036854775809
printf '%.3d|
' -9223372036854775809; echo "s=$?"
### f14-v13-.3d-18446744073709551615
printf '%.3d|
' 18446744073709551615; echo "s=$?"
### f14-v14-.3d-A
printf '%.3d|
' ''"'"'A'; echo "s=$?"
### f14-v15-.3d-b
printf '%.3d|
' '"b'; echo "s=$?"
### f14-v16-.3d-1e3
printf '%.3d|
' 1e3; echo "s=$?"
### f14-v17-.3d-12
printf '%.3d|
' ' 12'; echo "s=$?"
### f14-v18-.3d-12abc
printf '%.3d|
' 12abc; echo "s=$?"
### f14-v19-.3d-a-b
printf '%.3d|
' 'a b'; echo "s=$?"
### f15-v00-x-0
printf '%x|
' 0; echo "s=$?"
### f15-v01-x-1
printf '%x|
' 1; echo "s=$?"
### f15-v02-x-1
printf '%x|
' -1; echo "s=$?"
### f15-v03-x-42
printf '%x|
' 42; echo "s=$?"
### f15-v04-x-255
printf '%x|
' 255; echo "s=$?"
### f15-v05-x-abc
printf '%x|
' abc; echo "s=$?"
### f15-v06-x-x
printf '%x|
' ''; echo "s=$?"
### f15-v07-x-3.5
printf '%x|
' 3.5; echo "s=$?"
### f15-v08-x-0x1f
printf '%x|
' 0x1f; echo "s=$?"
### f15-v09-x-010
printf '%x|
' 010; echo "s=$?"
### f15-v10-x-9223372036854775807
printf '%x|
' 9223372036854775807; echo "s=$?"
### f15-v11-x-9223372036854775808
printf '%x|
' 9223372036854775808; echo "s=$?"
### f15-v12-x-9223372036854775809
printf '%x|
' -9223372036854775809; echo "s=$?"
### f15-v13-x-18446744073709551615
printf '%x|
' 18446744073709551615; echo "s=$?"
### f15-v14-x-A
printf '%x|
' ''"'"'A'; echo "s=$?"
### f15-v15-x-b
printf '%x|
' '"b'; echo "s=$?"
### f15-v16-x-1e3
printf '%x|
' 1e3; echo "s=$?"
### f15-v17-x-12
printf '%x|
' ' 12'; echo "s=$?"
### f15-v18-x-12abc
printf '%x|
' 12abc; echo "s=$?"
### f15-v19-x-a-b
printf '%x|
' 'a b'; echo "s=$?"
### f16-v00-x-0
printf '%#x|
' 0; echo "s=$?"
### f16-v01-x-1
printf '%#x|
' 1; echo "s=$?"
### f16-v02-x-1
printf '%#x|
' -1; echo "s=$?"
### f16-v03-x-42
printf '%#x|
' 42; echo "s=$?"
### f16-v04-x-255
printf '%#x|
' 255; echo "s=$?"
### f16-v05-x-abc
printf '%#x|
' abc; echo "s=$?"
### f16-v06-x-x
printf '%#x|
' ''; echo "s=$?"
### f16-v07-x-3.5
printf '%#x|
' 3.5; echo "s=$?"
### f16-v08-x-0x1f
printf '%#x|
' 0x1f; echo "s=$?"
### f16-v09-x-010
printf '%#x|
' 010; echo "s=$?"
### f16-v10-x-9223372036854775807
printf '%#x|
' 9223372036854775807; echo "s=$?"
### f16-v11-x-9223372036854775808
printf '%#x|
' 9223372036854775808; echo "s=$?"
### f16-v12-x-9223372036854775809
printf '%#x|
' -9223372036854775809; echo "s=$?"
### f16-v13-x-18446744073709551615
printf '%#x|
' 18446744073709551615; echo "s=$?"
### f16-v14-x-A
printf '%#x|
' ''"'"'A'; echo "s=$?"
### f16-v15-x-b
printf '%#x|
' '"b'; echo "s=$?"
### f16-v16-x-1e3
printf '%#x|
' 1e3; echo "s=$?"
### f16-v17-x-12
printf '%#x|
' ' 12'; echo "s=$?"
### f16-v18-x-12abc
printf '%#x|
' 12abc; echo "s=$?"
### f16-v19-x-a-b
printf '%#x|
' 'a b'; echo "s=$?"
### f17-v00-X-0
printf '%X|
' 0; echo "s=$?"
### f17-v01-X-1
printf '%X|
' 1; echo "s=$?"
### f17-v02-X-1
printf '%X|
' -1; echo "s=$?"
### f17-v03-X-42
printf '%X|
' 42; echo "s=$?"
### f17-v04-X-255
printf '%X|
' 255; echo "s=$?"
### f17-v05-X-abc
printf '%X|
' abc; echo "s=$?"
### f17-v06-X-x
printf '%X|
' ''; echo "s=$?"
### f17-v07-X-3.5
printf '%X|
' 3.5; echo "s=$?"
### f17-v08-X-0x1f
printf '%X|
' 0x1f; echo "s=$?"
### f17-v09-X-010
printf '%X|
' 010; echo "s=$?"
### f17-v10-X-9223372036854775807
printf '%X|
' 9223372036854775807; echo "s=$?"
### f17-v11-X-9223372036854775808
printf '%X|
' 9223372036854775808; echo "s=$?"
### f17-v12-X-9223372036854775809
printf '%X|
' -9223372036854775809; echo "s=$?"
### f17-v13-X-18446744073709551615
printf '%X|
' 18446744073709551615; echo "s=$?"
### f17-v14-X-A
printf '%X|
' ''"'"'A'; echo "s=$?"
### f17-v15-X-b
printf '%X|
' '"b'; echo "s=$?"
### f17-v16-X-1e3
printf '%X|
' 1e3; echo "s=$?"
### f17-v17-X-12
printf '%X|
' ' 12'; echo "s=$?"
### f17-v18-X-12abc
printf '%X|
' 12abc; echo "s=$?"
### f17-v19-X-a-b
printf '%X|
' 'a b'; echo "s=$?"
### f18-v00-X-0
printf '%#X|
' 0; echo "s=$?"
### f18-v01-X-1
printf '%#X|
' 1; echo "s=$?"
### f18-v02-X-1
printf '%#X|
' -1; echo "s=$?"
### f18-v03-X-42
printf '%#X|
' 42; echo "s=$?"
### f18-v04-X-255
printf '%#X|
' 255; echo "s=$?"
### f18-v05-X-abc
printf '%#X|
' abc; echo "s=$?"
### f18-v06-X-x
printf '%#X|
' ''; echo "s=$?"
### f18-v07-X-3.5
printf '%#X|
' 3.5; echo "s=$?"
### f18-v08-X-0x1f
printf '%#X|
' 0x1f; echo "s=$?"
### f18-v09-X-010
printf '%#X|
' 010; echo "s=$?"
### f18-v10-X-9223372036854775807
printf '%#X|
' 9223372036854775807; echo "s=$?"
### f18-v11-X-9223372036854775808
printf '%#X|
' 9223372036854775808; echo "s=$?"
### f18-v12-X-9223372036854775809
printf '%#X|
' -9223372036854775809; echo "s=$?"
### f18-v13-X-18446744073709551615
printf '%#X|
' 18446744073709551615; echo "s=$?"
### f18-v14-X-A
printf '%#X|
' ''"'"'A'; echo "s=$?"
### f18-v15-X-b
printf '%#X|
' '"b'; echo "s=$?"
### f18-v16-X-1e3
printf '%#X|
' 1e3; echo "s=$?"
### f18-v17-X-12
printf '%#X|
' ' 12'; echo "s=$?"
### f18-v18-X-12abc
printf '%#X|
' 12abc; echo "s=$?"
### f18-v19-X-a-b
printf '%#X|
' 'a b'; echo "s=$?"
### f19-v00-o-0
printf '%o|
' 0; echo "s=$?"
### f19-v01-o-1
printf '%o|
' 1; echo "s=$?"
### f19-v02-o-1
printf '%o|
' -1; echo "s=$?"
### f19-v03-o-42
printf '%o|
' 42; echo "s=$?"
### f19-v04-o-255
printf '%o|
' 255; echo "s=$?"
### f19-v05-o-abc
printf '%o|
' abc; echo "s=$?"
### f19-v06-o-x
printf '%o|
' ''; echo "s=$?"
### f19-v07-o-3.5
printf '%o|
' 3.5; echo "s=$?"
### f19-v08-o-0x1f
printf '%o|
' 0x1f; echo "s=$?"
### f19-v09-o-010
printf '%o|
' 010; echo "s=$?"
### f19-v10-o-9223372036854775807
printf '%o|
' 9223372036854775807; echo "s=$?"
### f19-v11-o-9223372036854775808
printf '%o|
' 9223372036854775808; echo "s=$?"
### f19-v12-o-9223372036854775809
printf '%o|
' -9223372036854775809; echo "s=$?"
### f19-v13-o-18446744073709551615
printf '%o|
' 18446744073709551615; echo "s=$?"
### f19-v14-o-A
printf '%o|
' ''"'"'A'; echo "s=$?"
### f19-v15-o-b
printf '%o|
' '"b'; echo "s=$?"
### f19-v16-o-1e3
printf '%o|
' 1e3; echo "s=$?"
### f19-v17-o-12
printf '%o|
' ' 12'; echo "s=$?"
### f19-v18-o-12abc
printf '%o|
' 12abc; echo "s=$?"
### f19-v19-o-a-b
printf '%o|
' 'a b'; echo "s=$?"
### f20-v00-o-0
printf '%#o|
' 0; echo "s=$?"
### f20-v01-o-1
printf '%#o|
' 1; echo "s=$?"
### f20-v02-o-1
printf '%#o|
' -1; echo "s=$?"
### f20-v03-o-42
printf '%#o|
' 42; echo "s=$?"
### f20-v04-o-255
printf '%#o|
' 255; echo "s=$?"
### f20-v05-o-abc
printf '%#o|
' abc; echo "s=$?"
### f20-v06-o-x
printf '%#o|
' ''; echo "s=$?"
### f20-v07-o-3.5
printf '%#o|
' 3.5; echo "s=$?"
### f20-v08-o-0x1f
printf '%#o|
' 0x1f; echo "s=$?"
### f20-v09-o-010
printf '%#o|
' 010; echo "s=$?"
### f20-v10-o-9223372036854775807
printf '%#o|
' 9223372036854775807; echo "s=$?"
### f20-v11-o-9223372036854775808
printf '%#o|
' 9223372036854775808; echo "s=$?"
### f20-v12-o-9223372036854775809
printf '%#o|
' -9223372036854775809; echo "s=$?"
### f20-v13-o-18446744073709551615
printf '%#o|
' 18446744073709551615; echo "s=$?"
### f20-v14-o-A
printf '%#o|
' ''"'"'A'; echo "s=$?"
### f20-v15-o-b
printf '%#o|
' '"b'; echo "s=$?"
### f20-v16-o-1e3
printf '%#o|
' 1e3; echo "s=$?"
### f20-v17-o-12
printf '%#o|
' ' 12'; echo "s=$?"
### f20-v18-o-12abc
printf '%#o|
' 12abc; echo "s=$?"
### f20-v19-o-a-b
printf '%#o|
' 'a b'; echo "s=$?"
### f21-v00-u-0
printf '%u|
' 0; echo "s=$?"
### f21-v01-u-1
printf '%u|
' 1; echo "s=$?"
### f21-v02-u-1
printf '%u|
' -1; echo "s=$?"
### f21-v03-u-42
printf '%u|
' 42; echo "s=$?"
### f21-v04-u-255
printf '%u|
' 255; echo "s=$?"
### f21-v05-u-abc
printf '%u|
' abc; echo "s=$?"
### f21-v06-u-x
printf '%u|
' ''; echo "s=$?"
### f21-v07-u-3.5
printf '%u|
' 3.5; echo "s=$?"
### f21-v08-u-0x1f
printf '%u|
' 0x1f; echo "s=$?"
### f21-v09-u-010
printf '%u|
' 010; echo "s=$?"
### f21-v10-u-9223372036854775807
printf '%u|
' 9223372036854775807; echo "s=$?"
### f21-v11-u-9223372036854775808
printf '%u|
' 9223372036854775808; echo "s=$?"
### f21-v12-u-9223372036854775809
printf '%u|
' -9223372036854775809; echo "s=$?"
### f21-v13-u-18446744073709551615
printf '%u|
' 18446744073709551615; echo "s=$?"
### f21-v14-u-A
printf '%u|
' ''"'"'A'; echo "s=$?"
### f21-v15-u-b
printf '%u|
' '"b'; echo "s=$?"
### f21-v16-u-1e3
printf '%u|
' 1e3; echo "s=$?"
### f21-v17-u-12
printf '%u|
' ' 12'; echo "s=$?"
### f21-v18-u-12abc
printf '%u|
' 12abc; echo "s=$?"
### f21-v19-u-a-b
printf '%u|
' 'a b'; echo "s=$?"
### f22-v00-i-0
printf '%i|
' 0; echo "s=$?"
### f22-v01-i-1
printf '%i|
' 1; echo "s=$?"
### f22-v02-i-1
printf '%i|
' -1; echo "s=$?"
### f22-v03-i-42
printf '%i|
' 42; echo "s=$?"
### f22-v04-i-255
printf '%i|
' 255; echo "s=$?"
### f22-v05-i-abc
printf '%i|
' abc; echo "s=$?"
### f22-v06-i-x
printf '%i|
' ''; echo "s=$?"
### f22-v07-i-3.5
printf '%i|
' 3.5; echo "s=$?"
### f22-v08-i-0x1f
printf '%i|
' 0x1f; echo "s=$?"
### f22-v09-i-010
printf '%i|
' 010; echo "s=$?"
### f22-v10-i-9223372036854775807
printf '%i|
' 9223372036854775807; echo "s=$?"
### f22-v11-i-9223372036854775808
printf '%i|
' 9223372036854775808; echo "s=$?"
### f22-v12-i-9223372036854775809
printf '%i|
' -9223372036854775809; echo "s=$?"
### f22-v13-i-18446744073709551615
printf '%i|
' 18446744073709551615; echo "s=$?"
### f22-v14-i-A
printf '%i|
' ''"'"'A'; echo "s=$?"
### f22-v15-i-b
printf '%i|
' '"b'; echo "s=$?"
### f22-v16-i-1e3
printf '%i|
' 1e3; echo "s=$?"
### f22-v17-i-12
printf '%i|
' ' 12'; echo "s=$?"
### f22-v18-i-12abc
printf '%i|
' 12abc; echo "s=$?"
### f22-v19-i-a-b
printf '%i|
' 'a b'; echo "s=$?"
### f23-v00-c-0
printf '%c|
' 0; echo "s=$?"
### f23-v01-c-1
printf '%c|
' 1; echo "s=$?"
### f23-v02-c-1
printf '%c|
' -1; echo "s=$?"
### f23-v03-c-42
printf '%c|
' 42; echo "s=$?"
### f23-v04-c-255
printf '%c|
' 255; echo "s=$?"
### f23-v05-c-abc
printf '%c|
' abc; echo "s=$?"
### f23-v06-c-x
printf '%c|
' ''; echo "s=$?"
### f23-v07-c-3.5
printf '%c|
' 3.5; echo "s=$?"
### f23-v08-c-0x1f
printf '%c|
' 0x1f; echo "s=$?"
### f23-v09-c-010
printf '%c|
' 010; echo "s=$?"
### f23-v10-c-9223372036854775807
printf '%c|
' 9223372036854775807; echo "s=$?"
### f23-v11-c-9223372036854775808
printf '%c|
' 9223372036854775808; echo "s=$?"
### f23-v12-c-9223372036854775809
printf '%c|
' -9223372036854775809; echo "s=$?"
### f23-v13-c-18446744073709551615
printf '%c|
' 18446744073709551615; echo "s=$?"
### f23-v14-c-A
printf '%c|
' ''"'"'A'; echo "s=$?"
### f23-v15-c-b
printf '%c|
' '"b'; echo "s=$?"
### f23-v16-c-1e3
printf '%c|
' 1e3; echo "s=$?"
### f23-v17-c-12
printf '%c|
' ' 12'; echo "s=$?"
### f23-v18-c-12abc
printf '%c|
' 12abc; echo "s=$?"
### f23-v19-c-a-b
printf '%c|
' 'a b'; echo "s=$?"
### f24-v00-b-0
printf '%b|
' 0; echo "s=$?"
### f24-v01-b-1
printf '%b|
' 1; echo "s=$?"
### f24-v02-b-1
printf '%b|
' -1; echo "s=$?"
### f24-v03-b-42
printf '%b|
' 42; echo "s=$?"
### f24-v04-b-255
printf '%b|
' 255; echo "s=$?"
### f24-v05-b-abc
printf '%b|
' abc; echo "s=$?"
### f24-v06-b-x
printf '%b|
' ''; echo "s=$?"
### f24-v07-b-3.5
printf '%b|
' 3.5; echo "s=$?"
### f24-v08-b-0x1f
printf '%b|
' 0x1f; echo "s=$?"
### f24-v09-b-010
printf '%b|
' 010; echo "s=$?"
### f24-v10-b-9223372036854775807
printf '%b|
' 9223372036854775807; echo "s=$?"
### f24-v11-b-9223372036854775808
printf '%b|
' 9223372036854775808; echo "s=$?"
### f24-v12-b-9223372036854775809
printf '%b|
' -9223372036854775809; echo "s=$?"
### f24-v13-b-18446744073709551615
printf '%b|
' 18446744073709551615; echo "s=$?"
### f24-v14-b-A
printf '%b|
' ''"'"'A'; echo "s=$?"
### f24-v15-b-b
printf '%b|
' '"b'; echo "s=$?"
### f24-v16-b-1e3
printf '%b|
' 1e3; echo "s=$?"
### f24-v17-b-12
printf '%b|
' ' 12'; echo "s=$?"
### f24-v18-b-12abc
printf '%b|
' 12abc; echo "s=$?"
### f24-v19-b-a-b
printf '%b|
' 'a b'; echo "s=$?"
### f25-v00-q-0
printf '%q|
' 0; echo "s=$?"
### f25-v01-q-1
printf '%q|
' 1; echo "s=$?"
### f25-v02-q-1
printf '%q|
' -1; echo "s=$?"
### f25-v03-q-42
printf '%q|
' 42; echo "s=$?"
### f25-v04-q-255
printf '%q|
' 255; echo "s=$?"
### f25-v05-q-abc
printf '%q|
' abc; echo "s=$?"
### f25-v06-q-x
printf '%q|
' ''; echo "s=$?"
### f25-v07-q-3.5
printf '%q|
' 3.5; echo "s=$?"
### f25-v08-q-0x1f
printf '%q|
' 0x1f; echo "s=$?"
### f25-v09-q-010
printf '%q|
' 010; echo "s=$?"
### f25-v10-q-9223372036854775807
printf '%q|
' 9223372036854775807; echo "s=$?"
### f25-v11-q-9223372036854775808
printf '%q|
' 9223372036854775808; echo "s=$?"
### f25-v12-q-9223372036854775809
printf '%q|
' -9223372036854775809; echo "s=$?"
### f25-v13-q-18446744073709551615
printf '%q|
' 18446744073709551615; echo "s=$?"
### f25-v14-q-A
printf '%q|
' ''"'"'A'; echo "s=$?"
### f25-v15-q-b
printf '%q|
' '"b'; echo "s=$?"
### f25-v16-q-1e3
printf '%q|
' 1e3; echo "s=$?"
### f25-v17-q-12
printf '%q|
' ' 12'; echo "s=$?"
### f25-v18-q-12abc
printf '%q|
' 12abc; echo "s=$?"
### f25-v19-q-a-b
printf '%q|
' 'a b'; echo "s=$?"
### f26-v00-e-0
printf '%e|
' 0; echo "s=$?"
### f26-v01-e-1
printf '%e|
' 1; echo "s=$?"
### f26-v02-e-1
printf '%e|
' -1; echo "s=$?"
### f26-v03-e-42
printf '%e|
' 42; echo "s=$?"
### f26-v04-e-255
printf '%e|
' 255; echo "s=$?"
### f26-v05-e-abc
printf '%e|
' abc; echo "s=$?"
### f26-v06-e-x
printf '%e|
' ''; echo "s=$?"
### f26-v07-e-3.5
printf '%e|
' 3.5; echo "s=$?"
### f26-v08-e-0x1f
printf '%e|
' 0x1f; echo "s=$?"
### f26-v09-e-010
printf '%e|
' 010; echo "s=$?"
### f26-v10-e-9223372036854775807
printf '%e|
' 9223372036854775807; echo "s=$?"
### f26-v11-e-9223372036854775808
printf '%e|
' 9223372036854775808; echo "s=$?"
### f26-v12-e-9223372036854775809
printf '%e|
' -9223372036854775809; echo "s=$?"
### f26-v13-e-18446744073709551615
printf '%e|
' 18446744073709551615; echo "s=$?"
### f26-v14-e-A
printf '%e|
' ''"'"'A'; echo "s=$?"
### f26-v15-e-b
printf '%e|
' '"b'; echo "s=$?"
### f26-v16-e-1e3
printf '%e|
' 1e3; echo "s=$?"
### f26-v17-e-12
printf '%e|
' ' 12'; echo "s=$?"
### f26-v18-e-12abc
printf '%e|
' 12abc; echo "s=$?"
### f26-v19-e-a-b
printf '%e|
' 'a b'; echo "s=$?"
### f27-v00-.2e-0
printf '%.2e|
' 0; echo "s=$?"
### f27-v01-.2e-1
printf '%.2e|
' 1; echo "s=$?"
### f27-v02-.2e-1
printf '%.2e|
' -1; echo "s=$?"
### f27-v03-.2e-42
printf '%.2e|
' 42; echo "s=$?"
### f27-v04-.2e-255
printf '%.2e|
' 255; echo "s=$?"
### f27-v05-.2e-abc
printf '%.2e|
' abc; echo "s=$?"
### f27-v06-.2e-x
printf '%.2e|
' ''; echo "s=$?"
### f27-v07-.2e-3.5
printf '%.2e|
' 3.5; echo "s=$?"
### f27-v08-.2e-0x1f
printf '%.2e|
' 0x1f; echo "s=$?"
### f27-v09-.2e-010
printf '%.2e|
' 010; echo "s=$?"
### f27-v10-.2e-9223372036854775807
printf '%.2e|
' 9223372036854775807; echo "s=$?"
### f27-v11-.2e-9223372036854775808
printf '%.2e|
' 9223372036854775808; echo "s=$?"
### f27-v12-.2e-9223372036854775809
printf '%.2e|
' -9223372036854775809; echo "s=$?"
### f27-v13-.2e-18446744073709551615
printf '%.2e|
' 18446744073709551615; echo "s=$?"
### f27-v14-.2e-A
printf '%.2e|
' ''"'"'A'; echo "s=$?"
### f27-v15-.2e-b
printf '%.2e|
' '"b'; echo "s=$?"
### f27-v16-.2e-1e3
printf '%.2e|
' 1e3; echo "s=$?"
### f27-v17-.2e-12
printf '%.2e|
' ' 12'; echo "s=$?"
### f27-v18-.2e-12abc
printf '%.2e|
' 12abc; echo "s=$?"
### f27-v19-.2e-a-b
printf '%.2e|
' 'a b'; echo "s=$?"
### f28-v00-f-0
printf '%f|
' 0; echo "s=$?"
### f28-v01-f-1
printf '%f|
' 1; echo "s=$?"
### f28-v02-f-1
printf '%f|
' -1; echo "s=$?"
### f28-v03-f-42
printf '%f|
' 42; echo "s=$?"
### f28-v04-f-255
printf '%f|
' 255; echo "s=$?"
### f28-v05-f-abc
printf '%f|
' abc; echo "s=$?"
### f28-v06-f-x
printf '%f|
' ''; echo "s=$?"
### f28-v07-f-3.5
printf '%f|
' 3.5; echo "s=$?"
### f28-v08-f-0x1f
printf '%f|
' 0x1f; echo "s=$?"
### f28-v09-f-010
printf '%f|
' 010; echo "s=$?"
### f28-v10-f-9223372036854775807
printf '%f|
' 9223372036854775807; echo "s=$?"
### f28-v11-f-9223372036854775808
printf '%f|
' 9223372036854775808; echo "s=$?"
### f28-v12-f-9223372036854775809
printf '%f|
' -9223372036854775809; echo "s=$?"
### f28-v13-f-18446744073709551615
printf '%f|
' 18446744073709551615; echo "s=$?"
### f28-v14-f-A
printf '%f|
' ''"'"'A'; echo "s=$?"
### f28-v15-f-b
printf '%f|
' '"b'; echo "s=$?"
### f28-v16-f-1e3
printf '%f|
' 1e3; echo "s=$?"
### f28-v17-f-12
printf '%f|
' ' 12'; echo "s=$?"
### f28-v18-f-12abc
printf '%f|
' 12abc; echo "s=$?"
### f28-v19-f-a-b
printf '%f|
' 'a b'; echo "s=$?"
### f29-v00-.1f-0
printf '%.1f|
' 0; echo "s=$?"
### f29-v01-.1f-1
printf '%.1f|
' 1; echo "s=$?"
### f29-v02-.1f-1
printf '%.1f|
' -1; echo "s=$?"
### f29-v03-.1f-42
printf '%.1f|
' 42; echo "s=$?"
### f29-v04-.1f-255
printf '%.1f|
' 255; echo "s=$?"
### f29-v05-.1f-abc
printf '%.1f|
' abc; echo "s=$?"
### f29-v06-.1f-x
printf '%.1f|
' ''; echo "s=$?"
### f29-v07-.1f-3.5
printf '%.1f|
' 3.5; echo "s=$?"
### f29-v08-.1f-0x1f
printf '%.1f|
' 0x1f; echo "s=$?"
### f29-v09-.1f-010
printf '%.1f|
' 010; echo "s=$?"
### f29-v10-.1f-9223372036854775807
printf '%.1f|
' 9223372036854775807; echo "s=$?"
### f29-v11-.1f-9223372036854775808
printf '%.1f|
' 9223372036854775808; echo "s=$?"
### f29-v12-.1f-9223372036854775809
printf '%.1f|
' -9223372036854775809; echo "s=$?"
### f29-v13-.1f-18446744073709551615
printf '%.1f|
' 18446744073709551615; echo "s=$?"
### f29-v14-.1f-A
printf '%.1f|
' ''"'"'A'; echo "s=$?"
### f29-v15-.1f-b
printf '%.1f|
' '"b'; echo "s=$?"
### f29-v16-.1f-1e3
printf '%.1f|
' 1e3; echo "s=$?"
### f29-v17-.1f-12
printf '%.1f|
' ' 12'; echo "s=$?"
### f29-v18-.1f-12abc
printf '%.1f|
' 12abc; echo "s=$?"
### f29-v19-.1f-a-b
printf '%.1f|
' 'a b'; echo "s=$?"
### f30-v00-10.3f-0
printf '%10.3f|
' 0; echo "s=$?"
### f30-v01-10.3f-1
printf '%10.3f|
' 1; echo "s=$?"
### f30-v02-10.3f-1
printf '%10.3f|
' -1; echo "s=$?"
### f30-v03-10.3f-42
printf '%10.3f|
' 42; echo "s=$?"
### f30-v04-10.3f-255
printf '%10.3f|
' 255; echo "s=$?"
### f30-v05-10.3f-abc
printf '%10.3f|
' abc; echo "s=$?"
### f30-v06-10.3f-x
printf '%10.3f|
' ''; echo "s=$?"
### f30-v07-10.3f-3.5
printf '%10.3f|
' 3.5; echo "s=$?"
### f30-v08-10.3f-0x1f
printf '%10.3f|
' 0x1f; echo "s=$?"
### f30-v09-10.3f-010
printf '%10.3f|
' 010; echo "s=$?"
### f30-v10-10.3f-9223372036854775807
printf '%10.3f|
' 9223372036854775807; echo "s=$?"
### f30-v11-10.3f-9223372036854775808
printf '%10.3f|
' 9223372036854775808; echo "s=$?"
### f30-v12-10.3f-9223372036854775809
printf '%10.3f|
' -9223372036854775809; echo "s=$?"
### f30-v13-10.3f-18446744073709551615
printf '%10.3f|
' 18446744073709551615; echo "s=$?"
### f30-v14-10.3f-A
printf '%10.3f|
' ''"'"'A'; echo "s=$?"
### f30-v15-10.3f-b
printf '%10.3f|
' '"b'; echo "s=$?"
### f30-v16-10.3f-1e3
printf '%10.3f|
' 1e3; echo "s=$?"
### f30-v17-10.3f-12
printf '%10.3f|
' ' 12'; echo "s=$?"
### f30-v18-10.3f-12abc
printf '%10.3f|
' 12abc; echo "s=$?"
### f30-v19-10.3f-a-b
printf '%10.3f|
' 'a b'; echo "s=$?"
### f31-v00-g-0
printf '%g|
' 0; echo "s=$?"
### f31-v01-g-1
printf '%g|
' 1; echo "s=$?"
### f31-v02-g-1
printf '%g|
' -1; echo "s=$?"
### f31-v03-g-42
printf '%g|
' 42; echo "s=$?"
### f31-v04-g-255
printf '%g|
' 255; echo "s=$?"
### f31-v05-g-abc
printf '%g|
' abc; echo "s=$?"
### f31-v06-g-x
printf '%g|
' ''; echo "s=$?"
### f31-v07-g-3.5
printf '%g|
' 3.5; echo "s=$?"
### f31-v08-g-0x1f
printf '%g|
' 0x1f; echo "s=$?"
### f31-v09-g-010
printf '%g|
' 010; echo "s=$?"
### f31-v10-g-9223372036854775807
printf '%g|
' 9223372036854775807; echo "s=$?"
### f31-v11-g-9223372036854775808
printf '%g|
' 9223372036854775808; echo "s=$?"
### f31-v12-g-9223372036854775809
printf '%g|
' -9223372036854775809; echo "s=$?"
### f31-v13-g-18446744073709551615
printf '%g|
' 18446744073709551615; echo "s=$?"
### f31-v14-g-A
printf '%g|
' ''"'"'A'; echo "s=$?"
### f31-v15-g-b
printf '%g|
' '"b'; echo "s=$?"
### f31-v16-g-1e3
printf '%g|
' 1e3; echo "s=$?"
### f31-v17-g-12
printf '%g|
' ' 12'; echo "s=$?"
### f31-v18-g-12abc
printf '%g|
' 12abc; echo "s=$?"
### f31-v19-g-a-b
printf '%g|
' 'a b'; echo "s=$?"
### f32-v00-G-0
printf '%G|
' 0; echo "s=$?"
### f32-v01-G-1
printf '%G|
' 1; echo "s=$?"
### f32-v02-G-1
printf '%G|
' -1; echo "s=$?"
### f32-v03-G-42
printf '%G|
' 42; echo "s=$?"
### f32-v04-G-255
printf '%G|
' 255; echo "s=$?"
### f32-v05-G-abc
printf '%G|
' abc; echo "s=$?"
### f32-v06-G-x
printf '%G|
' ''; echo "s=$?"
### f32-v07-G-3.5
printf '%G|
' 3.5; echo "s=$?"
### f32-v08-G-0x1f
printf '%G|
' 0x1f; echo "s=$?"
### f32-v09-G-010
printf '%G|
' 010; echo "s=$?"
### f32-v10-G-9223372036854775807
printf '%G|
' 9223372036854775807; echo "s=$?"
### f32-v11-G-9223372036854775808
printf '%G|
' 9223372036854775808; echo "s=$?"
### f32-v12-G-9223372036854775809
printf '%G|
' -9223372036854775809; echo "s=$?"
### f32-v13-G-18446744073709551615
printf '%G|
' 18446744073709551615; echo "s=$?"
### f32-v14-G-A
printf '%G|
' ''"'"'A'; echo "s=$?"
### f32-v15-G-b
printf '%G|
' '"b'; echo "s=$?"
### f32-v16-G-1e3
printf '%G|
' 1e3; echo "s=$?"
### f32-v17-G-12
printf '%G|
' ' 12'; echo "s=$?"
### f32-v18-G-12abc
printf '%G|
' 12abc; echo "s=$?"
### f32-v19-G-a-b
printf '%G|
' 'a b'; echo "s=$?"
### f33-v00-5.1g-0
printf '%5.1g|
' 0; echo "s=$?"
### f33-v01-5.1g-1
printf '%5.1g|
' 1; echo "s=$?"
### f33-v02-5.1g-1
printf '%5.1g|
' -1; echo "s=$?"
### f33-v03-5.1g-42
printf '%5.1g|
' 42; echo "s=$?"
### f33-v04-5.1g-255
printf '%5.1g|
' 255; echo "s=$?"
### f33-v05-5.1g-abc
printf '%5.1g|
' abc; echo "s=$?"
### f33-v06-5.1g-x
printf '%5.1g|
' ''; echo "s=$?"
### f33-v07-5.1g-3.5
printf '%5.1g|
' 3.5; echo "s=$?"
### f33-v08-5.1g-0x1f
printf '%5.1g|
' 0x1f; echo "s=$?"
### f33-v09-5.1g-010
printf '%5.1g|
' 010; echo "s=$?"
### f33-v10-5.1g-9223372036854775807
printf '%5.1g|
' 9223372036854775807; echo "s=$?"
### f33-v11-5.1g-9223372036854775808
printf '%5.1g|
' 9223372036854775808; echo "s=$?"
### f33-v12-5.1g-9223372036854775809
printf '%5.1g|
' -9223372036854775809; echo "s=$?"
### f33-v13-5.1g-18446744073709551615
printf '%5.1g|
' 18446744073709551615; echo "s=$?"
### f33-v14-5.1g-A
printf '%5.1g|
' ''"'"'A'; echo "s=$?"
### f33-v15-5.1g-b
printf '%5.1g|
' '"b'; echo "s=$?"
### f33-v16-5.1g-1e3
printf '%5.1g|
' 1e3; echo "s=$?"
### f33-v17-5.1g-12
printf '%5.1g|
' ' 12'; echo "s=$?"
### f33-v18-5.1g-12abc
printf '%5.1g|
' 12abc; echo "s=$?"
### f33-v19-5.1g-a-b
printf '%5.1g|
' 'a b'; echo "s=$?"
### f34-v00-g-0
printf '%#g|
' 0; echo "s=$?"
### f34-v01-g-1
printf '%#g|
' 1; echo "s=$?"
### f34-v02-g-1
printf '%#g|
' -1; echo "s=$?"
### f34-v03-g-42
printf '%#g|
' 42; echo "s=$?"
### f34-v04-g-255
printf '%#g|
' 255; echo "s=$?"
### f34-v05-g-abc
printf '%#g|
' abc; echo "s=$?"
### f34-v06-g-x
printf '%#g|
' ''; echo "s=$?"
### f34-v07-g-3.5
printf '%#g|
' 3.5; echo "s=$?"
### f34-v08-g-0x1f
printf '%#g|
' 0x1f; echo "s=$?"
### f34-v09-g-010
printf '%#g|
' 010; echo "s=$?"
### f34-v10-g-9223372036854775807
printf '%#g|
' 9223372036854775807; echo "s=$?"
### f34-v11-g-9223372036854775808
printf '%#g|
' 9223372036854775808; echo "s=$?"
### f34-v12-g-9223372036854775809
printf '%#g|
' -9223372036854775809; echo "s=$?"
### f34-v13-g-18446744073709551615
printf '%#g|
' 18446744073709551615; echo "s=$?"
### f34-v14-g-A
printf '%#g|
' ''"'"'A'; echo "s=$?"
### f34-v15-g-b
printf '%#g|
' '"b'; echo "s=$?"
### f34-v16-g-1e3
printf '%#g|
' 1e3; echo "s=$?"
### f34-v17-g-12
printf '%#g|
' ' 12'; echo "s=$?"
### f34-v18-g-12abc
printf '%#g|
' 12abc; echo "s=$?"
### f34-v19-g-a-b
printf '%#g|
' 'a b'; echo "s=$?"
### f35-v00-d-0
printf '%'"'"'d|
' 0; echo "s=$?"
### f35-v01-d-1
printf '%'"'"'d|
' 1; echo "s=$?"
### f35-v02-d-1
printf '%'"'"'d|
' -1; echo "s=$?"
### f35-v03-d-42
printf '%'"'"'d|
' 42; echo "s=$?"
### f35-v04-d-255
printf '%'"'"'d|
' 255; echo "s=$?"
### f35-v05-d-abc
printf '%'"'"'d|
' abc; echo "s=$?"
### f35-v06-d-x
printf '%'"'"'d|
' ''; echo "s=$?"
### f35-v07-d-3.5
printf '%'"'"'d|
' 3.5; echo "s=$?"
### f35-v08-d-0x1f
printf '%'"'"'d|
' 0x1f; echo "s=$?"
### f35-v09-d-010
printf '%'"'"'d|
' 010; echo "s=$?"
### f35-v10-d-9223372036854775807
printf '%'"'"'d|
' 9223372036854775807; echo "s=$?"
### f35-v11-d-9223372036854775808
printf '%'"'"'d|
' 9223372036854775808; echo "s=$?"
### f35-v12-d-9223372036854775809
printf '%'"'"'d|
' -9223372036854775809; echo "s=$?"
### f35-v13-d-18446744073709551615
printf '%'"'"'d|
' 18446744073709551615; echo "s=$?"
### f35-v14-d-A
printf '%'"'"'d|
' ''"'"'A'; echo "s=$?"
### f35-v15-d-b
printf '%'"'"'d|
' '"b'; echo "s=$?"
### f35-v16-d-1e3
printf '%'"'"'d|
' 1e3; echo "s=$?"
### f35-v17-d-12
printf '%'"'"'d|
' ' 12'; echo "s=$?"
### f35-v18-d-12abc
printf '%'"'"'d|
' 12abc; echo "s=$?"
### f35-v19-d-a-b
printf '%'"'"'d|
' 'a b'; echo "s=$?"
### f36-v00-d-0
printf '%*d|
' 4 0; echo "s=$?"
### f36-v01-d-1
printf '%*d|
' 4 1; echo "s=$?"
### f36-v02-d-1
printf '%*d|
' 4 -1; echo "s=$?"
### f36-v03-d-42
printf '%*d|
' 4 42; echo "s=$?"
### f36-v04-d-255
printf '%*d|
' 4 255; echo "s=$?"
### f36-v05-d-abc
printf '%*d|
' 4 abc; echo "s=$?"
### f36-v06-d-x
printf '%*d|
' 4 ''; echo "s=$?"
### f36-v07-d-3.5
printf '%*d|
' 4 3.5; echo "s=$?"
### f36-v08-d-0x1f
printf '%*d|
' 4 0x1f; echo "s=$?"
### f36-v09-d-010
printf '%*d|
' 4 010; echo "s=$?"
### f36-v10-d-9223372036854775807
printf '%*d|
' 4 9223372036854775807; echo "s=$?"
### f36-v11-d-9223372036854775808
printf '%*d|
' 4 9223372036854775808; echo "s=$?"
### f36-v12-d-9223372036854775809
printf '%*d|
' 4 -9223372036854775809; echo "s=$?"
### f36-v13-d-18446744073709551615
printf '%*d|
' 4 18446744073709551615; echo "s=$?"
### f36-v14-d-A
printf '%*d|
' 4 ''"'"'A'; echo "s=$?"
### f36-v15-d-b
printf '%*d|
' 4 '"b'; echo "s=$?"
### f36-v16-d-1e3
printf '%*d|
' 4 1e3; echo "s=$?"
### f36-v17-d-12
printf '%*d|
' 4 ' 12'; echo "s=$?"
### f36-v18-d-12abc
printf '%*d|
' 4 12abc; echo "s=$?"
### f36-v19-d-a-b
printf '%*d|
' 4 'a b'; echo "s=$?"
### f37-v00-s-0
printf '%-*s||
' 4 0; echo "s=$?"
### f37-v01-s-1
printf '%-*s||
' 4 1; echo "s=$?"
### f37-v02-s-1
printf '%-*s||
' 4 -1; echo "s=$?"
### f37-v03-s-42
printf '%-*s||
' 4 42; echo "s=$?"
### f37-v04-s-255
printf '%-*s||
' 4 255; echo "s=$?"
### f37-v05-s-abc
printf '%-*s||
' 4 abc; echo "s=$?"
### f37-v06-s-x
printf '%-*s||
' 4 ''; echo "s=$?"
### f37-v07-s-3.5
printf '%-*s||
' 4 3.5; echo "s=$?"
### f37-v08-s-0x1f
printf '%-*s||
' 4 0x1f; echo "s=$?"
### f37-v09-s-010
printf '%-*s||
' 4 010; echo "s=$?"
### f37-v10-s-9223372036854775807
printf '%-*s||
' 4 9223372036854775807; echo "s=$?"
### f37-v11-s-9223372036854775808
printf '%-*s||
' 4 9223372036854775808; echo "s=$?"
### f37-v12-s-9223372036854775809
printf '%-*s||
' 4 -9223372036854775809; echo "s=$?"
### f37-v13-s-18446744073709551615
printf '%-*s||
' 4 18446744073709551615; echo "s=$?"
### f37-v14-s-A
printf '%-*s||
' 4 ''"'"'A'; echo "s=$?"
### f37-v15-s-b
printf '%-*s||
' 4 '"b'; echo "s=$?"
### f37-v16-s-1e3
printf '%-*s||
' 4 1e3; echo "s=$?"
### f37-v17-s-12
printf '%-*s||
' 4 ' 12'; echo "s=$?"
### f37-v18-s-12abc
printf '%-*s||
' 4 12abc; echo "s=$?"
### f37-v19-s-a-b
printf '%-*s||
' 4 'a b'; echo "s=$?"
### f38-v00-.-s-0
printf '%.*s|
' 4 0; echo "s=$?"
### f38-v01-.-s-1
printf '%.*s|
' 4 1; echo "s=$?"
### f38-v02-.-s-1
printf '%.*s|
' 4 -1; echo "s=$?"
### f38-v03-.-s-42
printf '%.*s|
' 4 42; echo "s=$?"
### f38-v04-.-s-255
printf '%.*s|
' 4 255; echo "s=$?"
### f38-v05-.-s-abc
printf '%.*s|
' 4 abc; echo "s=$?"
### f38-v06-.-s-x
printf '%.*s|
' 4 ''; echo "s=$?"
### f38-v07-.-s-3.5
printf '%.*s|
' 4 3.5; echo "s=$?"
### f38-v08-.-s-0x1f
printf '%.*s|
' 4 0x1f; echo "s=$?"
### f38-v09-.-s-010
printf '%.*s|
' 4 010; echo "s=$?"
### f38-v10-.-s-9223372036854775807
printf '%.*s|
' 4 9223372036854775807; echo "s=$?"
### f38-v11-.-s-9223372036854775808
printf '%.*s|
' 4 9223372036854775808; echo "s=$?"
### f38-v12-.-s-9223372036854775809
printf '%.*s|
' 4 -9223372036854775809; echo "s=$?"
### f38-v13-.-s-18446744073709551615
printf '%.*s|
' 4 18446744073709551615; echo "s=$?"
### f38-v14-.-s-A
printf '%.*s|
' 4 ''"'"'A'; echo "s=$?"
### f38-v15-.-s-b
printf '%.*s|
' 4 '"b'; echo "s=$?"
### f38-v16-.-s-1e3
printf '%.*s|
' 4 1e3; echo "s=$?"
### f38-v17-.-s-12
printf '%.*s|
' 4 ' 12'; echo "s=$?"
### f38-v18-.-s-12abc
printf '%.*s|
' 4 12abc; echo "s=$?"
### f38-v19-.-s-a-b
printf '%.*s|
' 4 'a b'; echo "s=$?"
### m-invalid-directive
printf '%z\n' 1; echo "s=$?"
### m-invalid-directive-mid
printf 'a%yb\n'; echo "s=$?"
### m-trailing-percent
printf 'x%'; echo " s=$?"
### m-missing-args
printf '%s-%s|\n' a; printf '%d|\n'
### m-reuse-format
printf '%s=%s\n' a 1 b 2 c
### m-bad-number
printf '%d\n' abc; echo "s=$?"
### m-bad-number-partial
printf '%d\n' 12abc; echo "s=$?"
### m-char-arg
printf '%d %d\n' "'A" '"z'
### m-wrap-big
printf '%d\n' 18446744073709551616; echo "s=$?"
### m-wrap-neg-unsigned
printf '%u\n' -1
### m-wrap-neg-hex
printf '%x\n' -1
### m-wrap-neg-octal
printf '%o\n' -1
### m-time-epoch
printf '%(%Y-%m-%d %H:%M:%S)T\n' 0
### m-time-epoch-big
printf '%(%Y)T\n' 4102444800
### m-time-tz-exported
export TZ=UTC; printf '%(%H:%M)T\n' 3600
### m-time-tz-offset
TZ=UTC-2 printf '%(%H)T\n' 0
### m-time-default-fmt
printf '%()T\n' 0 | wc -c
### m-time-neg
printf '%(%s)T\n' 12345
### m-b-escapes
printf '%b\n' 'a\tb' 'c\0101d' '\x41' 'x\cy'
### m-b-stop
printf '%b|%s\n' 'a\cb' z; echo " s=$?"
### m-q-special
printf '%q\n' 'a b' "it's" '' $'\n' '~x' 'a*'
### m-Q-width
printf '[%10q]\n' 'a b'
### m-escape-in-format
printf 'a\x41\101\u00e9\n' | od -An -tx1 | tr -s ' '
### m-format-only-escapes
printf '\e' | od -An -tx1 | tr -d ' '
### m-v-flag
printf -v out '%05.1f' 3.14159; echo "$out"
### m-v-no-name
printf -v; echo "s=$?"
### m-no-format
printf; echo "s=$?"
### m-dashdash
printf -- '%s\n' -x
### m-float-inf
printf '%f %e\n' inf -inf; printf '%f\n' nan
### m-float-hex
printf '%f\n' 0x10
### m-float-bad
printf '%f\n' 1.2.3; echo "s=$?"
### m-width-star-neg
printf '[%*s]\n' -4 ab
### m-precision-star
printf '[%.*f]\n' 2 3.14159
### m-plus-space
printf '[%+5d][% 5d][%-+5d]\n' 3 3 3
### m-zero-left
printf '[%-05d]\n' 3
### m-hash-forms
printf '[%#x][%#o][%#X][%#g]\n' 255 8 255 1
### m-blank-number
printf '%d|%d|%f\n' ' ' '' ' '; echo " s=$?"
### m-not-conversions
for c in N C S D U O p m I k y '$' v; do printf "%$c|\n" 5; echo "$c s=$?"; done
### m-not-conversions-after-modifier
printf 'a%lNb\n' 1; echo "s=$?"; printf '%5.2hC\n' 1; echo "s=$?"
### m-q-is-a-conversion
printf '%qd|%Qx|%lqz|%Lq\n' a b c 'd e'; echo "s=$?"
### m-length-modifiers
printf '%hd %ld %lld %jd %zd %td %Lf %hhx %Lg\n' 1 2 3 4 5 6 7 255 8
### m-Q-precision-cuts-argument
printf '%.2Q|%5.1Q|%-6.2Q|%.0Q|%.Q|%.*Q|%.*Q|\n' 'a b' 'x y' "i'j" abc abc 1 'q r' 0 ''
### m-q-precision-cuts-quoted
printf '%.3q|%.1q|%.*q|%5.2q|\n' 'a b' "'x" 2 'a b' 'c d'
### m-q-reuse
printf '%q %Q\n' 'a b' 'c d' '$x' '!y' '' "it's"
### m-n-assigns-count
printf 'ab%ncd%n|\n' x y; echo "x=$x y=$y"; printf 'ab%n|' v w; echo " v=$v w=$w"
### m-n-bytes-and-flags
printf '%s%n\n' hello z; echo "z=$z"; printf '%5n|%-3n|%ln|%hhn\n' a b c d; echo "s=$? $a$b$c$d"
### m-n-missing-arg
printf 'a%nb|\n'; echo "s=$?"; printf '%n'; echo "s=$?"
### m-n-invalid-name
printf 'a%nb|\n' 'bad name'; echo "s=$?"; printf 'a%nb|\n' 'arr[3]'; echo "s=$? ${arr[3]}"
### m-n-readonly
readonly ro=1; printf 'a%n|\n' ro; echo "s=$? ro=$ro"
### m-n-with-v
printf -v out 'abc%nd' q; echo "out=$out q=$q"; declare -i ii; printf 'xy%n\n' ii; declare -p ii
### m-a-hex-float
printf '%a|%A|%.0a|%.1a|%.2a|%#a|%#.0a|%010a|%-10a|%+a|% a|%12.3A\n' 5 5 5 5 5 5 5 5 5 5 5 5
### m-a-hex-float-values
for v in 0 -0 1 -1 0.1 15.9 15.97 1e300 1e-300 1e4000 inf -inf nan 0x10 3.5 0.5 255 10.5 2.5 "'A"; do printf '%s: %a %.0a %.1a %.3A %10.2a %-+12.1a|%020.4A\n' $v $v $v $v $v $v $v $v; done
### m-float-hex-input
for v in 0x1.8p3 0x.8 0x1p-2 -0x10.8 0x1.8p 0xg 0x1.8p3zz 0X1P+4 0x -0x0 0x1P 0x10; do printf '%s=%g|%f ' $v $v $v; echo "s=$?"; done
### m-time-without-T
for f in '%(x)|\n' '%(x\n' '%5(x)y\n' 'a%(%s)Tb%(x)c\n' '%(%s)T%(\n' '%(%Y)|\n'; do printf "$f" 0; echo "s=$?"; done
### m-time-empty-precision
printf '[%-(x)T][%.(%Y)T][%8(%Y)T][%-8.2(%Y)T]\n' 0 0 0 0
