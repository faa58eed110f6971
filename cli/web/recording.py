"""A phone's line in the server's writer thread (`banco serve`): read once into its typed
command (cli/library.py's read), the caller's permission decided on that command
(cli/web/permissions.py, and a player's own act in cli/web/acts.py), recorded as read, and the
tables that show it brought up to it before the answer goes."""

from __future__ import annotations

from banco.cli.web.answers import answer
from banco.cli.words import i18n
from banco.ledger.base.errors import DatabaseError


def run_line(hub, game: int | None, line, lang: str, command_id: str | None,
             expect: int | None, who: tuple | None = None, hold: bool = False,
             langs: tuple = ()):
    """Read one line into its typed command (or take a Line read before: a held trade,
    accepted), decide the caller's permission on it and record it, in the writer thread:
    the status and the answer's body, in `lang`; or the Decision refusing it, for the
    route to answer and log; or, `hold` and the line a trade, the Line read, for the route
    to hold for the paired sides (cli/web/offers.py).
    `who`: the (role, player) of the phone it came from (a player records only his own
    acts: cli/web/acts.py, on the typed command); None, the banker's.
    `langs`: a refusal also said in each of these (`refused_in`), for the pages that follow a
    held trade to say why it was not recorded in their own language (cli/web/offers.py)."""
    from banco.cli.library import Line
    from banco.cli.web.acts import acting
    from banco.cli.web.permissions import decide
    from banco.ledger.records.commands import Trade

    role, player = who or ("banker", None)
    try:
        library = hub.library()  # PostgreSQL's connection, new if it was dropped
        revive = getattr(library.book.store, "revive", None)
        read = line if isinstance(line, Line) else library.read(line, game=game,
                                                                 lang=lang)
        if revive is not None and read.refusal is not None \
                and isinstance(read.refusal.error, DatabaseError):
            # a connection cut with no word from the server (a network cut) is found dead
            # by its first query only; a reading records nothing, so it is read again on a
            # new one
            revive()
            read = library.read(line, game=game, lang=lang)
        decision = decide(role, player, read, banker_only=hub.banker_only)
        if not decision.allowed:
            return decision
        if hold and isinstance(read.command, Trade):
            return read
        actor, authorize = acting(role, player, banker_only=hub.banker_only)
        outcome = library.execute(read, actor=actor, id=command_id, expect=expect,
                                  authorize=authorize)
        if outcome.refusal is not None and isinstance(outcome.refusal.error,
                                                      DatabaseError):
            raise outcome.refusal.error
        seq = library.book.last_seq(game)
    except DatabaseError as exc:  # away: nothing was recorded (a 503 to retry)
        with i18n.in_language(lang):
            errors = i18n.say_error(exc) + "\n"
        return 503, {"code": 4, "said": "", "errors": errors, "events": [],
                     "replayed": False, "seq": None}
    events = () if outcome.replayed else outcome.events
    table = hub.table(game)
    table.recorded(library.book, game, seq, events)
    latest = hub.tables.get(None)
    if latest is not None and latest is not table:
        # the TV follows the latest game: showing this one, it shows what the answer
        # says before the answer goes (a GET after a 200 read the table before it);
        # another, its watcher looks whether this one is the latest now
        shown = latest.state
        if shown is not None and shown.game_id == game:
            latest.recorded(library.book, game, seq, events)
        else:
            latest.nudge()
    status, body = answer(outcome, seq, table, expect, lang)
    if langs and status != 200:
        body["refused_in"] = {other: why(answer(outcome, seq, table, expect, other)[1])
                              for other in langs}
    return status, body


def why(body: dict) -> str:
    """A refusal's words, as a page says them (app.js's deliver): the rules' refusal with the
    rule it cites, else the error, else what the terminal would print."""
    from banco.ledger.base.text import cited

    if body.get("refused"):
        return cited(body["refused"], body.get("rule") or "")
    return body.get("error") or body.get("errors", "").strip()
