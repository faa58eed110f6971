"""The organiser's words: the games in a file, statements, deed histories, standings, and a
game's history in and out of the database: export, import, the HTML report."""

from __future__ import annotations

import sys

import click

from banco.cli.safe_output import write_out
from banco.cli.session import (
    dump,
    dump_rows,
    json_option,
    pass_session,
    player_name,
    property_position,
    property_words,
)
from banco.cli.words.i18n import NP_, _, counted, pgettext, say
from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import msg


@click.command()
@json_option
@pass_session
def games(session, as_json):
    """The games in this database: number, start, players, rules, whether finished."""
    rows = session.book.games()
    doc = [{"game": g["game_id"], "started_at": g["started_at"], "players": g["players"],
            "rules": g["rules"], "edition": g["edition"], "ended": g["ended"],
            "uuid": g["uuid"], "events": g["events"], "imported": g["imported"]}
           for g in rows]
    _rows_held_to_logs(session.book.store)
    if as_json:
        dump(doc)
        return
    if not doc:
        click.echo(_("no games yet: `banco new PLAYER PLAYER ...`"))
        return
    from banco.cli.words.facts import local_time

    width = max(len(_("rules")), *(len(_rule_set(g["rules"])) for g in doc)) + 2
    click.echo(f"{_('game'):>4}  {_('started'):<25}  {_('rules'):<{width}}{_('state'):<12}"
               f"{_('players')}")
    for g in doc:
        state = _("finished") if g["ended"] else _("in progress")
        came = g["imported"]
        # an organiser must see which results were played here and which came from a file
        where = "" if came is None else "  " + _("(imported {at} from {source})").format(
            at=local_time(came["at"]), source=came["from"])
        rules = _rule_set(g["rules"])
        click.echo(f"{g['game']:>4}  {local_time(g['started_at'])}  "
                   f"{rules:<{width}}{state:<12}{', '.join(g['players'])}{where}")


def _rule_set(name: str | None) -> str:
    """A rule set's name standing alone, in the table's language (`classico`: a column of
    names, not the words after `regole`), from the rule sets' one table."""
    from banco.ledger.board.rule_sets import named

    return say(named(name)) if name else "?"


def _after_rules(name: str | None) -> str:
    """A rule set's name as a message says it after `rules` (`regole classiche`)."""
    from banco.ledger.board.rule_sets import said

    return say(said(name)) if name else "?"


def _rows_held_to_logs(store) -> None:
    """The list is the games table's, a mutable index: a row edited by hand (its players, its
    rules) is said on stderr, pointing to doctor, rather than listed as if it were the log's."""
    from banco.cli.words.i18n import say

    for f in store.checks().games_row_findings():  # each names its game
        click.echo(_("WARNING: {problem}; `banco doctor` says more (`doctor --repair` rebuilds "
                     "the row from its log)").format(problem=say(f.problem)), err=True)


@click.command()
@click.argument("account")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="CSV for a spreadsheet.")
@pass_session
def statement(session, account, as_json, as_csv):
    """A bank statement: every transfer of ACCOUNT (a player or `bank`), with running balance."""
    from banco.projections.readings.lookups import checked_statement

    game = session.game()
    book = session.book
    state = book.state(game)
    name = "bank" if account.lower() in ("bank", "banca") else player_name(state, account)
    # what the table says the account holds (the Bank: what the players hold, its opposite)
    expected = (-sum(p.cash for p in state.players) if name == "bank"
                else state.player(name).cash)
    # the read model's movements, checked against that before one is shown: an edited read
    # model is read past (from the log), never printed as the account's figures
    rows, forged = checked_statement(book, game, name, expected)
    if forged is not None:
        click.echo(_("WARNING: game {game}'s read model disagrees with its log (its statement "
                     "of {player} ends at {forged}): this statement is read from the log; "
                     "`banco doctor` says where, `banco doctor --repair` rebuilds it").format(
                         game=game, player=_say_account(name), forged=forged), err=True)
    last = [rows[-1]["balance"]] if rows else []
    _statement_out(iter(rows), name, state, as_json, as_csv)
    if name != "bank" and last and last[0] != state.player(name).cash:
        # Two readings kept apart (the read model's rows, the table from its snapshot) that
        # must agree: an edit to either is said here, not only by `doctor`.
        click.echo(_("WARNING: the statement ends at {balance}, but the table has {player} at "
                     "{cash}: the read model or a snapshot was edited (`banco doctor` says "
                     "which; `banco doctor --repair` rebuilds them)").format(
                         balance=last[0], player=name, cash=state.player(name).cash), err=True)


