"""The referee's words: the log, one event in full, the audit, the replay (and what another rule
set would have made of the game), rulings (corrections: cli/referee/corrections.py)."""

from __future__ import annotations

import json
import sys

import click

from banco.cli.groups import Subgroup
from banco.cli.lines.vocabulary import RULING_ALIASES
from banco.cli.referee.moment_args import log_bound, one_moment, seq_or_time
from banco.cli.session import dump, dump_rows, json_option, pass_session, player_name, records
from banco.cli.words.i18n import _, ngettext
from banco.ledger.base.errors import UsageError


def _event_types(value: str, known: list[str]) -> set[str]:
    """`--type rentpaid,TaxPaid`: exact (any case) names a type; otherwise every type that
    starts with it (`--type rent` is all the Rent... facts); a misspelling gets a hint."""
    from banco.ledger.base.names import fold, resolve

    out: set[str] = set()
    if not value.strip(" ,"):  # `--type ''`: it showed nothing, as if no event matched
        raise UsageError("--type takes an event type or the start of one, e.g. --type rent")
    for word in filter(None, (w.strip() for w in value.split(","))):
        want = fold(word)
        exact = [t for t in known if fold(t) == want]
        starts = [t for t in known if fold(t).startswith(want)]
        if exact or starts:
            out.update(exact or starts)
        else:
            resolve(word, known, "event type")  # raises, with the closest spellings
    return out


def _moves_bank(event: dict) -> bool:
    from banco.ledger.records.events import transfers_of
    from banco.ledger.table.state import BANK

    return any(BANK in (t["payer"], t["payee"]) for t in transfers_of(event))


@click.command()
@click.option("--tail", type=click.IntRange(min=0), default=None,
              help="Only the last N events (after filters).")
@click.option("--type", "types", multiple=True, metavar="TYPE",
              help="Only events of this type, any case; a prefix takes every type it starts "
                   "(`rent`); repeat or separate with commas for several.")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="Only events that concern this player (repeat for several); `bank`: "
                   "the Bank's money movements.")
@click.option("--from", "first", default=None, metavar="SEQ|TIME",
              help="From event SEQ on, or from the first event recorded at or after TIME "
                   "(as `replay --from` reads it).")
@click.option("--to", "last", default=None, metavar="SEQ|TIME",
              help="Up to event SEQ, or the last event recorded by TIME.")
@click.option("--csv", "as_csv", is_flag=True,
              help="CSV: seq, time, type, players, amount, description, hash, taken_back_at.")
