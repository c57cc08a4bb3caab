"""The text-processing command family: registers every text command with the registry.

This package owns the text commands, one module per theme; this module only collects their
tables so ``commands/__init__.py`` sees one family:

- ``basic``: cat head tail wc tac rev yes seq
- ``grep`` (with ``regex``, POSIX BRE/ERE to Python ``re``): grep egrep fgrep; ``rg``: rg
- ``sort``: sort; ``fields``: cut paste uniq comm join; ``column``: column
- ``format``: tr nl fold expand unexpand strings
- ``encode``: od xxd base64 md5sum sha1sum sha256sum
- ``diff`` (with ``diffcore``, GNU's line matching): diff
- ``expr``: expr; ``bc`` (with ``bcnum``, ``bclib``): bc
- ``common``: inputs, ``/dev`` files, line batches (options: ``bash/flagspec.py``)

All aim at byte-identical GNU output in the C locale (bytes are characters). Known,
deliberate differences:

- ``grep -P`` uses Python's ``re`` (close to PCRE, not identical); POSIX leftmost-longest
  matching is approximated for ``-o`` when a pattern has alternation; ``--color=always``
  uses GNU's default colours (``GREP_COLORS`` is not read), ``auto`` never colours.
- ``rg``: no ``.gitignore`` support, binary files are not skipped, Python regex syntax,
  files visited in sorted order (see ``grep``).
- ``sort -R`` orders by an MD5 of the key (fixed, not random per run); ``sort -V`` does
  not reproduce every corner of GNU's filevercmp on non-ASCII bytes.
- ``diff``: for very costly comparisons (edit cost above 256) we give up on minimality
  earlier than GNU (4096), so such diffs may differ from GNU's (still correct) output;
  unified headers carry the real mtime in GNU's format (stdin: the current time).
- ``bc``: ``read()`` is unsupported, runtime-error addresses are not GNU's, and a power
  with more than a million digits is refused.
- ``wc``, ``head``, ``grep -m`` find out whether stdin is a redirected regular file through
  the interpreter's ``extras["io"]``; without it they behave as on a pipe.
"""

from __future__ import annotations

from . import basic, bc, column, diff, encode, expr, fields, format, grep, rg, sort
from ..base import Command

COMMANDS: dict[str, Command] = {}
for _table in (
    basic.COMMANDS,
    grep.COMMANDS,
    rg.COMMANDS,
    sort.COMMANDS,
    fields.COMMANDS,
    column.COMMANDS,
    format.COMMANDS,
    encode.COMMANDS,
    diff.COMMANDS,
    expr.COMMANDS,
    bc.COMMANDS,
):
    COMMANDS.update(_table)

__all__ = ["COMMANDS"]
