"""The key of the phones' tokens history, kept outside the database (ledger/store/tokens.py).

The history's chain alone (each entry's SHA-256 over the entry before it and its own fields)
shows an entry edited, deleted or slipped in by someone who does not recompute the hashes; but
anyone with the database can rewrite the history and re-chain it to its end (a player's token
made a banker's, a revocation taken back, a token moved to another game), and that chain is
as sound as banco's.  So each entry banco writes is hashed with a key instead (HMAC-SHA-256
over the same text): without the key no one can write an entry that checks, nor re-chain
after one.  The key is 32 random bytes, made by the first `banco token` (or `serve`'s pairing)
that writes an entry, in a file only its owner reads (0600):

- `BANCO_TOKEN_KEY`: the key file's path, when set (any store);
- a SQLite file's: `FILE.token-key` beside it;
- a PostgreSQL database's: `token-keys/<digest of the URL without its password>.key` in the
  user's banco folder (`$XDG_CONFIG_HOME/banco`, else `~/.config/banco`).

A table written before the key keeps its entries as they are (checked by their SHA-256): the
first entry written with the key chains onto them, so rewriting them after that breaks the
link.  From then on every entry is keyed; an unkeyed entry after a keyed one, or a history
whose last entry is unkeyed while its key is here, was written without the key.  Where the key
is not (a copy of the file audited elsewhere), the keyed entries' own hashes cannot be checked:
their links still are, and `audit` and `doctor` say what was not checked.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from pathlib import Path

from banco.ledger.base.errors import DatabaseError

ENV = "BANCO_TOKEN_KEY"


def key_path(db: str) -> Path:
    """Where the key of the database `db` (a path or a postgresql:// URL) is kept."""
    from banco.ledger.store.postgres_connection import is_postgres_url

    named = os.environ.get(ENV)
    if named:
        return Path(named)
    if not is_postgres_url(db):
        return Path(f"{db}.token-key")
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    digest = hashlib.sha256(_named(db).encode("utf-8")).hexdigest()[:16]
    return Path(home) / "banco" / "token-keys" / f"{digest}.key"


def _named(url: str) -> str:
    """The URL a key's file is named by: its user part's password masked, nothing else.  Not
    postgres_connection.shown, which may mask more as time goes: the key's file must not move
    when the words do (a key not found makes every keyed entry read as edited)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://..."
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def load(db: str, create: bool = False) -> bytes | None:
    """The key of `db`'s tokens history; None when there is none (and `create` is False).
    `create`: made now when missing (a write of the history)."""
    path = key_path(db)
    if not path.exists():
        return _make(path) if create else None
    return _read(path)


def _read(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatabaseError("the tokens' key {path} cannot be read ({why}): nothing was done",
                            path=str(path), why=str(exc)) from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != 32:
        raise DatabaseError("the tokens' key {path} is not one banco made (64 hex digits): "
                            "nothing was done", path=str(path))
    return key


def _make(path: Path) -> bytes:
    """A new key, written whole under another name and then linked to `path` (which fails if
    another banco made one a moment ago: that one is the key)."""
    key = os.urandom(32)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.hex() + "\n")
        os.link(part, path)
    except FileExistsError:
        return _read(path)
    except OSError as exc:
        raise DatabaseError("the tokens' key {path} cannot be made ({why}): nothing was "
                            "recorded", path=str(path), why=str(exc)) from None
    finally:
        part.unlink(missing_ok=True)
    return key


def carry(db: str, target: str) -> Path | None:
    """The key of `db` put beside `target`, a SQLite backup of it just written, as
    `TARGET.token-key` at mode 0600, where an audit of the backup looks for it wherever the two
    are taken: without it every keyed entry reads as edited.  A key already there is another
    file's (a backup replaced, a file removed without its key): replaced, or removed when `db`
    has none.  Written whole under another name and renamed.  Returns where it went, or None."""
    key = load(db)
    path = Path(f"{target}.token-key")
    if key is None:
        path.unlink(missing_ok=True)
        return None
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a leftover part file keeps its mode through O_TRUNC
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.hex() + "\n")
        os.replace(part, path)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise DatabaseError("{target} was written, but its tokens' key could not be put beside "
                            "it ({why}): copy {key} to {path}, mode 0600, or its audit names "
                            "every keyed token entry", target=target, why=str(exc),
                            key=str(key_path(db)), path=str(path)) from None
    return path


def keyed(key: bytes, body: bytes) -> str:
    """An entry's hash under the key (its plain hash: hashlib.sha256(body))."""
    return hmac.new(key, body, hashlib.sha256).hexdigest()
