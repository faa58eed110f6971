"""`banco`: the click command group.  A thin layer: parse, resolve names, call the book, print."""

from __future__ import annotations

import json
import shlex
import sys

import click

from ledger.errors import BancoError, RuleViolation, UsageError

EPILOG = "Exit codes: 0 done, 1 refused by the rules (nothing appended), 2 usage error."


class Session:
    """One open database and the game the commands address; shared by `shell` and `run`."""

    def __init__(self, db: str, game: int | None, actor: str = "banker"):
        self.db = db
        self.game_option = game
        self.actor = actor
        self._book = None
        self._game = None

    @property
    def book(self):
        if self._book is None:
            from ledger.book import Book

            self._book = Book(self.db)
        return self._book

    def game(self) -> int:
        # Resolved once: a command asks several times (names, then the write), and listing
        # the games reads every game's first event.
        if self._game is None:
            self._game = self.book.current_game(self.game_option)
        return self._game

    def state(self):
        return self.book.state(self.game())

    def now(self) -> str:
        from ledger.canonical import now_text

        return now_text()


class BancoGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BancoError as exc:
            prefix = "refused" if isinstance(exc, RuleViolation) else "error"
            click.echo(f"{prefix}: {exc}", err=True)
            ctx.exit(exc.exit_code)


@click.group(cls=BancoGroup, epilog=EPILOG)
@click.option("--db", envvar="BANCO_DB", default="banco.db", show_default=True,
              help="SQLite file holding the games (env BANCO_DB).")
@click.option("--game", type=int, default=None,
              help="Game number; default: the latest unfinished game.")
@click.version_option("0.1.0", prog_name="banco")
@click.pass_context
def cli(ctx, db, game):
    """banco: the banker's book for a Monopoly table."""
    if not isinstance(ctx.obj, Session):
        ctx.obj = Session(db, game)
    elif game is not None:
        ctx.obj.game_option = game
        ctx.obj._game = None


pass_session = click.make_pass_decorator(Session)


# --- helpers --------------------------------------------------------------------------------

def _player(state, text: str | None) -> str | None:
    if text is None:
        return None
    from ledger.names import resolve

    return resolve(text, list(state.seats), "player")


def _property(state, text: str) -> int:
    from ledger.names import resolve

    by_name = {s.name: s.position for s in state.edition.properties}
    return by_name[resolve(text, list(by_name), "property")]


def _deck(state, text: str) -> str:

    return deck_key(state.edition, text)


def deck_key(edition, text: str) -> str:
    """A deck by its title, any case or accents, unique prefix (`imp`, `probabilita`)."""
    from ledger.names import resolve

    titles = {d.title: k for k, d in edition.decks.items()}
    return titles[resolve(text, list(titles), "deck")]


def _report(session: Session, outcome) -> None:
    from cli.render import narrate

    for e in outcome.events:
        line = narrate(e, outcome.state)
        if line:
            click.echo(line)
    if outcome.refused:
        raise outcome.refused


def _execute(session: Session, command) -> None:
    outcome = session.book.execute(session.game(), command, now=session.now(),
                                   actor=session.actor)
    _report(session, outcome)


player_option = click.option("--player", "-p", default=None,
                             help="Check that it is this player's turn.")


# --- setting up -----------------------------------------------------------------------------

@cli.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--rules", default="classic", show_default=True,
              help="classic, quick, or a TOML file that extends one.")
@click.option("--edition", default="it", show_default=True, help="Board and decks.")
@click.option("--first", default=None, help="Who rolls first (default: the first name).")
@pass_session
def new(session, players, rules, edition, first):
    """Start a game: PLAYERS in seating order."""
    if first is not None:
        from ledger.names import resolve

        first = resolve(first, list(players), "player")
    game = session.book.new_game(list(players), rules=rules, edition=edition, first_player=first,
                                 now=session.now(), actor=session.actor)
    session.game_option = game
    session._game = game
    state = session.book.state(game)
    cur = state.edition.currency
    click.echo(f"game {game}: {', '.join(players)} with {state.rules.starting_cash} {cur} each; "
               f"rules {state.rules.name}, edition {state.edition.name}")
    click.echo(f"{state.turn.player} to roll")


