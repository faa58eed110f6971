"""Canonical JSON and the hash chain.  The format is banco's own, so a hash never depends on how
SQLite or a JSON library happens to print a value."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

GENESIS = "0" * 64


def _reject_floats(value):
    if isinstance(value, float):
        raise TypeError(f"money and counts are integers; got the float {value!r}")
    if isinstance(value, dict):
        for v in value.values():
            _reject_floats(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _reject_floats(v)


def canonical_json(value) -> str:
    """Sorted keys, no spaces, UTF-8 text kept as is, floats refused."""
    _reject_floats(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _not_json(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# json's C encoder made once, with canonical_json's settings: json.dumps and JSONEncoder.encode
# build one (and a closure) at every call, a third of the time of a fact's few dozen bytes.
# No check for circles (markers None): a value read from JSON, or a fact, has none.
_C_CANONICAL = (json.encoder.c_make_encoder(None, _not_json, json.encoder.encode_basestring,
                                            None, ":", ",", True, False, True)
                if json.encoder.c_make_encoder is not None else None)
# "".join(canonical_chunks(value, 0)) is canonical_text(value) where json has its C encoder
# (None where not), for a caller spelling a value a row without canonical_text's own call
canonical_chunks = _C_CANONICAL
_PY_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"),
                                 ensure_ascii=False).encode


def canonical_text(value) -> str:
    """canonical_json's spelling of a value known to hold no float (data read from JSON with
    floats refused, a fact decide gives), without its walk looking for one: what the audit
    holds a row's stored text to.  TypeError for a value JSON cannot spell."""
    if _C_CANONICAL is None:
        return _PY_CANONICAL(value)
    return "".join(_C_CANONICAL(value, 0))


