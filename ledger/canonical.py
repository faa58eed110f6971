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


def format_time(moment: datetime) -> str:
    """Timestamps as banco writes them: UTC, microseconds, a trailing Z."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def now_text() -> str:
    return format_time(datetime.now(UTC))


HASHED_FIELDS = ("game_id", "seq", "type", "data", "recorded_at", "actor", "command_id",
                 "schema_version")


def row_hash(prev_hash: str, row: dict) -> str:
    """sha256(prev_hash + canonical JSON of the row's hashed fields)."""
    body = canonical_json({k: row[k] for k in HASHED_FIELDS})
    return hashlib.sha256((prev_hash + body).encode("utf-8")).hexdigest()