def _statement_out(rows, name: str, state, as_json: bool, as_csv: bool) -> None:
    if as_json:
        dump_rows(rows)
    elif as_csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=["seq", "type", "counterparty", "amount",
                                                        "reason", "balance"])
        writer.writeheader()
        from banco.ledger.records.reasons import english

        # a spreadsheet's column: the reason in English words, as before reasons were codes
        writer.writerows({**r, "reason": english(r["reason"], state.edition)} for r in rows)
    else:
        click.echo(f"{_('event'):>5}  {_('amount'):>7}  {_('balance'):>7}  {_('from/to'):<10} "
                   f"{_('reason')}")
        from banco.cli.words.reasons import say_reason

        balance = None
        for r in rows:
            balance = r["balance"]
            click.echo(f"{r['seq']:>5}  {r['amount']:>+7}  {balance:>7}  "
                       f"{_say_account(r['counterparty']):<10} {say_reason(r['reason'], state.edition, r['amount'])}")
        if name != "bank":
            # the statement's own last balance, read from the log: the table now comes from
            # the book's snapshot, and an edited snapshot once made the two lines disagree
            cash = balance if balance is not None else state.player(name).cash
            click.echo(_("cash now: {cash}").format(cash=cash))


@click.command()
@property_words
@json_option
@pass_session
def history(session, words, as_json):
    """The story of one deed: owners, auctions, trades, mortgages, buildings."""
    from banco.projections.readings.lookups import checked_history

    game = session.game()
    book = session.book
    table = book.state(game)
    edition = table.edition
    pos = property_position(table, " ".join(words))
    # the events the read model says name the deed, held to the table's owner, mortgage and
    # buildings of it before one is shown (as `statement` is to the cash): an edited read
    # model is read past
    rows, forged = checked_history(book, game, pos, table)
    if forged:
        click.echo(_("WARNING: game {game}'s read model disagrees with its log (its history of "
                     "{space}): this history is read from the log; `banco doctor` says where, "
                     "`banco doctor --repair` rebuilds it").format(
                         game=game, space=edition.space(pos).name), err=True)
    if as_json:
        dump_rows(rows)
        return
    told = False
    for r in rows:
        if not told:
            click.echo(f"{_('event'):>5}  {_('owner'):<10} {_('what happened')}")
            told = True
        click.echo(f"{r['seq']:>5}  {r['owner'] or _('Bank'):<10} {_say_note(r['note'], edition)}")
    if not told:
        click.echo(_("nothing has happened to it yet: it is with the Bank"))


def _say_account(account: str) -> str:
    """A statement's counterparty: the Bank in the user's language, a player as named."""
    from banco.ledger.table.state import BANK

    return _("Bank") if account == BANK else account


def _say_note(note, edition=None) -> str:
    """A deed's history note in the user's language; a fact's reason inside it through
    cli/words/reasons.py."""
    from banco.cli.words.i18n import say
    from banco.cli.words.reasons import say_reason
    from banco.ledger.base.text import Text

    if isinstance(note, Text) and isinstance(note.params.get("reason"), str):
        note = Text(note.template, note.plural, note.n,
                    {**note.params, "reason": say_reason(note.params["reason"], edition)})
    return say(note)


# a player's status, in a context of its own ("bankrupt" the status, not the command)
STATUS = {"winner": NP_("status", "winner"), "in play": NP_("status", "in play"),
          "bankrupt": NP_("status", "bankrupt")}


