"""Each event type's marshmallow schema (ledger/records/events.py) compiled into one plain function, for
the audit's hot path: `checks()[type](data)` is True exactly when `validate(type, data)` passes.

marshmallow stays the schema of record: the functions are generated from its schema objects
(fields, `required`, `allow_none`, the validators), not written by hand, so they cannot drift
from it; a field or validator the generator does not know is refused when the checks are built
(and tests/test_event_checks.py builds them).  `schema.load` builds the loaded result, its
error messages and a deep copy of every nested list along the way; a check only needs yes or
no, and when the answer is no the caller asks marshmallow for the message.  About 25 times
faster on recorded games: marshmallow alone would halve the audit's pace.  Built in memory when
the audit starts, never written out; the write path validates with marshmallow itself
(ledger/book.py).

What counts as valid is marshmallow's, including its corners: a strict Integer refuses
booleans, a Boolean with truthy={True} also takes 1 (1 == True), a UUID is any text
`uuid.UUID` reads.  The data a check sees comes from JSON: lists and dicts, never tuples or
sets, which marshmallow would also take where it takes a list.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

_MISSING = object()


def _uuid_ok(value) -> bool:
    try:
        uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        return False
    return True


def _member(value, truthy, falsy) -> bool:
    """marshmallow's Boolean: `value in truthy or value in falsy`, unhashable values refused."""
    try:
        return value in truthy or value in falsy
    except TypeError:
        return False


def _one_of(value, choices) -> bool:
    try:
        return value in choices
    except TypeError:
        return False


class _Writer:
    """Python source for one event type's check, with the constants it needs."""

    def __init__(self):
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.n = 0

    def var(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def const(self, value) -> str:
        name = f"K{len(self.consts)}"
        self.consts[name] = value
        return name

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _validators(field, w: _Writer, v: str, depth: int, kinds: tuple[str, ...]) -> None:
    from marshmallow import validate as mv

    for check in field.validators:
        if isinstance(check, mv.Range) and "range" in kinds:
            if check.min is not None:
                op = "<" if check.min_inclusive else "<="
                w.emit(depth, f"if {v} {op} {check.min!r}: return False")
            if check.max is not None:
                op = ">" if check.max_inclusive else ">="
                w.emit(depth, f"if {v} {op} {check.max!r}: return False")
        elif isinstance(check, mv.Length) and "length" in kinds:
            if check.equal is not None:
                w.emit(depth, f"if len({v}) != {check.equal!r}: return False")
                continue
            if check.min is not None:
                w.emit(depth, f"if len({v}) < {check.min!r}: return False")
            if check.max is not None:
                w.emit(depth, f"if len({v}) > {check.max!r}: return False")
        elif isinstance(check, mv.OneOf) and "oneof" in kinds:
            w.emit(depth, f"if not _one_of({v}, {w.const(tuple(check.choices))}): return False")
        else:
            raise NotImplementedError(f"no compiled check for the validator {check!r} on "
                                      f"{type(field).__name__}")


def _field(field, w: _Writer, v: str, depth: int) -> None:
    """Lines that `return False` unless the value in variable `v` (present) passes `field`."""
    from marshmallow import fields as f

    if field.allow_none:
        # marshmallow returns None before any check of the field
        w.emit(depth, f"if {v} is not None:")
        depth += 1
    # else None fails the type test below, as marshmallow refuses it ("may not be null")
    kind = type(field)
    if kind is f.Integer:
        if not field.strict:
            raise NotImplementedError("a non-strict Integer has no compiled check")
        w.emit(depth, f"if type({v}) is not int: return False")
        _validators(field, w, v, depth, ("range",))
    elif kind is f.String:
        w.emit(depth, f"if type({v}) is not str: return False")
        _validators(field, w, v, depth, ("length", "oneof"))
    elif kind is f.Boolean:
        if not field.truthy:
            raise NotImplementedError("a Boolean without truthy values has no compiled check")
        t, fa = w.const(frozenset(field.truthy)), w.const(frozenset(field.falsy))
        w.emit(depth, f"if {v} is not True and {v} is not False and not _member({v}, {t}, "
                      f"{fa}): return False")
        _validators(field, w, v, depth, ())
    elif kind is f.UUID:
        w.emit(depth, f"if type({v}) is not str or not _uuid_ok({v}): return False")
        _validators(field, w, v, depth, ())
    elif kind is f.List:
        w.emit(depth, f"if type({v}) is not list: return False")
        item = w.var("i")
        w.emit(depth, f"for {item} in {v}:")
        _field(field.inner, w, item, depth + 1)
        _validators(field, w, v, depth, ("length",))
    elif kind is f.Tuple:
        w.emit(depth, f"if type({v}) is not list or len({v}) != {len(field.tuple_fields)}: "
                      "return False")
        for i, inner in enumerate(field.tuple_fields):
            item = w.var("t")
            w.emit(depth, f"{item} = {v}[{i}]")
            _field(inner, w, item, depth)
        _validators(field, w, v, depth, ("length",))
    elif kind is f.Dict:
        w.emit(depth, f"if type({v}) is not dict: return False")
        if field.key_field is not None or field.value_field is not None:
            key, value = w.var("k"), w.var("x")
            w.emit(depth, f"for {key}, {value} in {v}.items():")
            if field.key_field is not None:
                _field(field.key_field, w, key, depth + 1)
            if field.value_field is not None:
                _field(field.value_field, w, value, depth + 1)
        _validators(field, w, v, depth, ())
    elif kind is f.Nested:
        _schema(field.schema, w, v, depth)
        _validators(field, w, v, depth, ())
    else:
        raise NotImplementedError(f"no compiled check for a {kind.__name__} field")


def _schema(schema, w: _Writer, v: str, depth: int) -> None:
    """Lines that `return False` unless the mapping in `v` loads with `schema` (unknown=RAISE:
    no key beyond its fields)."""
    from marshmallow import RAISE

    if schema.unknown != RAISE:
        raise NotImplementedError("a schema that lets unknown fields through has no compiled "
                                  "check")
    fields = schema.load_fields
    w.emit(depth, f"if type({v}) is not dict: return False")
    w.emit(depth, f"if not {v}.keys() <= {w.const(frozenset(fields))}: return False")
    for name, field in fields.items():
        if field.data_key not in (None, name) or field.pre_load:
            raise NotImplementedError(f"field {name}: data_key and pre_load have no compiled "
                                      "check")
        value = w.var()
        w.emit(depth, f"{value} = {v}.get({name!r}, _MISSING)")
        if field.required:
            w.emit(depth, f"if {value} is _MISSING: return False")
            _field(field, w, value, depth)
        else:
            w.emit(depth, f"if {value} is not _MISSING:")
            _field(field, w, value, depth + 1)


def source(schema) -> tuple[str, dict]:
    """The source of `def check(d)` for one schema, and the constants it refers to."""
    w = _Writer()
    w.emit(0, "def check(d):")
    _schema(schema, w, "d", 1)
    w.emit(1, "return True")
    return "\n".join(w.lines) + "\n", w.consts


@cache
def checks() -> dict[str, Callable[[Any], bool]]:
    """{event type: check(data) -> bool}, built once from banco.ledger.records.events.schemas()."""
    from banco.ledger.records.events import schemas

    out = {}
    for type_, schema in schemas().items():
        text, consts = source(schema)
        scope = {"_MISSING": _MISSING, "_uuid_ok": _uuid_ok, "_member": _member,
                 "_one_of": _one_of, **consts}
        exec(compile(text, f"<check {type_}>", "exec"), scope)  # noqa: S102 - our own source
        out[type_] = scope["check"]
    return out