# --- the turn -------------------------------------------------------------------------------

@cli.command()
@click.argument("dice", nargs=-1, type=int, required=True)
@player_option
@pass_session
def roll(session, dice, player):
    """Record the dice: roll D1 D2."""
    from ledger.commands import Roll

    _execute(session, Roll(tuple(dice), _player(session.state(), player)))


@cli.command()
@player_option
@pass_session
def buy(session, player):
    """Buy the property the current player stands on."""
    from ledger.commands import Buy

    _execute(session, Buy(_player(session.state(), player)))


@cli.command()
@player_option
@pass_session
def decline(session, player):
    """Decline the property: it goes to auction at once."""
    from ledger.commands import Decline

    _execute(session, Decline(_player(session.state(), player)))


@cli.command()
@click.argument("bidder")
@click.argument("amount", type=int)
@pass_session
def bid(session, bidder, amount):
    """A bid in the open auction: bid PLAYER AMOUNT."""
    from ledger.commands import Bid

    _execute(session, Bid(_player(session.state(), bidder), amount))


@cli.command()
@click.argument("words", nargs=-1, metavar="[PROPERTY]")
@pass_session
def hammer(session, words):
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice)."""
    from ledger.commands import Hammer

    state = session.state()
    _execute(session, Hammer(_property(state, " ".join(words)) if words else None))


@cli.command()
@click.argument("owner")
@pass_session
def claim(session, owner):
    """The owner asks for rent: claim OWNER."""
    from ledger.commands import Claim

    _execute(session, Claim(_player(session.state(), owner)))


@cli.command()
@click.argument("deck")
@click.argument("number", type=int)
@click.argument("choice", required=False, type=click.Choice(["pay", "draw"]))
@player_option
@pass_session
def card(session, deck, number, choice, player):
    """The card drawn: card DECK N [pay|draw]."""
    from ledger.commands import DrawCard

    state = session.state()
    _execute(session, DrawCard(_deck(state, deck), number, choice, _player(state, player)))


@cli.command("pay-fine")
@player_option
@pass_session
def pay_fine(session, player):
    """Pay the jail fine before rolling."""
    from ledger.commands import PayFine

    _execute(session, PayFine(_player(session.state(), player)))


@cli.command("use-card")
@player_option
@pass_session
def use_card(session, player):
    """Use a get-out-of-jail card before rolling."""
    from ledger.commands import UseCard

    _execute(session, UseCard(_player(session.state(), player)))


@cli.command()
@click.argument("debtor", required=False)
@pass_session
def pay(session, debtor):
    """Settle a debt once the debtor has the cash."""
    from ledger.commands import PayDebt

    _execute(session, PayDebt(_player(session.state(), debtor)))


# --- what players own -----------------------------------------------------------------------

def _next_property(state, words: list[str], i: int) -> tuple[int, int]:
    """The longest run of words from i that names a property, so names need no quotes:
    `via roma corso impero` is two properties.  Returns it and where the next word starts."""
    for j in range(len(words), i, -1):
        try:
            return _property(state, " ".join(words[i:j])), j
        except UsageError:
            if j == i + 1:
                raise
    raise UsageError("name a property")


def _property_and_count(state, words, allow_all: bool):
    """`via roma 2` or `"Via Roma" all`: a property name, unquoted or not, then a count."""
    words = list(words)
    if not words:
        raise UsageError("name a property")
    count, whole = 1, False
    last = words[-1].lower()
    if len(words) > 1 and last.isdigit():
        count = int(words.pop())
    elif len(words) > 1 and last == "all" and allow_all:
        whole = True
        words.pop()
    return _property(state, " ".join(words)), count, whole


property_words = click.argument("words", nargs=-1, required=True, metavar="PROPERTY")


@cli.command()
@property_words
@player_option
@pass_session
def build(session, words, player):
    """build PROPERTY [COUNT]: buy COUNT houses (then a hotel) for PROPERTY, one at a time."""
    from ledger.commands import Build

    state = session.state()
    pos, count, _ = _property_and_count(state, words, allow_all=False)
    _execute(session, Build(pos, count, _player(state, player)))


@cli.command()
@property_words
@player_option
@pass_session
def sell(session, words, player):
    """sell PROPERTY [COUNT|all]: buildings back to the Bank at half price; `all` sells every
    building of the property's colour group at once."""
    from ledger.commands import Sell

    state = session.state()
    pos, count, whole = _property_and_count(state, words, allow_all=True)
    _execute(session, Sell(pos, 0 if whole else count, whole, _player(state, player)))