@click.command()
@json_option
@pass_session
def standings(session, as_json):
    """Who leads: players in play by net worth (the championship's score sheet, ties broken on
    unmortgaged property), then the bankrupt, last out first; with the tournament points once
    a championship game is over."""
    from banco.projections.readings.accounts import standings as build

    table = session.state()
    rows = build(table)
    if as_json:
        from banco.ledger.records.seals import head_line

        # The head the standings were read at, finished or not (the text prints it once the
        # game is over): on every row, since the document is a list and stays one.
        game = session.game()
        line = head_line(game, table.seq, session.book.hash_at(game, table.seq))
        dump([{**row, "head_line": line} for row in rows])
        return
    # The championship's score sheet and points (000 §PUNTEGGIO) where the rule set keeps
    # them; columns as wide as what they hold (cli/words/table_text.py).
    from banco.cli.words.table_text import standings_text

    for line in standings_text(
            rows, lambda s: pgettext(*STATUS[s]) if s in STATUS else s):
        click.echo(line)
    if sum(r["status"] == "bankrupt" for r in rows) > 1:  # all at 0: the order is not worth
        click.echo(_("the bankrupt rank by when they went out, the last out first"))
    from banco.cli.words.table_lines import finished_line

    ended = finished_line(session.book, session.game())
    if ended:
        click.echo(ended)


def _refuse_wrong_kind(source: str, db: str) -> None:
    """A database, a compressed export or UTF-16 text named as such (cli/file_kinds.py)."""
    from banco.cli.file_kinds import HEAD, refuse_wrong_kind

    try:
        with open(source, "rb") as f:
            head = f.read(HEAD)
    except OSError:
        return  # the open that reads it says why it cannot
    refuse_wrong_kind(source, head, msg("a banco export"), db)


@click.command("import")
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE")
@click.option("--expect-head", default=None, metavar="HASH",
              help="A head printed earlier (on the score sheet): refuse a history without it.")
@click.option("--seal", "seal_path", default=None, metavar="FILE",
              help="A referee's seal file (`banco seal`): refuse a history without the events "
                   "it sealed, intact.")
@click.option("--pubkey", "pubkey_path", default=None, metavar="FILE",
              help="The referee's public key (`banco keygen`), with --seal.")