@json_option
@pass_session
def log(session, tail, types, players, first, last, as_csv, as_json):
    """The events, in order: seq, local time, short hash, type and what happened.

    Times are the computer's local time with their UTC offset (the TZ variable is honoured).
    `x` after the seq marks an event taken back by a later undo (kept, never erased);
    `banco show SEQ` prints one event in full.
    """
    from collections import deque

    from banco.cli.words.facts import (
        SHORT_HASH,
        amount_of,
        describe,
        local_time,
        players_of,
        taken_back,
    )
    from banco.ledger.records.events import EVENT_TYPES

    game = session.game()
    book = session.book
    st = book.state(game)
    count = book.last_seq(game)
    wanted = who = bank = None
    if types:
        # every type a game holds is one the fold knows (Book._read refuses any other, and
        # tests/test_events.py holds EVENT_TYPES to the fold's): no need to ask the store
        known = sorted(EVENT_TYPES)
        wanted = set().union(*(_event_types(t, known) for t in types))
    if players:
        from banco.ledger.base.names import fold
        from banco.ledger.table.seats import BANK_NAMES

        # `--player bank` (banca, banco...): the Bank's own movements, which no player's are
        bank = any(fold(p) in BANK_NAMES for p in players)
        who = {player_name(st, p) for p in players if fold(p) not in BANK_NAMES}
    # --from/--to as replay reads them; a seq past the game is a filter that matches nothing
    first_seq, last_seq = log_bound(session, first, True), log_bound(session, last, False)
    if first_seq is not None and last_seq is not None and first_seq > last_seq:
        raise UsageError("--from {first} comes after --to {last}: give the earlier moment first",
                         first=first, last=last)
    first, last = first_seq, last_seq
    # A long game's log is read a chunk at a time, and only the stretch asked for: `--tail 5`
    # of a 300,000-event game reads five rows, not the game.
    lo = first if first is not None else 1
    hi = count if last is None else min(last, count)
    if tail is not None and wanted is None and who is None:
        lo = max(lo, hi - tail + 1)  # `--tail 0`: nothing (it showed the whole log)
    if who is not None:  # the read model's rows that may concern them, not the whole log
        from banco.projections.readings.lookups import last_player_events, player_events

        def concerns(e: dict) -> bool:
            return ((wanted is None or e["type"] in wanted)
                    and bool(who & set(players_of(e)) or bank and _moves_bank(e)))

        # `--tail N`: read from the end until N are found (the answer's cost, not the game's)
        last_ones = (None if tail is None else
                     last_player_events(book, game, who, bank, lo, hi, tail, concerns))
        matching = (iter(last_ones) if last_ones is not None else
                    filter(concerns, player_events(book, game, who, bank, lo, hi)))
    elif not as_csv:  # the rows as stored: their words and JSON remembered (log_text.py)
        from banco.cli.referee.log_text import raw_stream

        matching = (r for r in raw_stream(book.store, game, lo, hi)
                    if wanted is None or r[2] in wanted)
    else:
        matching = (e for e in book.stream(game, lo, hi)
                    if wanted is None or e["type"] in wanted)
    # written as they are read (a whole log of 300,000 events in bounded memory); `--tail`
    # keeps only its last N
    shown = iter(deque(matching, maxlen=tail)) if tail is not None else matching
    raw = who is None and not as_csv
    if as_json:
        from banco.cli.referee.log_text import JsonRows, event_json, json_list

        json_list(map(JsonRows().of if raw else event_json, shown), click.echo)
        return
    gone = taken_back(book.rows_of_type(game, "EventRetracted"))
    if as_csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["seq", "time", "type", "players", "amount", "description", "hash",
                         "taken_back_at"])
        for e in shown:
            amount = amount_of(e)
            writer.writerow([e["seq"], local_time(e["recorded_at"]).replace(" ", "T"), e["type"],
                             ";".join(players_of(e)), "" if amount is None else amount,
                             describe(e, st), e["hash"], gone.get(e["seq"], "")])
        return
    if raw:
        from banco.cli.referee.log_text import Words

        words = Words(st).of
        lined = ((r[1], r[4], r[9], r[2], words(r)) for r in shown)
    else:
        lined = ((e["seq"], e["recorded_at"], e["hash"], e["type"], describe(e, st))
                 for e in shown)
    marked = told = False
    lines: list[str] = []
    times: dict[str, str] = {}  # a command's events share their time: converted once
    for seq, at, hsh, type_, text in lined:
        if not told:
            lines.append(f"{_('seq'):>5}  {_('time'):<25}  {_('hash'):<{SHORT_HASH}}  "
                         f"{_('type'):<21} {_('what happened')}")
            told = True
        if seq in gone:
            mark = "x"
            marked = True
        else:
            mark = " "
        when = times.get(at)
        if when is None:
            if len(times) > 4096:
                times.clear()
            when = times[at] = local_time(at)
        lines.append(f"{seq:>5}{mark} {when}  {hsh[:SHORT_HASH]}  {type_:<21} {text}")
        if len(lines) >= 512:  # written a block at a time, not a line (each echo flushes)
            click.echo("\n".join(lines))
            lines = []
    if lines:
        click.echo("\n".join(lines))
    if not told:
        click.echo(_("no event of game {game} matches (it has events 1 to {count})").format(game=game, count=count))
        return
    if marked:
        click.echo(_("(x: taken back by a later undo (EventRetracted); kept, never erased: "
                   "`banco show SEQ` says by which)"))