def format_time(moment: datetime) -> str:
    """Timestamps as banco writes them: UTC, microseconds, a trailing Z."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def now_text() -> str:
    return format_time(datetime.now(UTC))


def not_before(recorded_at: str, last_at: str | None) -> str:
    """The time a command is recorded at: the clock's, or the game's last recorded time where
    the clock reads earlier (set back by hand, or another computer's clock behind this one's).
    A game's times never go back (the audit holds them to it, projections/audit/rows.py, and
    `replay --from TIME` reads them in order).  Banco's own time texts (format_time) compare
    as their moments do; any other text is left as it is."""
    if last_at and recorded_at < last_at and _is_banco_time(recorded_at) \
            and _is_banco_time(last_at):
        return last_at
    return recorded_at


def _is_banco_time(text: str) -> bool:
    return len(text) == 27 and text[10] == "T" and text[-1] == "Z" and text[19] == "."


# Which fields of a row its hash covers, by the row's chain version.  Version 1 (every row
# written before format 2) hashed the local game number, so a game could not leave its
# database; version 2 leaves it out (the game's identity is the uuid in its GameStarted) and
# hashes its own version, so a row cannot be passed off as the other kind.  Version 3 is a
# version-2 row that also hashes `table_digest`: the digest of the book's snapshot of the table
# after it (ledger/store/snapshot_binding.py), written where the book keeps one, so that a
# snapshot cannot be edited without rewriting the chain from its event on (issue 19).
CHAIN_VERSION = 2
TABLE_CHAIN_VERSION = 3
HASHED_FIELDS = {
    1: ("game_id", "seq", "type", "data", "recorded_at", "actor", "command_id",
        "schema_version"),
    2: ("seq", "type", "data", "recorded_at", "actor", "command_id", "schema_version",
        "chain_version"),
    3: ("seq", "type", "data", "recorded_at", "actor", "command_id", "schema_version",
        "chain_version", "table_digest"),
}


class UnknownChainVersion(ValueError):
    pass


def _fields(row: dict) -> tuple[str, ...]:
    version = row.get("chain_version", 1)
    try:
        return HASHED_FIELDS[version]
    except (KeyError, TypeError):
        raise UnknownChainVersion(f"chain version {version!r} is not one this banco knows "
                                  f"(it knows {', '.join(map(str, HASHED_FIELDS))})") from None


def row_hash(prev_hash: str, row: dict) -> str:
    """sha256(prev_hash + canonical JSON of the row's hashed fields).  A version-1 row of a
    game imported under another number carries `chain_game_id`, the number it was hashed
    with (ledger/store/sqlite.py)."""
    fields = {k: row[k] for k in _fields(row)}
    if "game_id" in fields and row.get("chain_game_id") is not None:
        fields["game_id"] = row["chain_game_id"]
    body = canonical_json(fields)
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()


_dumps = json.JSONEncoder(ensure_ascii=False).encode
_quote = json.encoder.encode_basestring  # the C one where there is one, as _dumps uses


def _text(value) -> str:
    """A value as canonical JSON: json's C quoting itself for a string (what _dumps calls
    after its checks), _dumps for the rest (None, a number)."""
    return _quote(value) if type(value) is str else _dumps(value)


def stored_row_hash(prev_hash: str, game_id, seq, type_, data_text, recorded_at, actor,
                    command_id, schema_version, chain_version,
                    table_digest=None) -> str | None:
    """The hash of a row as stored, without parsing its data: banco stores data as canonical
    JSON, so the canonical body can be assembled around that text (keys in sorted order).
    Several times faster than `row_hash`; it is what every read uses to check the chain.
    None when the row holds something banco never writes: the caller falls back to
    `row_hash`, which says what is wrong."""
    if type(seq) is not int or type(schema_version) is not int or type(data_text) is not str:
        return None
    s = _text
    if chain_version == 2:
        body = (f'{{"actor":{s(actor)},"chain_version":2,"command_id":{s(command_id)},'
                f'"data":{data_text},"recorded_at":{s(recorded_at)},'
                f'"schema_version":{schema_version},"seq":{seq},"type":{s(type_)}}}')
    elif chain_version == 3 and type(table_digest) is str:
        body = (f'{{"actor":{s(actor)},"chain_version":3,"command_id":{s(command_id)},'
                f'"data":{data_text},"recorded_at":{s(recorded_at)},'
                f'"schema_version":{schema_version},"seq":{seq},'
                f'"table_digest":{s(table_digest)},"type":{s(type_)}}}')
    elif chain_version == 1 and type(game_id) is int:
        body = (f'{{"actor":{s(actor)},"command_id":{s(command_id)},"data":{data_text},'
                f'"game_id":{game_id},"recorded_at":{s(recorded_at)},'
                f'"schema_version":{schema_version},"seq":{seq},"type":{s(type_)}}}')
    else:
        return None
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()


def table_digest(fmt: str, text: str) -> str:
    """What a chain-version-3 row records of the book's snapshot after it: the snapshot's
    format, "/", and the sha256 of its format and canonical text, each framed by its length
    (ledger/store/snapshot_binding.py).  The format is kept in the clear so that a banco whose
    table has another shape knows it cannot check the digest, rather than call it forged."""
    framed = "".join(f"{len(p)}:{p}\n" for p in (fmt, text))
    return f"{fmt}/" + hashlib.sha256(b"banco-table\n" + framed.encode("utf-8")).hexdigest()


def digest_format(digest: str) -> str | None:
    """The snapshot format a table digest was taken in (None: not a digest banco writes)."""
    fmt, slash, hexed = digest.rpartition("/")
    if not slash or not fmt or len(fmt) > 64 or len(hexed) != 64 \
            or any(c not in "0123456789abcdef" for c in hexed) or not fmt.isprintable():
        return None
    return fmt


def bound_table_digest(row: dict | None) -> str | None:
    """The table digest a row read from the store carries under its own hash: None unless it
    is chain version 3 and its hash is what its content gives (its prev_hash as stored: the
    next row's link is checked as the rows after it are read)."""
    if row is None or row.get("chain_version") != TABLE_CHAIN_VERSION \
            or type(row.get("table_digest")) is not str:
        return None
    try:
        if row_hash(row["prev_hash"], row) != row["hash"]:
            return None
    except (TypeError, ValueError):  # banco never writes such a row (UnknownChainVersion)
        return None
    return row["table_digest"]


def snapshot_digest(seq: int, head: str, fmt: str, text: str) -> str:
    """The digest a snapshot row records: of its seq, the log's hash there, its format and its
    text, each framed by its length so that no two rows give the same input."""
    parts = [str(seq), head, fmt, text]
    framed = "".join(f"{len(p)}:{p}\n" for p in parts)
    return hashlib.sha256(b"banco-snapshot\n" + framed.encode("utf-8")).hexdigest()