@cli.command("break-up")
@click.argument("words", nargs=-1, required=True, metavar="PROPERTY...")
@pass_session
def break_up(session, words):
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""
    from ledger.commands import BreakUp

    state = session.state()
    words, lots, i = list(words), [], 0
    while i < len(words):
        pos, i = _next_property(state, words, i)
        lots.append(pos)
    _execute(session, BreakUp(tuple(lots)))


@cli.command()
@property_words
@player_option
@pass_session
def mortgage(session, words, player):
    """Mortgage PROPERTY: the Bank pays its mortgage value."""
    from ledger.commands import Mortgage

    state = session.state()
    _execute(session, Mortgage(_property(state, " ".join(words)), _player(state, player)))


@cli.command()
@property_words
@player_option
@pass_session
def unmortgage(session, words, player):
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""
    from ledger.commands import Unmortgage

    state = session.state()
    _execute(session, Unmortgage(_property(state, " ".join(words)), _player(state, player)))


def parse_trade(state, words: list[str]):
    """`A B --give ITEM... --get ITEM... [--lift PROPERTY...]` into a Trade command."""
    from ledger.commands import Items, Trade

    if len(words) < 2:
        raise UsageError("trade A B --give ITEM... --get ITEM...  (ITEM: a property, an "
                         "amount of cash, or jail-card)")
    a, b = _player(state, words[0]), _player(state, words[1])
    sections = {"--give": [], "--get": [], "--lift": []}
    current = None
    for w in words[2:]:
        if w in sections:
            current = w
        elif current is None:
            raise UsageError(f"{w!r}: say --give or --get before the items")
        else:
            sections[current].append(w)

    def items(words):
        props, cash, cards = [], 0, 0
        i = 0
        while i < len(words):
            w = words[i]
            if w.isdigit():
                cash += int(w)
                i += 1
            elif w.lower() in ("jail-card", "jail", "card"):
                cards += 1
                i += 1
            else:
                pos, i = _next_property(state, words, i)
                props.append(pos)
        return Items(tuple(props), cash, cards)

    return Trade(a, b, items(sections["--give"]), items(sections["--get"]),
                 tuple(_property(state, w) for w in sections["--lift"]))


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
@pass_session
def trade(session, words):
    """A deal between two players: trade A B --give ITEM... --get ITEM... [--lift PROPERTY...].

    --give items go from A to B, --get items from B to A.  An ITEM is a property, a whole
    amount of cash, or `jail-card`.  --lift frees a mortgaged deed received (mortgage + 10%)
    instead of paying only the 10%.
    """
    state = session.state()
    _execute(session, parse_trade(state, list(words)))


@cli.command()
@click.argument("debtor", required=False)
@pass_session
def bankrupt(session, debtor):
    """Declare bankruptcy for a debt that cannot be raised."""
    from ledger.commands import Bankrupt

    _execute(session, Bankrupt(_player(session.state(), debtor)))


@cli.command("auction-building")
@click.argument("kind", type=click.Choice(["house", "hotel"]))
@pass_session
def auction_building(session, kind):
    """Auction a scarce house or hotel when several players want it (004, 000 FAQ 28-30)."""
    from ledger.commands import BuildingAuction

    _execute(session, BuildingAuction(kind))


@cli.command()
@pass_session
def undo(session):
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
    outcome = session.book.undo(session.game(), now=session.now(), actor=session.actor)
    _report(session, outcome)
    click.echo(_turn_line(outcome.state))


def _turn_line(state) -> str:
    from ledger.state import next_step

    return "next: " + next_step(state)


# --- reading --------------------------------------------------------------------------------

json_option = click.option("--json", "as_json", is_flag=True, help="Stable JSON for scripts.")


