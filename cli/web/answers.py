"""A line's outcome as the HTTP contract's status and body (docs/http-api.md): 200 done, 403
another's act, 422 refused by the rules (with its evidence), 409 the game moved, 400 usage,
423 the game's chain broken (nothing more recorded until the referee acts), 503 the database
away; and the request body, read no further than BODY_LIMIT."""

from __future__ import annotations

import json
from contextlib import contextmanager

from starlette.requests import Request

from banco.cli.lines import vocabulary
from banco.cli.web.bodies import TwiceGiven, parsed
from banco.cli.web.hub import Table
from banco.cli.words import i18n
from banco.cli.words.i18n import N_, NP_

# What a phone may send: a line of a table is a few words (the longest, a trade of many deeds,
# some hundreds of characters), so a body of 16 KiB is plenty and a bigger one is never read
# into memory; a line is capped apart, because a short body can hold a long line of escapes.
BODY_LIMIT = 16 * 1024
LINE_LIMIT = 2000
ID_TAKEN = N_("the id {id} already recorded `{line}` (events {first}-{last}), not this "
              "command: give a new --id to a new command; nothing was recorded")
# The words a phone's field runs (the table's and the referee's, English and Italian): its
# door, where a hint to type them is said without `banco` (cli/words/i18n.py for_door); a hint
# to a word only the terminal runs (`banco cards imprevisti`) keeps it, since the phone's field
# answers such a word "run it at the terminal".
PHONE_WORDS = frozenset(
    w for word in vocabulary.WORDS if word.kind in ("table", "referee")
    for w in (word.english, word.italian) if w) | frozenset(vocabulary.CHOICE_ALONE)
# what a phone's page shows instead of a word that lists it, which its field cannot run: a
# hint to type `board` names the board on the page (cli/words/i18n.py at_door's places); a
# hint to a word with no such place (`help`, `games`, `banco cards`) is not said on a phone
ON_THE_PAGE = {"board": N_("they are on the page's board"),
               "log": N_("the page's last commands give their numbers")}
PHONE_PLACES = {w: said for word in vocabulary.WORDS if word.english in ON_THE_PAGE
                for w in (word.english, word.italian) if w
                for said in [ON_THE_PAGE[word.english]]}
# a line a phone names, in its reader's quotes: a phone shows no terminal's backticks
QUOTED = NP_("a command line named on a phone", "“{line}”")
ID_HELD = N_("the id {id} was given to `{line}` (a trade waiting for the players' phones), "
             "not this line: give a new id to a new line; nothing was recorded")


class BodyTooBig(Exception):
    """A request body past BODY_LIMIT: answered 413, and read no further."""


async def json_body(request: Request):
    """The request's JSON, or None when it is not JSON at all (a 400 for the caller); raises
    BodyTooBig past BODY_LIMIT bytes, however the client says its length (or does not)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > BODY_LIMIT:
        raise BodyTooBig
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > BODY_LIMIT:
            raise BodyTooBig
        chunks.append(chunk)
    try:
        return parsed(b"".join(chunks))  # a key given twice: TwiceGiven (cli/web/bodies.py)
    except TwiceGiven:
        raise
    except (ValueError, RecursionError):
        return None


def said(outcome, lang: str) -> dict:
    """A library Outcome's words in `lang`, as the command line would print them but at the
    phone's door: `code` (its exit code), `said` (stdout's lines) and `errors` (stderr's)."""
    with i18n.at_door(PHONE_WORDS, quotes(lang), PHONE_PLACES):
        lines = outcome.lines(lang)
    return {"code": outcome.refusal.code if outcome.refusal is not None else 0,
            "said": "".join(text + "\n" for err, text in lines if not err),
            "errors": "".join(text + "\n" for err, text in lines if err)}


def answer(outcome, seq: int, table: Table, expect: int | None, lang: str) -> tuple[int, dict]:
    """A line's outcome (cli/library.py's Outcome) as the contract's status and body."""
    from banco.cli.web.acts import NotPermitted
    from banco.ledger.base.errors import RuleViolation

    body = {**said(outcome, lang),
            # a replay appended nothing: what it recorded the first time is said, not listed
            "events": [] if outcome.replayed else [clean(e) for e in outcome.events],
            "replayed": outcome.replayed, "seq": seq}
    code = body["code"]
    refusal = outcome.refusal.error if outcome.refusal is not None else None
    if code == 0:
        return 200, body
    if isinstance(refusal, NotPermitted):  # another's act, seen on the typed command
        with at_phone(lang) as catalog:
            body["refused"] = body["error"] = refusal.render(catalog)
        body["status"] = 403
        return 403, body
    if code == 1:
        if isinstance(refusal, RuleViolation):
            from banco.ledger.base.text import render

            # in the line's language, as `errors` says it (the server speaks no language of
            # its own: `allowed` came out English under ?lang=it), at the phone's door
            with at_phone(lang) as catalog:
                body.update(refused=refusal.text.render(catalog), rule=refusal.rule,
                            allowed=(render(refusal.allowed_text, catalog)
                                     if refusal.allowed_text else ""))
        # a late claim's evidence: the rows it recorded even though it was refused
        body["evidence"] = [e for e in body["events"] if e["type"] != "CommandRecorded"]
        return 422, body
    if code == 5:
        body["changed"] = [c for c in table.doc(lang, "public")[1].get("commands", [])
                           if expect is None or c["seq"] > expect]
        return 409, body
    if code == 2:
        return 400, body
    if code == 3:
        # a chain found broken: no retry mends it (a 503 had the page retry forever), and it is
        # no fault of the server's (a 500 reads as one, which a client may retry): the game
        # is locked until the referee acts, 423 (WebDAV's Locked), as final as a 4xx is
        return 423, body
    return 503, body


def taken(said: dict, key: str, first: str, lang: str) -> dict:
    """The 400 for an id given again with another line: said as the book says it to the
    command line (ledger/batches.py's same_command), nothing run."""
    events = said.get("events") or []
    with at_phone(lang) as catalog:
        if events:
            text = catalog.gettext(ID_TAKEN).format(id=key, line=first,
                                                    first=events[0]["seq"],
                                                    last=events[-1]["seq"])
        else:
            text = catalog.gettext(ID_HELD).format(id=key, line=first)
        errors = catalog.gettext("error: {message}").format(message=text) + "\n"
    return {"code": 2, "said": "", "errors": errors, "events": [], "replayed": False,
            "seq": said.get("seq")}


@contextmanager
def at_phone(lang: str):
    """The catalog of `lang` at the phone's door, in this request's context only (a context
    variable: another request, the shell, a CLI run in another thread keep theirs); its
    facts (a reason inside a refusal) said in `lang` too."""
    with i18n.at_door(PHONE_WORDS, quotes(lang), PHONE_PLACES), i18n.in_language(lang):
        yield i18n.catalog(lang)


def quotes(lang: str) -> tuple[str, str]:
    """The quotes a phone in `lang` puts a line between ("“...”", "«...»")."""
    before, _, after = i18n.catalog(lang).pgettext(*QUOTED).partition("{line}")
    return before, after


def clean(row: dict) -> dict:
    return json.loads(json.dumps(row, default=str))
