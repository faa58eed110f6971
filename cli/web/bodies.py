"""What a request's JSON body may hold: one marshmallow schema per body (DESIGN: a body
crossing the boundary is validated), read before a handler looks at it.

Refused with 400 and nothing run: a field no schema names (`"editon": "us"` made a classic
game; `"expcet": 3` ran a line unguarded), a key given twice (`{"line": "roll 1 2", "line":
"undo"}` ran the undo: json.loads keeps the last), and an empty `id` (taken as no id: a retry
then applied twice).  A value of the wrong kind is the handler's to word.  A body that is not a JSON object is left
to the handler, which says what it needs."""

from __future__ import annotations

import difflib
import functools
import json

from banco.cli.words.i18n import N_

UNKNOWN = N_("the request has a field `{field}` that banco does not know{hint}: the fields "
             "allowed are {allowed}; nothing was run")
HINT = N_(" (did you mean `{name}`?)")
TWICE = N_("the request gives the field `{field}` twice: give it once; nothing was run")
WRONG = N_("the request's `{field}` is not {what}; nothing was run")

TEXT, NOT_EMPTY, WHOLE = N_("text"), N_("text, not empty"), N_("a whole number, 0 or more")
NAMES = N_("a list of names")

# body -> {field: (what it must be, kind)}; kinds: str, id (non-empty str), int (>= 0 or null),
# names (list of str), opt (str or null)
BODIES = {
    "command": {"line": (TEXT, "str"), "id": (NOT_EMPTY, "id"), "expect": (WHOLE, "int")},
    "offer": {"answer": (TEXT, "str"), "id": (NOT_EMPTY, "id")},
    "game": {"players": (NAMES, "names"), "rules": (TEXT, "str"), "edition": (TEXT, "opt"),
             "cash": (TEXT, "opt")},
    "seat": {"role": (TEXT, "str"), "player": (TEXT, "opt")},
    "join": {"code": (TEXT, "str"), "player": (TEXT, "str")},
    "join_key": {"key": (TEXT, "str")},
    "approval": {"answer": (TEXT, "str")},
}


class TwiceGiven(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def unique_pairs(pairs: list) -> dict:
    """json.loads' object_pairs_hook: an object with a key given twice is refused."""
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise TwiceGiven(key)
        seen[key] = value
    return seen


def parsed(data: bytes):
    """The body's JSON (keys once each; TwiceGiven otherwise), or None when it is not JSON."""
    return json.loads(data, object_pairs_hook=unique_pairs)


@functools.cache
def schema(body: str):
    """The marshmallow schema of `body` (built on first use: the server pays for it once)."""
    from marshmallow import RAISE, Schema
    from marshmallow import fields as f
    from marshmallow import validate as v

    kinds = {"str": lambda: f.String(),
             "id": lambda: f.String(validate=v.Length(min=1)),
             "int": lambda: f.Integer(strict=True, allow_none=True, validate=v.Range(min=0)),
             "names": lambda: f.List(f.String()),
             "opt": lambda: f.String(allow_none=True)}
    fields = {name: kinds[kind]() for name, (_what, kind) in BODIES[body].items()}
    return Schema.from_dict(fields, name=f"{body.title()}Body")(unknown=RAISE)


def problem(body: str, data) -> tuple[str, dict] | None:
    """(message, its parameters) for a body that breaks its schema, else None.  A value of
    the wrong kind in a field the handler reads is left to the handler, whose words say what
    its endpoint needs (`code` as text, `answer` one of two words); an empty `id`, which the
    handler would take as none, is said here."""
    if not isinstance(data, dict):
        return None  # the handler's own words for a body that is no object
    allowed = BODIES[body]
    errors = schema(body).validate(data)
    for field in sorted(errors, key=str):
        if field not in allowed:  # marshmallow's RAISE: a field the schema does not name
            close = difflib.get_close_matches(str(field), list(allowed), n=1)
            return UNKNOWN, {"field": str(field)[:40], "close": close[0] if close else None,
                             "allowed": ", ".join(f"`{name}`" for name in allowed)}
    if "id" in errors:
        return WRONG, {"field": "id", "what": allowed["id"][0]}
    return None


async def checked(hub, request, body: str):
    """The request's JSON body, checked against the schema of `body`, or the Response to
    answer (hub.body's 413 and 400s, or this module's 400)."""
    from banco.cli.web.hub import tr

    try:
        data = await hub.body(request)
    except TwiceGiven as twice:
        return hub.refuse(request, 400, TWICE, field=twice.key[:40])
    found = None if not isinstance(data, dict) else problem(body, data)
    if found is None:
        return data
    message, params = found
    words = tr(hub.language(request))
    if message == UNKNOWN:
        close = params.pop("close")
        params["hint"] = words.gettext(HINT).format(name=close) if close else ""
    else:
        params["what"] = words.gettext(params["what"])
    return hub.refuse(request, 400, message, **params)
