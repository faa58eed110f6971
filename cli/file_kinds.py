"""What a file given to `run` or `import` is when it is not the UTF-8 text they read, told by
its first bytes: a SQLite database (a banco file given where a transcript or an export goes), a
gzip or zip file (an export sent compressed), UTF-16 text (what some editors and shells write).
The refusal names the kind and what to do, where UTF-8 decoding alone would say only "not
UTF-8 text".  A UTF-8 byte-order mark is no wrong kind: both read past it (utf-8-sig)."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Text
from banco.ledger.store.postgres_connection import shown

# (first bytes, kind): the file formats' own signatures
_MAGIC = (
    (b"SQLite format 3\x00", "sqlite"),
    (b"\x1f\x8b", "gzip"),
    (b"PK\x03\x04", "zip"),
    (b"\xff\xfe", "utf-16"),  # a UTF-16 (little-endian) byte-order mark
    (b"\xfe\xff", "utf-16"),
)
HEAD = 16  # bytes enough for every signature above


def kind_of(head: bytes) -> str | None:
    """The kind of file these first bytes begin, or None for what may be text."""
    return next((kind for magic, kind in _MAGIC if head.startswith(magic)), None)


def refuse_wrong_kind(source: str, head: bytes, what: Text, db: str) -> None:
    """Refuse (a usage error) a file whose first bytes say it is no text: `what` is what the
    command wanted (a transcript, a banco export), `db` the database in use (for `copy`)."""
    kind = kind_of(head)
    if kind == "sqlite":
        raise UsageError("{source} is a SQLite database, not {what}: give it as --db to read or "
                         "play its games (`banco --db {source} games`), or bring them into {db} "
                         "with `banco copy {source} {db}`", source=source, what=what, db=shown(db))
    if kind == "gzip":
        raise UsageError("{source} is a gzip file, not {what}: gunzip it first (`gunzip -k "
                         "{source}`) and give the file it makes", source=source, what=what)
    if kind == "zip":
        raise UsageError("{source} is a zip archive, not {what}: unzip it first and give the "
                         "file inside", source=source, what=what)
    if kind == "utf-16":
        raise UsageError("{source} is UTF-16 text, not {what}: banco reads UTF-8; save it again "
                         "as UTF-8 (`iconv -f UTF-16 -t UTF-8 {source} > FILE`, then give FILE)", source=source,
                         what=what)