# `show -5`: a negative seq refused in words, not click's unknown option '-5'
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, required=True, metavar="SEQ")
@json_option
@pass_session
def show(session, words, as_json):
    """One event in full, with the other events of the command that recorded it."""
    from banco.cli.words.facts import data_lines, describe, local_time, taken_back
    from banco.ledger.base.numbers import is_digits
    from banco.projections.referee.moments import parse_moment

    text = one_moment(words, times=False).strip()
    if not is_digits(text.lstrip("-")):
        raise UsageError("{text!r} is not an event number: `show` takes a seq (`log` lists "
                         "them)", text=text)
    seq = parse_moment(text).seq  # a negative number said as such

    game = session.game()
    book = session.book
    # The event, its command's rows (by index) and the undos: never the whole log.
    count = book.last_seq(game)
    if not 1 <= seq <= count:
        raise UsageError("game {game} has events 1 to {count}; there is no event {seq}",
                         game=game, count=count, seq=seq)
    e = next(book.checked(game, seq, seq))
    if e["seq"] != seq:  # the row read is the next one: this one is gone from the log
        from banco.ledger.base.errors import DatabaseError

        raise DatabaseError("event {seq} of game {game} is missing from the log (the next row "
                            "is event {next}): a row was deleted; run `banco audit`",
                            seq=seq, game=game, next=e["seq"])
    st = book.state(game)
    batch = book.recorded(game, e["command_id"])
    undone_at = taken_back(book.rows_of_type(game, "EventRetracted")).get(seq)
    if as_json:
        dump({"event": {k: e[k] for k in ("seq", "type", "data", "recorded_at", "actor",
                                          "command_id", "schema_version", "prev_hash", "hash")},
              "text": describe(e, st), "command": [x["seq"] for x in batch],
              "taken_back_at": undone_at})
        return
    click.echo(_("event {seq} of game {game}: {type}").format(seq=seq, game=game, type=e['type']))
    click.echo(f"  {describe(e, st)}")
    click.echo(_("time       {local_time}  (recorded {recorded_at})").format(local_time=local_time(e['recorded_at']), recorded_at=e['recorded_at']))
    click.echo(_("actor      {actor}").format(actor=e['actor']))
    click.echo(_("command    {command_id}").format(command_id=e['command_id']))
    click.echo(_("hash       {hash}").format(hash=e['hash']))
    click.echo(_("prev hash  {prev_hash}").format(prev_hash=e['prev_hash']))
    click.echo(_("schema     version {schema_version}").format(schema_version=e['schema_version']))
    click.echo(_("data"))
    for line in data_lines(e["data"], st):
        click.echo(line)
    if undone_at is not None:
        click.echo(_("taken back at event {undone_at} (an undo); kept in the log, not in the table").format(undone_at=undone_at))
    others = [x for x in batch if x["seq"] != seq]
    if others:
        click.echo(ngettext("recorded by the same command with {n} other event:",
                            "recorded by the same command with {n} other events:",
                            len(others)).format(n=len(others)))
        for x in batch:
            mark = ">" if x["seq"] == seq else " "
            click.echo(f"{mark}{x['seq']:>5}  {x['type']:<21} {describe(x, st)}")
    else:
        click.echo(_("the only event its command recorded"))


@click.command()
@click.option("--expect-head", default=None, metavar="HASH",
              help="A head printed earlier (its first 8+ hex digits, or its line "
                   "banco/GAME/SEQ/HEX): fail if this history does not contain it.")
@click.option("--seal", "seal_path", default=None, metavar="FILE",
              help="A seal file (`banco seal`): prove its game's sealed events intact.")
@click.option("--pubkey", "pubkey_path", default=None, metavar="FILE",
              help="The referee's public key (`banco keygen`), with --seal.")
@json_option
@pass_session
def audit(session, expect_head, seal_path, pubkey_path, as_json):
    """Verify every game of the database (or the --game named): the hash chain, every schema,
    every recorded command worked out again, the fold; and the file itself: its triggers, the
    games table against each log, the tournaments' chains.  Prints each game's head.

    Exit 0 when clean, 3 naming each bad game and its first bad event otherwise.
    """
    from banco.cli.referee.audit_report import run_audit

    run_audit(session, expect_head, seal_path, pubkey_path, as_json)


# --- replay ---------------------------------------------------------------------------------

@click.command()
@click.option("--from", "first", default=None, metavar="SEQ|TIME",
              help="From the command that wrote event SEQ on, or from the first command "
                   "recorded at or after TIME (`21:14`: from 21:14:00).")
@click.option("--to", "last", default=None, metavar="SEQ|TIME",
              help="Up to the command that wrote event SEQ, or the last one recorded by TIME "
                   "(`21:14`: up to 21:14:59).")
@click.option("--rules", "other_rules", default=None, metavar="NAME|FILE",
              help="Counterfactual: re-run every recorded command under another rule set "
                   "(a built-in name or a house-rules file); nothing is written.")
@click.option("--skip-refused", is_flag=True,
              help="With --rules: skip a command the other rules refuse and go on (default: "
                   "stop there).")
