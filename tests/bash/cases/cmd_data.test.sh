# cmd_data: sqlite3 (the SQLite 3.40 shell) and yq (kislyuk's, over jq 1.6), recorded from the real tools
# Known divergences: none
### m-sqlite-list
sqlite3 t.db "create table t(a integer, b text, c real); insert into t values(1,'x,y',1.5),(2,NULL,2.0);" "select * from t"; rm t.db
### m-sqlite-modes
sqlite3 t.db "create table t(a integer, b text, c real); insert into t values(1,'x,y',1.5),(2,NULL,2.0),(3,'q\"z',0.1);"
for m in list csv tabs line column table markdown box; do echo "== $m"; sqlite3 -$m t.db "select * from t"; sqlite3 -$m -header t.db "select a, b from t"; done; rm t.db
### m-sqlite-json
sqlite3 -json :memory: "select 1 as a, 'x' as b, NULL as c, 2.5 as d union all select 2, 'y\"', 3, -1"
### m-sqlite-json-empty
sqlite3 -json :memory: "create table t(a); select * from t"; echo "s=$?"
### m-sqlite-floats
sqlite3 :memory: "select 2.0, 0.5, 1e20, 1e-5, 100.0/3, 7/2, 7/2.0"
### m-sqlite-stdin-dot
printf 'create table t(a,b);\ncreate table u(x);\n.tables\n.schema t\ninsert into t values(1,2);\n.mode csv\n.headers on\nselect * from t;\n.mode list\nselect * from t;\n' | sqlite3 | od -c | sed 's/  */ /g'
### m-sqlite-stdin-error-continues
printf 'select * from nope;\nselect 2;\n' | sqlite3; echo "s=$?"
### m-sqlite-args-error-stops
sqlite3 :memory: "select 1; select * from nope; select 2"; echo "s=$?"
### m-sqlite-file-persists
sqlite3 db.sqlite "create table k(v); insert into k values('kept')"; sqlite3 db.sqlite "select v from k"; ls; rm db.sqlite
### m-sqlite-import
printf 'name,qty\napple,3\n"pear, green",5\n' > in.csv; sqlite3 :memory: '.import --csv in.csv fruit' 'select name, qty*2 from fruit order by name'
### m-sqlite-import-existing
printf '1,a\n2,b\n' > in.csv; sqlite3 :memory: 'create table t(n, s)' '.import --csv in.csv t' 'select count(*), max(s) from t'
### m-sqlite-cmd-separator
sqlite3 -separator ' : ' :memory: "select 1, 2"; sqlite3 -cmd '.mode csv' :memory: "select 'a b', 'c,d'"
### m-sqlite-nullvalue
sqlite3 -cmd '.nullvalue NULL' :memory: "select NULL, 1"
### m-sqlite-version-format
sqlite3 :memory: "select typeof(sqlite_version())"
### m-sqlite-aggregate
sqlite3 :memory: "create table s(g, v); insert into s values('a',1),('a',2),('b',5); select g, sum(v), avg(v) from s group by g order by g"
### m-sqlite-dump
sqlite3 :memory: "create table t(a text); insert into t values('it''s')" .dump
### m-sqlite-readonly-missing
sqlite3 -readonly missing.db "select 1"; echo "s=$?"; ls
### m-sqlite-dir-as-db
mkdir d; sqlite3 d "select 1"; echo "s=$?"
### m-yq-scalar
printf 'a: 1\nb: [x, y]\n' > t.yaml; yq .a t.yaml; yq -r '.b[1]' t.yaml
### m-yq-to-json
printf 'a: 1\nb:\n  - x\n  - y: 2\nd: 2024-01-02\n' | yq -c .
### m-yq-multi-doc
printf 'a: 1\n---\na: 3\n' | yq .a
### m-yq-yaml-out
printf 'a: 1\nb:\n  - x\n  - y: 2\n' | yq -y .
### m-yq-yaml-scalars
printf 'a: 1\n---\na: 3\n' | yq -y .a
### m-yq-yaml-select
printf 'items:\n  - {name: a, n: 1}\n  - {name: b, n: 2}\n' | yq -y '.items | map(select(.n > 1))'
### m-yq-json-in
echo '{"k": "v", "n": [1, 2]}' | yq -y .
### m-yq-args
printf 'a: 1\n' | yq --arg x hi -c '{a, x: $x}'
### m-yq-missing-file
yq . missing.yaml; echo "s=$?"
### m-yq-bad-yaml
printf 'a: [1\n' | yq .; echo "s=$?"
### m-yq-strings
printf 'q: "yes"\nr: yes\ns: ~\nt: 010\n' | yq -c .