def _dump(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


@cli.command()
@click.option("--at", type=int, default=None, help="The table as it was after event SEQ.")
@json_option
@pass_session
def state(session, at, as_json):
    """The table: cash, positions, deeds, whose turn, what is pending."""
    from cli.render import state_document, state_text

    st = session.book.state(session.game(), at)
    if as_json:
        _dump(state_document(st))
    else:
        click.echo(state_text(st))
        if at is None:
            click.echo(_turn_line(st))


@cli.command()
@click.option("--tail", type=int, default=None, help="Only the last N events.")
@json_option
@pass_session
def log(session, tail, as_json):
    """The events, in order, with their hashes."""
    from cli.render import narrate
    from ledger.state import retracted_seqs

    game = session.game()
    events = session.book.events(game)
    shown = events[-tail:] if tail else events
    if as_json:
        _dump([{"seq": e["seq"], "type": e["type"], "data": e["data"],
                "recorded_at": e["recorded_at"], "hash": e["hash"]} for e in shown])
        return
    st = session.book.state(game)
    gone = retracted_seqs(events)
    for e in shown:
        line = (narrate(e, st) or "").strip()
        mark = "x" if e["seq"] in gone else " "
        click.echo(f"{e['seq']:>5}{mark} {e['recorded_at'][:19]}  {e['type']:<18} {line}")
    if gone & {e["seq"] for e in shown}:
        click.echo("(x: taken back by a later EventRetracted; kept, never erased)")


@cli.command()
@json_option
@pass_session
def games(session, as_json):
    """The games in this database: number, start, players, rules, whether finished."""
    rows = session.book.store.games()
    doc = [{"game": g["game_id"], "started_at": g["started_at"], "players": g["data"]["players"],
            "rules": g["data"]["rules"]["name"], "edition": g["data"]["edition"],
            "ended": g["ended"]} for g in rows]
    if as_json:
        _dump(doc)
        return
    if not doc:
        click.echo("no games yet: `banco new PLAYER PLAYER ...`")
    for g in doc:
        state = "finished" if g["ended"] else "in progress"
        click.echo(f"{g['game']:>4}  {g['started_at'][:16]}  {g['rules']:<9}{state:<12}"
                   f"{', '.join(g['players'])}")


@cli.command()
@click.argument("account")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="CSV for a spreadsheet.")
@pass_session
def statement(session, account, as_json, as_csv):
    """A bank statement: every transfer of ACCOUNT (a player or `bank`), with running balance."""
    from projections.accounts import statement as build

    game = session.game()
    state = session.book.state(game)
    name = "bank" if account.lower() in ("bank", "banca") else _player(state, account)
    rows = build(session.book.events(game), name)
    if as_json:
        _dump(rows)
    elif as_csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=["seq", "type", "counterparty", "amount",
                                                        "reason", "balance"])
        writer.writeheader()
        writer.writerows(rows)
    else:
        for r in rows:
            click.echo(f"{r['seq']:>5}  {r['amount']:>+7}  {r['balance']:>7}  "
                       f"{r['counterparty']:<10} {r['reason']}")
        if name != "bank":
            click.echo(f"cash now: {state.player(name).cash}")


@cli.command()
@property_words
@json_option
@pass_session
def history(session, words, as_json):
    """The story of one deed: owners, auctions, trades, mortgages, buildings."""
    from projections.accounts import history as build

    game = session.game()
    pos = _property(session.book.state(game), " ".join(words))
    rows = build(session.book.events(game), pos)
    if as_json:
        _dump(rows)
        return
    for r in rows:
        click.echo(f"{r['seq']:>5}  {r['owner'] or 'Bank':<10} {r['note']}")
    if not rows:
        click.echo("nothing has happened to it yet: it is with the Bank")


@cli.command()
@json_option
@pass_session
def standings(session, as_json):
    """Who leads: players in play by net worth, then the bankrupt, last out first."""
    from projections.accounts import standings as build

    rows = build(session.state())
    if as_json:
        _dump(rows)
        return
    for r in rows:
        click.echo(f"{r['rank']:>2}. {r['name']:<12}{r['status']:<10}{r['net_worth']:>7}")


