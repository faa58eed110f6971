"""A banker's command as JSON and back, for the CommandRecorded fact beside its events.

    Trade("Anna", "Bruno", Items((1, 3), 50), Items()) ->
    {"kind": "Trade", "fields": {"a": "Anna", "b": "Bruno",
     "a_gives": {"kind": "Items", "fields": {"properties": [1, 3], "cash": 50, ...}}, ...}}

The fields sit in their own object because a command may have a field called `kind` itself
(BuildingAuction does).  Generic over ledger/records/commands.py: every NamedTuple class there
round-trips without being listed here.  A nested command value (Items) is an object with its
own kind; tuples, lists and sets become JSON lists and come back as the type the field
declares (ledger/records/commands.py's type hints), so decode(encode(c)) == c.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any, Union

from banco.ledger.records import commands


class CommandDecodeError(ValueError):
    pass


@cache
def command_classes() -> dict[str, type]:
    """The command classes of ledger/records/commands.py, by name (read from the module, not listed)."""
    return {name: obj for name, obj in vars(commands).items()
            if isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields")
            and obj.__module__ == commands.__name__}


def encode(command) -> dict:
    """The command as a JSON-ready object: {"kind": class name, "fields": {field: value}}."""
    if not (isinstance(command, tuple) and hasattr(command, "_fields")):
        raise TypeError(f"not a command: {command!r}")
    return _encode(command)


def _encode(value):
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {"kind": type(value).__name__,
                "fields": {f: _encode(getattr(value, f)) for f in value._fields}}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_encode(v) for v in value), key=repr)
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError(f"a command's mapping needs text keys: {value!r}")
        return {k: _encode(v) for k, v in value.items()}
    raise TypeError(f"a command cannot hold a {type(value).__name__} ({value!r}): money and "
                    "counts are integers")


def decode(doc: dict):
    """The command object back from `encode`'s document."""
    if not _is_command(doc):
        raise CommandDecodeError(f"not a recorded command: {doc!r}")
    cls = command_classes().get(doc["kind"])
    if cls is None:
        raise CommandDecodeError(f"command kind {doc['kind']!r} is not one this banco knows")
    fields = doc["fields"]
    unknown = set(fields) - set(cls._fields)
    if unknown:
        raise CommandDecodeError(f"{doc['kind']} has no field {', '.join(sorted(unknown))}")
    hints = _hints(cls)
    return cls(**{f: _decode(fields[f], hints.get(f, Any)) for f in cls._fields if f in fields})


def _is_command(doc) -> bool:
    return (isinstance(doc, dict) and set(doc) == {"kind", "fields"}
            and isinstance(doc["kind"], str) and isinstance(doc["fields"], dict))


@cache
def _hints(cls) -> dict:
    return typing.get_type_hints(cls, vars(commands))


def _decode(value, hint):
    if value is None:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _decode(value, _pick(value, options))
    if isinstance(value, dict):
        if _is_command(value) and value["kind"] in command_classes():
            return decode(value)
        inner = args[1] if origin is dict and len(args) == 2 else Any
        return {k: _decode(v, inner) for k, v in value.items()}
    if isinstance(value, list):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return tuple(_decode(v, a) for v, a in zip(value, args, strict=False))
        inner = args[0] if args else Any
        items = [_decode(v, inner) for v in value]
        if origin in (list, set, frozenset):
            return origin(items)
        return tuple(items)  # a command's sequences are tuples (they are hashable values)
    return value


def _pick(value, options: list):
    """The member of a union that fits the JSON value's shape."""
    def shape(hint):
        origin = typing.get_origin(hint) or hint
        if isinstance(origin, type) and issubclass(origin, tuple) and hasattr(origin, "_fields"):
            return dict
        if origin in (tuple, list, set, frozenset):
            return list
        if origin is dict:
            return dict
        return origin

    for option in options:
        want = shape(option)
        if isinstance(want, type) and isinstance(value, want):
            return option
    return options[0] if len(options) == 1 else Any