@json_option
@pass_session
def import_(session, source, expect_head, seal_path, pubkey_path, as_json):
    """Verify an exported game and add it to this database as a new game (same identity).

    Every line is checked (fields, order, the hash chain, the header's claims), then the audit
    runs over the game as written; everything is written, or nothing.  A tampered file is
    refused naming its line and event (exit 3); a game this database already has is refused
    naming it (exit 2).
    """
    import os
    from itertools import chain

    from banco.projections.audit.rows import check_expected_head
    from banco.projections.exchange.exchange import import_lines

    try:
        check_expected_head(expect_head)
    except ValueError as exc:
        raise UsageError(exc.args[0]) from None  # a Text: said in the user's language
    seal = None
    if seal_path is not None or pubkey_path is not None:
        from banco.cli.referee.sealing import read_seal

        seal = read_seal(seal_path, pubkey_path)
    if source != "-" and not os.path.exists(source):
        raise UsageError("no file {source}",
                         source=source)
    session.create = True  # importing into a new file (another machine) creates it
    fresh = not os.path.exists(session.db)
    store = session.book.store
    name = "<stdin>" if source == "-" else os.path.basename(source)

    def read(f):
        from banco.cli.bounded_input import BoundedLines, parsed_safely

        lines = BoundedLines(f, source=name)  # `import /dev/zero`: one endless line, refused
        with parsed_safely(lines):
            return read_lines(lines)

    def read_lines(f):
        from banco.projections.exchange.tournament_archive import import_archive, is_archive

        first = next(f, "")  # a tournament's archive, or one game's export
        if not is_archive(first):
            from banco.cli.progress import Progress

            # a bar on a terminal, as long as the header announces (never with --json)
            with Progress(_announced(first), "import", quiet=as_json) as bar:
                return import_lines(store, chain([first], f) if first else f, source=name,
                                    now=session.now(), expect_head=expect_head, seal=seal,
                                    progress=bar.step)
        if expect_head is not None or seal is not None:
            raise UsageError("--expect-head and --seal hold one game's export; {source} is a "
                             "tournament's archive", source=source)
        return import_archive(store, first, iter(f), source=name, now=session.now())

    try:
        try:
            if source == "-":
                done = read(sys.stdin)
            else:
                _refuse_wrong_kind(source, session.db)
                # utf-8-sig: an export an editor saved with a byte-order mark reads as written
                # (the chain, not the file's bytes, is what the import checks)
                with open(source, encoding="utf-8-sig", newline="") as f:
                    done = read(f)
        except UnicodeDecodeError as exc:
            # the database itself, a picture, a damaged copy: not what `export` writes
            byte = f"0x{exc.object[exc.start]:02x}"
            raise UsageError("{source} is not UTF-8 text (it holds the byte {byte}), so not a "
                             "banco export: `banco export` writes UTF-8 JSON Lines; nothing "
                             "was imported", source=source, byte=byte) from None
    except BaseException:
        if fresh:  # a refused import into a new file leaves no file behind
            from banco.cli.safe_output import remove_database

            session.close()
            remove_database(session.db)
        raise
    if "tournament" in done:  # an archive: each game as one import, then the tournament
        if as_json:
            dump(done)
            return
        for g in done["games"]:
            click.echo(_("imported {source} as game {game}: {items}; rules {rules}; {events} events, chain intact, audit passed").format(source=source, game=g['game'], items=', '.join(g['players']), rules=_after_rules(g['rules']), events=g['events']))
        # the tournament last: it is made of the games above, as the import made it
        click.echo(_("imported the tournament {name!r} from {source}: {games}, each "
                     "chain intact and audited").format(name=done["tournament"], source=source,
                                                        games=counted("game", len(done["games"]))))
        return
    sealed = done["seal"]
    if as_json:
        dump({**done, "seal": sealed.document() if sealed is not None else None})
        return
    click.echo(_("imported {source} as game {game}: {items}; rules {rules}; {events} events, chain intact, audit passed").format(source=source, game=done['game'], items=', '.join(done['players']), rules=_after_rules(done['rules']), events=done['events']))
    click.echo(_("head {head}").format(head=done['head']))
    if done["uuid"]:
        click.echo(_("identity {uuid} (the same as where it was recorded)").format(uuid=done['uuid']))
    else:
        click.echo(_("recorded before game identities: its rows are hashed with game number {chain_game_id}, kept beside it").format(chain_game_id=done['chain_game_id']))
    at = done["expected_head_at"]
    if at is not None and at < done["events"]:
        click.echo(_("the expected head is event {seq}'s: events 1-{seq} are as they were when it was printed; events {next}-{last} came after it").format(seq=at, next=at + 1, last=done["events"]))
    elif at is not None:  # said, as `audit --expect-head` says it, not left to the silence
        click.echo(_("the expected head {expected} matched: the head at event {seq}, the last: "
                     "the history is as it was when it was printed").format(
                         expected=expect_head.strip(), seq=at))
    if sealed is not None:  # as `audit --seal` says it, the game's number here
        from banco.cli.referee.sealing import print_seal

        print_seal(sealed)
    if not done["ended"]:
        session.use_game(done["game"])  # the shell follows, as it says (as after `new`)
        click.echo(_("the game is not over: commands without --game now address game {game}").format(game=done['game']), err=True)


def _announced(header: str) -> int | None:
    """The events an export's header line announces, or None (the import says what is wrong
    with it)."""
    import json

    try:
        events = json.loads(header).get("events")
    except (ValueError, AttributeError):
        return None
    return events if isinstance(events, int) and not isinstance(events, bool) else None