@json_option
@pass_session
def replay(session, first, last, other_rules, skip_refused, as_json):
    """The game command by command: the line typed, its facts, what changed on the table
    (cash, moves, deeds, buildings, mortgages, jail), and any undo that took it back.

    SEQ is an event number; TIME is read as `log` prints it (local time with its offset), as
    ISO 8601 with a zone, as local time (`2026-11-30 21:14`), or as a time of the game's day
    (`21:14`; a game over midnight: the day the time falls on while it was played, or the day
    asked for).  In `banco shell`, `replay`
    steps through the game: next, back, jump SEQ|TIME, where, quit.
    """
    if other_rules is not None:
        return _counterfactual(session, other_rules, skip_refused, as_json)
    if skip_refused:
        raise UsageError("--skip-refused goes with --rules")
    from banco.cli.referee.replay_source import game_steps
    from banco.cli.referee.replay_text import header_lines, step_lines
    from banco.cli.words.facts import describe
    from banco.projections.readings.replay import step_document

    game = session.game()
    book = session.book
    # Streamed, a step at a time, from the command that --from names: a long game's replay
    # (or its last few commands) in bounded memory.
    # `--from 21:14` starts at the first command recorded from 21:14:00 on (a time before the
    # game: its start); `--to 21:14` ends with the last recorded by 21:14:59
    start, end = seq_or_time(session, first, starting=True), seq_or_time(session, last)
    if start is not None and end is not None and start > end:  # `--from 20 --to 10`
        raise UsageError("--from {first} comes after --to {last}: give the earlier moment first",
                         first=first, last=last)
    chosen = game_steps(book, game, start, end)
    if as_json:
        dump_rows((step_document(s, describe) for s in chosen), {"game": game}, "steps")
        return
    step = next(chosen, None)
    if step is None:
        click.echo(_("no command of game {game} in that range (events 1 to {seq})").format(game=game, seq=book.last_seq(game)))
        return
    # The rules, the edition and the seats are the game's from its start: any table of it
    # says them, as the last step's did.
    for line in header_lines(step.after, game):
        click.echo(line)
    while step is not None:
        click.echo("\n".join(step_lines(step)))
        step = next(chosen, None)


def _counterfactual(session, rules: str, skip_refused: bool, as_json: bool) -> None:
    import tempfile

    from banco.cli.referee.counterfactual_text import (
        counterfactual_lines,
        refused_text,
        skipped_line,
    )
    from banco.projections.referee.counterfactual import Divergence, rerun

    game = session.game()
    book = session.book
    # A command skipped waits in a temporary file until its place in the output comes (after
    # the totals and the first divergence): 60,000 of them are not held in memory.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        def keep(d: Divergence) -> None:
            spool.write(json.dumps([d.step, d.seqs, d.line, d.recorded, d.other, d.refused,
                                    None if as_json else refused_text(d)],
                                   ensure_ascii=False) + "\n")

        def spooled():
            spool.seek(0)
            for text in spool:
                yield json.loads(text)

        # the recorded game streamed a chunk at a time, the recorded table from the book
        result = rerun(book.checked(game), rules, skip_refused=skip_refused, game_id=game,
                       total=book.commands_before(game, book.last_seq(game) + 1),
                       table_at=lambda seq: book.state(game, at=seq), on_skip=keep)
        if as_json:
            from banco.cli.words.facts import describe
            from banco.projections.referee.counterfactual import divergence_document

            a, b = result.recorded_final, result.other_final
            _dump_spliced(result.document(describe), "skipped", (
                divergence_document(Divergence(step, tuple(seqs), line, recorded, other,
                                               refused), describe, a, b)
                for step, seqs, line, recorded, other, refused, _said in spooled()))
            return
        for text in counterfactual_lines(result, game, skipped=(
                skipped_line(result, step, line, said)
                for step, _seqs, line, _recorded, _other, _refused, said in spooled())):
            click.echo(text)


def _dump_spliced(doc: dict, key: str, rows) -> None:
    """`dump(doc)` with doc[key] the list `rows`, byte for byte, the rows written one at a
    time wherever `key` stands in the document (session.dump_rows wants it last)."""
    mark = "\x00rows\x00"
    text = json.dumps({**doc, key: mark}, ensure_ascii=False, indent=2)
    before, after = text.split(json.dumps(mark), 1)
    first = True
    for row in rows:
        body = "\n".join("    " + line
                         for line in json.dumps(row, ensure_ascii=False, indent=2).split("\n"))
        click.echo((before + "[\n" if first else ",\n") + body, nl=False)
        first = False
    click.echo(before + "[]" + after if first else "\n  ]" + after)


