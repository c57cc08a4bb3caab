"""Zip, tar and gzip round trips in memory, and the hashing and encoding around them."""

from __future__ import annotations

from corpus import case

CASES = [
    case("zip_roundtrip_namelist", """
import io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("data/a.csv", "x,y\\n1,2\\n")
    z.writestr("readme.txt", "hello " * 100)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
    result = [z.namelist(), z.read("data/a.csv").decode(), z.getinfo("readme.txt").compress_size < 600]
result
""", [["data/a.csv", "readme.txt"], "x,y\n1,2\n", True]),
    case("zip_testzip_and_infos", """
import io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    for i in range(3):
        z.writestr(f"f{i}.txt", str(i) * (i + 1))
z = zipfile.ZipFile(buf)
[z.testzip(), [(i.filename, i.file_size) for i in z.infolist()]]
""", [None, [["f0.txt", 1], ["f1.txt", 2], ["f2.txt", 3]]]),
    case("zip_unicode_names", """
import io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr("résumé.txt", "ok")
zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()
""", ["résumé.txt"]),
    case("tar_gz_roundtrip", """
import io, tarfile
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as tar:
    for name, text in [("logs/a.log", "alpha"), ("logs/b.log", "beta")]:
        data = text.encode()
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
buf.seek(0)
with tarfile.open(fileobj=buf, mode="r:gz") as tar:
    result = {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers()}
result
""", {"logs/a.log": "alpha", "logs/b.log": "beta"}),
    case("tar_list_sizes", """
import io, tarfile
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as tar:
    for n in (10, 2000):
        info = tarfile.TarInfo(f"blob{n}")
        info.size = n
        tar.addfile(info, io.BytesIO(b"z" * n))
buf.seek(0)
[(m.name, m.size, m.isfile()) for m in tarfile.open(fileobj=buf)]
""", [["blob10", 10, True], ["blob2000", 2000, True]]),
    case("gzip_compress_ratio", """
import gzip
data = ("the same line again\\n" * 500).encode()
packed = gzip.compress(data)
[len(data), len(packed) < 200, gzip.decompress(packed) == data]
""", [10000, True, True]),
    case("gzip_text_stream", """
import gzip, io
buf = io.BytesIO()
with gzip.open(buf, "wt", encoding="utf-8") as f:
    f.write("line1\\nline2\\n")
buf.seek(0)
with gzip.open(buf, "rt", encoding="utf-8") as f:
    lines = f.read().splitlines()
lines
""", ["line1", "line2"]),
    case("zlib_crc_adler", """
import zlib
[zlib.crc32(b"hello"), zlib.adler32(b"hello"), len(zlib.compress(b"a" * 1000, 9)) < 30]
""", [907060870, 103547413, True]),
    case("hashes_of_content", """
import hashlib
data = b"The quick brown fox"
[hashlib.md5(data).hexdigest()[:8], hashlib.sha1(data).hexdigest()[:8], hashlib.sha256(data).hexdigest()[:8],
 hashlib.blake2b(data, digest_size=8).hexdigest()]
""", ["a2004f37", "c519c1a0", "5cac4f98", "be1c94ec99f8964c"]),
    case("hmac_webhook_signature", """
import hmac, hashlib
secret = b"s3cret"
body = b'{"event":"paid"}'
sig = hmac.new(secret, body, hashlib.sha256).hexdigest()
[len(sig), hmac.compare_digest(sig, hmac.new(secret, body, "sha256").hexdigest())]
""", [64, True]),
    case("base64_variants", """
import base64
raw = b"\\xfb\\xff binary?"
[base64.b64encode(raw).decode(), base64.urlsafe_b64encode(raw).decode(), base64.b32encode(b"hi").decode(),
 base64.b64decode(base64.b64encode(raw)) == raw]
""", ["+/8gYmluYXJ5Pw==", "-_8gYmluYXJ5Pw==", "NBUQ====", True]),
    case("struct_binary_header", """
import struct
header = struct.pack("<4sHI", b"DATA", 2, 1024)
magic, version, size = struct.unpack("<4sHI", header)
[len(header), magic.decode(), version, size]
""", [10, "DATA", 2, 1024]),
    case("zip_of_csv_reports", """
import csv, io, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    for region, rows in {"north": [[1, 2]], "south": [[3, 4], [5, 6]]}.items():
        out = io.StringIO()
        csv.writer(out).writerows(rows)
        z.writestr(f"{region}.csv", out.getvalue())
with zipfile.ZipFile(buf) as z:
    counts = {n: len(z.read(n).decode().splitlines()) for n in z.namelist()}
counts
""", {"north.csv": 1, "south.csv": 2}),
    case("uu_and_quopri", """
import quopri, binascii
[quopri.encodestring("café=1".encode()).decode(), binascii.hexlify(b"\\x00\\xff").decode()]
""", ["caf=C3=A9=3D1", "00ff"]),
    case("bz2_is_absent_and_says_why", """
try:
    import bz2
except ModuleNotFoundError as e:
    result = "built without it" in str(e)
result
""", True),
]