@click.command()
@click.option("-o", "--output", required=True, metavar="FILE", help="The HTML file to write.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@pass_session
def report(session, output, force):
    """One self-contained HTML page of the game (no network, no script): the final table and
    standings, each player's net worth over the game, the board with owners and buildings,
    and the timeline with rulings, corrections, late claims and undos highlighted, each event
    an anchor (#e57).  The game is audited as the page is drawn: the page says under its head
    whether the history it shows is verified, or where the audit failed (the page is written
    all the same, marked)."""
    from banco.cli.progress import Progress
    from banco.cli.words.i18n import say

    game = session.game()
    # the page and its audit cover the game up to this event, whatever is appended meanwhile;
    # the bar (on a terminal) counts the audit's events and the page's together
    events = session.book.last_seq(game)
    bar = Progress(2 * events, "report", quiet=output == "-")
    try:
        (chars, count), verdict = _report_page(session, game, output, force, bar, events)
    finally:
        bar.__exit__(None, None, None)  # the bar's line ended before what is said next
    # on stderr, as export says it: with `-o -` the page itself is standard output
    click.echo(_("game {game}: report written to {output} ({amount} KiB, {count} events)").format(game=game, output=output, amount=chars // 1024, count=count), err=True)
    if not verdict.ok:  # the page says it at its top; the organiser hears it here too
        click.echo(_("game {game}: FAILED at event {seq}: {problem}").format(
            game=game, seq=verdict.bad_seq, problem=say(verdict.problem)), err=True)
        from banco.ledger.base.errors import EXIT_AUDIT

        sys.exit(EXIT_AUDIT)  # as `audit` would: a script sees the history did not audit clean


def _report_page(session, game: int, output: str, force: bool, bar, events: int):
    """The page (`report`) of events 1..`events`, the game audited first, telling `bar`
    the events done: ((characters, events) written, the audit's verdict)."""
    import tempfile
    from types import SimpleNamespace

    from banco.cli.progress import counted
    from banco.cli.words.facts import describe, local_time
    from banco.cli.words.i18n import language, translations
    from banco.ledger.records.seals import head_line
    from banco.projections.audit.audit_games import audit_game
    from banco.projections.readings.replay import steps, taken_back_by
    from banco.projections.readings.report import AuditVerdict, write_report

    book = session.book
    audited, drawn = bar.part(), bar.part()
    # The organiser hands the page on: it says whether the history it shows audits clean.
    # The game is audited first; a clean one is drawn from the rows checked against the chain,
    # one that fails from the rows as stored (the chain unchecked: that is the problem the
    # verdict names), marked.
    taken = taken_back_by(book.rows_of_type(game, "EventRetracted"))
    written, verdicts = [], []

    def verdict():
        # audited once, when the page is about to be written (an output refused costs no audit)
        if not verdicts:
            verdicts.append(audit_game(book.store, game, progress=audited, last=events))
        return verdicts[0]

    def shown(v) -> AuditVerdict:
        return AuditVerdict(head_line(game, v.events, v.head), v.bad_seq, v.problem)

    def walk(rows):
        # one pass over the rows: the undos come from the type index, and an undo goes back to
        # the table at a seq rather than to rows kept in memory
        return steps(rows, game, taken=taken, refold=lambda seq: book.state(game, at=seq),
                     changes=False)  # the page never shows what a command changed

    def draw(f, read, upto, audit):
        # the timeline waits in a temporary file while the table and chart are gathered: a
        # long game's page is never held whole
        written[:] = write_report(
            f, counted(read(game, 1, upto), SimpleNamespace(step=drawn)), game, describe,
            undone=book.retracted_seqs(game, upto), local_time=local_time,
            tr=translations(), lang=language(),
            spool=lambda: tempfile.TemporaryFile("w+", encoding="utf-8", newline=""),
            walk=walk, audit=audit)

    def write(f):
        v = verdict()
        read, upto = (book.checked, v.events) if v.ok else (book.stream, events)
        draw(f, read, upto, shown(v))

    write_out(output, force, write, session.db)
    return written, verdict()