# --- rulings --------------------------------------------------------------------------------

@click.group(cls=Subgroup, aliases=RULING_ALIASES)
@click.pass_context
def ruling(ctx):
    """A referee's ruling on a dispute, reasoned from the log: rent, auction, bankruptcy,
    jail.  Each gives the facts (with their seqs), the rule set's parameters, the rulebook
    sections, and a verdict; --record keeps it in the game's chain as a RulingRecorded fact."""
    from banco.cli.session import ARGS, Session, typed_line

    session = ctx.find_object(Session)
    if session is not None and session.line is None:  # recorded as typed: `ruling rent 27`
        session.line = typed_line(ctx.meta.get(ARGS, ()), "ruling")


def _ruling_command(kind: str, doc: str):
    # `ruling rent -5`: a negative seq to refuse in words, not click's unknown option '-5'
    @click.command(kind, help=doc, context_settings={"ignore_unknown_options": True})
    # an event's seq, or a time as `state --at` takes it (projections/referee/moments.py)
    @click.argument("words", nargs=-1, required=True, metavar="SEQ|TIME")
    @json_option
    @click.option("--record", is_flag=True,
                  help="Append the ruling to the game as a fact (needs --referee).")
    @click.option("--referee", default=None, metavar="NAME", help="Who rules (with --record).")
    @pass_session
    @records
    def command(session, words, as_json, record, referee, claim_at=None):
        from banco.cli.lines.referee import ruling as asked
        from banco.cli.lines.referee import ruling_lines
        from banco.cli.ruling_log import recorded_ruling, rule

        when = one_moment(words)
        asking = asked([when], kind, record, referee, claim_at, as_json)  # --record: --referee
        if record:
            from banco.ledger.rules.referee import referee_name

            referee = referee_name(referee)  # said before the game is looked at

        game = session.game()
        if record:
            from banco.cli.referees import referee_of

            referee = referee_of(session.book.store, game, referee)  # not a player of it
        if session.game_option is None and len(session.book.games()) > 1 and not as_json:
            # a file of several games: which one is ruled on is said first, and on stderr, so
            # that a seq meant for another game is not answered from this one unnoticed
            click.echo(_("(ruling on game {game}: the latest unfinished, else the last; "
                         "`--game N` for another)").format(game=game), err=True)
        seq = seq_or_time(session, when)
        found = rule(session.book, game, kind, seq, claim_at)
        recorded, replayed = None, False
        if record:  # the same ruling again is answered as recorded, by the book itself
            from banco.cli.session import record as recording
            from banco.cli.session import tell

            outcome = recording(session, recorded_ruling(found, kind, seq, referee))
            if outcome.refusal is not None:
                tell(outcome)
            recorded = next(e["seq"] for e in outcome.events if e["type"] == "RulingRecorded")
            replayed = outcome.replayed
        for err, text in ruling_lines(found, asking, game, recorded, replayed, referee):
            click.echo(text, err=err)  # the library's words for it (cli/lines/referee.py)

    return command


ruling.add_command(_ruling_command(
    "auction", "SEQ: a declined offer, an auction opened, a bid or its close.  The bids in order, "
               "no bid, an unpaid winning bid and the re-auction."))
ruling.add_command(_ruling_command(
    "bankruptcy", "SEQ: the bankruptcy, the estate handed over, or the debt that led to it.  The "
                  "debts, the valuation that made it unavoidable, what passed to whom, and the "
                  "state at the start of the turn where the rule set says so (000 FAQ 32)."))
ruling.add_command(_ruling_command(
    "jail", "SEQ: a player sent to jail, a failed try, or the way out.  Why the player went, "
            "the tries, the way out."))
_rent = _ruling_command(
    "rent", "SEQ: a landing on another player's deed, or a rent claim opened, deferred, paid, "
            "refused or lapsed, a rent owed as a debt, or a rent not due.  Who owed "
            "whom how much and why, when the window opened, the seats to the roll that closes "
            "it, which roll closed it (or that it is still open), and the verdict: what became "
            "of the rent; with --claim-at, whether a claim at that moment was in time, the rent "
            "as the log stands said above it.")
_rent = click.option("--claim-at", "claim_at", default=None, metavar="SEQ|TIME",
                     help="The verdict is on a claim made after event SEQ, or at TIME: in time "
                          "or not.")(_rent)
ruling.add_command(_rent)
