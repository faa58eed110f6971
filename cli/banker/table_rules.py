"""The words of the rule sets beyond classic: dealing deeds, the time limit, a debtor's own
auction, and tournaments (cli/main.py's COMMANDS points here)."""

from __future__ import annotations

import json
import sys

import click

from banco.cli.banker.adapter import table_command
from banco.cli.groups import Subgroup
from banco.cli.safe_output import write_out
from banco.cli.session import dump, json_option, pass_session
from banco.cli.words.i18n import _, counted
from banco.ledger.base.errors import EXIT_AUDIT, UsageError


@table_command("deal")
def deal():
    """Deeds dealt by lot before the first roll, paid to the Bank at once: deal PLAYER
    PROPERTY... (no quotes needed: `deal Anna vicolo corto stazione sud`).  Vintage (002) deals
    7 to 3 each by the number of players, the short and timed games (004) two each."""


@table_command("time-up")
def time_up():
    """The agreed time has run out.  Championship (000 FAQ 6): the player whose turn is in
    progress finishes it, then the game ends (a doubles re-roll is a new turn, FAQ 11);
    vintage (002) and timed (004): the game ends at once.  The richest player wins."""


@table_command("auction-deed")
def auction_deed():
    """A debtor who finds the creditor's price for a deed unfair auctions it among the other
    players; the winner pays the debtor (vintage, 002 §Varie)."""


# --- tournaments --------------------------------------------------------------------------

@click.group(cls=Subgroup, aliases={"nuovo": "new", "aggiungi": "add",
                                    "classifica": "standings", "esporta": "export"})
def tournament():
    """Championship tournaments: games of this database entered round by round, points summed
    (000 §PUNTEGGIO).  A game from another table's database is imported first (`banco
    import`), then added like any other."""


@tournament.command("new")
@click.argument("name")
@pass_session
def tournament_new(session, name):
    """Start a tournament called NAME."""
    from banco.ledger.tournaments import Tournaments

    t = Tournaments(session.book.store)
    t.create(name, now=session.now(), actor=session.actor)
    click.echo(_("tournament {name!r}: add the games of each round with `banco tournament add GAME...`").format(name=name))


@tournament.command("add")
@click.argument("games", nargs=-1, type=int, required=True)
@click.option("--tournament", "name", default=None,
              help="Which tournament (default: the latest started).")
@click.option("--round", "round_", type=click.IntRange(min=1), default=None,
              help="The round these games belong to (default: a new round).")
@pass_session
def tournament_add(session, games, name, round_):
    """Enter finished championship games (their numbers in this database) as one round."""
    from banco.ledger.tournaments import Tournaments

    t = Tournaments(session.book.store)
    entered = t.add(session.book, list(games), name=name, round_=round_, now=session.now(),
                    actor=session.actor)
    for e in entered:
        click.echo(_("game {game} in round {round} of {tournament!r}: {points}").format(
            game=e["game"], round=e["round"], tournament=e["tournament"],
            points=", ".join(f"{n} {p}" for n, p in e["points"].items())))


@tournament.command("standings")
@click.argument("name", required=False)
@click.option("--expect-head", default=None, metavar="HEX",
              help="A tournament head printed earlier (8+ of its hex digits): fail (exit 3) if "
                   "the tournament's facts up to it are not as they were.")
@json_option
@pass_session
def tournament_standings(session, name, as_json, expect_head):
    """Points summed over the rounds; ties broken by the total score of the games played."""
    from banco.ledger.tournaments import Tournaments
    from banco.projections.readings.tournament import standings

    t = Tournaments(session.book.store)
    entries = t.entries(name)
    if expect_head is not None:
        _held_to(entries, expect_head)
    from banco.cli.words.i18n import say

    broken = t.verify(entries["tournament"])
    if broken is not None:  # an edit under the chain: shown, as a game's log is, but said
        click.echo(_("WARNING: tournament {name!r}: {problem}: these standings are read from "
                     "facts that are not as they were recorded (their head below is not the one "
                     "printed before); run `banco audit`").format(
                         name=entries["tournament"], problem=say(broken)), err=True)
    doc = standings(session.book, entries)
    for g in doc["games"]:  # on stderr, with --json too: a script's warnings are seen there
        if g["twin_of"] is not None:
            click.echo(_("WARNING: game {game} (round {round}) has the same moves as game "
                         "{twin}: the same game entered twice (under another identity), "
                         "counted twice in these standings").format(
                             game=g["game"], round=g["round"], twin=g["twin_of"]), err=True)
    if as_json:
        dump(doc)
        return
    click.echo(_("tournament {tournament!r}: {games} in {rounds}; ties broken by total score").format(tournament=doc['tournament'], games=counted("game", len(doc['games'])), rounds=counted("round", doc['rounds'])))
    click.echo(f"{'':>3} {_('player'):<14}{_('points'):>7}{_('score'):>9}{_('games'):>6}")
    for r in doc["players"]:
        click.echo(f"{r['rank']:>2}. {r['name']:<14}{r['points']:>7}{r['score']:>9}"
                   f"{r['games']:>6}")
    for g in doc["games"]:  # counted as entered, and said: never a quiet rewrite
        if g["changed"] is not None:
            click.echo(_("game {game} (round {round}) changed after it was entered at event "
                         "{seq}: {what}; counted as entered (`banco audit` names it)").format(
                             game=g["game"], round=g["round"], seq=g["entered_seq"],
                             what=say(g["changed"])))
    if doc["head"]:
        click.echo(_("tournament head {head}").format(head=doc["head"]))


@tournament.command("export")
@click.argument("name", required=False)
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write to FILE (default: standard output).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@pass_session
def tournament_export(session, name, output, force):
    """The tournament in one verifiable file: a header naming it, its rounds and each game's
    identity and head, then each game's export as `banco export` writes it, in the order
    entered.  `banco import FILE` re-creates it on another machine, all or nothing."""
    from banco.projections.exchange.tournament_archive import archive_lines

    lines = archive_lines(session.book, name)
    first = next(lines)  # the tournament audited before anything is written
    count = len(json.loads(first)["games"])

    def write(f):
        f.write(first + "\n")
        for line in lines:
            f.write(line + "\n")

    write_out(output, force, write, session.db)
    if output and output != "-":
        click.echo(_("tournament {name!r} exported to {output}: {games}").format(
            name=json.loads(first)["name"], output=output, games=counted("game", count)), err=True)


def _held_to(entries: dict, expect_head: str) -> None:
    """--expect-head: the head printed under the standings once is the head after one of the
    tournament's facts (ledger/tournaments.py `heads`), or the facts up to it were changed."""
    import re

    value = expect_head.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{8,64}", value):
        raise UsageError("--expect-head takes a tournament head (at least its first 8 hex "
                         "digits), not {text!r}", text=expect_head)
    found = [i for i, h in enumerate(entries["heads"], start=1) if h.startswith(value)]
    if len(found) != 1:
        click.echo(_("error: the tournament head {head} is not found in {name!r} (facts "
                     "1-{last}): it was printed from another tournament, or the facts up to it "
                     "were rewritten").format(head=value[:12], name=entries["tournament"],
                                             last=len(entries["heads"])), err=True)
        sys.exit(EXIT_AUDIT)
    if found[0] < len(entries["heads"]):
        click.echo(_("the tournament head {head} is fact {seq}'s: facts 1-{seq} are as they "
                     "were when it was printed; facts {next}-{last} came after").format(
                         head=value[:12], seq=found[0], next=found[0] + 1,
                         last=len(entries["heads"])), err=True)

