"""The text-processing command family: registers every text command with the registry.

The implementations live in private modules by theme; this module only collects their
tables so ``commands/__init__.py`` sees one family:

- ``_text_basic``: cat head tail wc tac rev yes seq
- ``_text_grep`` (with ``_text_regex``, POSIX BRE/ERE to Python ``re``): grep egrep fgrep rg
- ``_text_sort``: sort; ``_text_fields``: cut paste uniq comm join column
- ``_text_format``: tr nl fold expand unexpand strings
- ``_text_encode``: od xxd base64 md5sum sha1sum sha256sum
- ``_text_diff`` (with ``_text_diffcore``, GNU's line matching): diff
- ``_text_expr``: expr; ``_text_bc`` (with ``_text_bcnum``, ``_text_bclib``): bc
- ``_text_common``: option parsing (glibc getopt_long), inputs, ``/dev`` files, line batches

All aim at byte-identical GNU output in the C locale (bytes are characters). Known,
deliberate differences:

- ``grep -P`` uses Python's ``re`` (close to PCRE, not identical); POSIX leftmost-longest
  matching is approximated for ``-o`` when a pattern has alternation; ``--color=always``
  uses GNU's default colours (``GREP_COLORS`` is not read), ``auto`` never colours.
- ``rg``: no ``.gitignore`` support, binary files are not skipped, Python regex syntax,
  files visited in sorted order (see ``_text_grep``).
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

from . import _text_basic, _text_bc, _text_diff, _text_encode, _text_expr, _text_fields, _text_format, _text_grep, _text_sort
from .base import Command

COMMANDS: dict[str, Command] = {}
for _table in (
    _text_basic.COMMANDS,
    _text_grep.COMMANDS,
    _text_sort.COMMANDS,
    _text_fields.COMMANDS,
    _text_format.COMMANDS,
    _text_encode.COMMANDS,
    _text_diff.COMMANDS,
    _text_expr.COMMANDS,
    _text_bc.COMMANDS,
):
    COMMANDS.update(_table)