def _edition(session):
    from ledger.edition import load_edition

    try:
        return session.state().edition
    except UsageError:
        return load_edition("it")


@cli.command()
@json_option
@pass_session
def board(session, as_json):
    """The 40 spaces with prices, rents, house costs and mortgage values."""
    from cli.render import board_document

    doc = board_document(_edition(session))
    if as_json:
        _dump(doc)
        return
    for s in doc:
        extra = ""
        if s["price"]:
            extra = f"price {s['price']:>3}  mortgage {s['mortgage']:>3}  rents {s['rents']}"
            if s["house_cost"]:
                extra += f"  house {s['house_cost']}"
        click.echo(f"{s['position']:>2}  {s['name']:<24}{s['kind']:<10}{extra}")


@cli.command()
@click.argument("deck", required=False)
@json_option
@pass_session
def cards(session, deck, as_json):
    """The card decks and what each card does."""
    from cli.render import cards_document

    edition = _edition(session)
    key = deck_key(edition, deck) if deck else None
    doc = cards_document(edition, key)
    if as_json:
        _dump(doc)
        return
    for c in doc:
        click.echo(f"{c['deck']:<12}{c['number']:>3}  {c['text']}")


@cli.command()
@click.option("--expect-head", default=None, metavar="HASH",
              help="A head printed earlier: fail if this history no longer contains it.")
@json_option
@pass_session
def audit(session, expect_head, as_json):
    """Verify the hash chain, every schema and the fold; print the head hash.

    Exit 0 when clean, 3 naming the first bad event otherwise.
    """
    from projections.audit import audit as run_audit

    game = session.game()
    report = run_audit(game, session.book.store.read(game), expect_head)
    if as_json:
        _dump(report.document())
    elif report.ok:
        click.echo(f"game {game}: {report.events} events, chain intact, schemas valid, "
                   f"books balance\nhead {report.head}")
    else:
        click.echo(f"game {game}: FAILED at event {report.bad_seq}: {report.problem}")
    if not report.ok:
        sys.exit(3)


# --- many lines -----------------------------------------------------------------------------

def execute_line(session: Session, line: str) -> int:
    """Run one transcript/shell line; return its exit code.  `#` starts a comment."""
    try:
        args = shlex.split(line, comments=True)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    if not args:
        return 0
    if args[0] in ("shell", "run"):
        click.echo(f"error: `{args[0]}` cannot be nested", err=True)
        return 2
    try:
        result = cli.main(args=args, prog_name="banco", standalone_mode=False, obj=session)
    except click.exceptions.UsageError as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        return 1
    except SystemExit as exc:
        return int(exc.code or 0)
    return result if isinstance(result, int) else 0


@cli.command()
@click.argument("transcript", type=click.File("r", encoding="utf-8"))
@click.option("--quiet", "-q", is_flag=True, help="Only report the end or the refused line.")
@pass_session
def run(session, transcript, quiet):
    """Run a transcript of banco lines; stop at the first refused one.

    A line starting with `!` is expected to be refused (a late claim, say): its refusal is
    recorded and the run goes on; if it is accepted instead, the run stops.
    """
    import contextlib
    import io

    done = 0
    for number, raw in enumerate(transcript, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        expect_refusal = line.startswith("!")
        if expect_refusal:
            line = line[1:].strip()
        if not quiet:
            click.echo(f"> {line}")
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
            code = execute_line(session, line)
        if expect_refusal and code == 1:
            done += 1
            continue
        if code != 0 or expect_refusal:
            what = "was accepted but was expected to be refused" if expect_refusal else "was refused"
            click.echo(f"{transcript.name}:{number}: `{line}` {what}; stopped after "
                       f"{done} line(s)", err=True)
            sys.exit(1 if code in (0, 1) else code)
        done += 1
    click.echo(f"{transcript.name}: {done} line(s) done")


@cli.command()
@pass_session
def shell(session):
    """An interactive prompt: the same words without `banco`, with name completion."""
    from cli.shell import BancoShell

    BancoShell(session).cmdloop()


def main() -> None:
    cli(prog_name="banco")


if __name__ == "__main__":
    main()
