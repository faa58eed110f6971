"""A trade's line, `trade A B --give ITEM... --get ITEM... [--lift PROPERTY...]`, read into
its Trade command, for the parser (cli/lines/parse.py): the banker's `trade`, and the trade
the table's server holds, as read, for the players' phones (cli/web/offers.py)."""

from __future__ import annotations

from banco.cli.lines.names import player_name
from banco.cli.lines.vocabulary import english_option_words, english_value, spoken_option
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import is_digits, not_a_number, number_like
from banco.ledger.base.text import msg

JAIL_CARD = "jail-card"
JAIL_CARD_WORD = msg("jail-card")  # said in the banker's language: `carta-prigione` in Italian


def trade_items(state, words: list[str]):
    """`vicolo corto 150 jail-card` into Items.  A property name runs until a number or
    `jail-card`, so names need no quotes.  `jail-card` is one card (`jail card` too); write it
    twice to give both.  A small number just before it (`2 jail-card`) could mean two cards or
    2 M and a card, so it is refused rather than guessed."""
    from banco.ledger.base.names import resolve_all
    from banco.ledger.records.commands import Items

    by_name = {s.name: s.position for s in state.edition.properties}
    props: list[int] = []
    cash = cards = 0
    run: list[str] = []
    amounts: list[str] = []

    def flush():
        props.extend(by_name[n] for n in resolve_all(run, list(by_name), "property"))
        run.clear()

    i = 0
    while i < len(words):
        w = words[i]
        low = english_value(w)  # `carta-prigione` is `jail-card`
        two = " ".join(words[i:i + 2]).lower()
        if number_like(w):
            raise not_a_number(w)
        if w.startswith("-") and is_digits(w[1:]):
            # cash goes one way: what B pays is on B's side (`--get 100`), never a minus
            raise UsageError("{w} is not an amount to give: cash in a trade is a whole amount "
                             "on the side of who pays it (`--give 100` or `--get 100`)", w=w)
        if is_digits(w):
            flush()
            nxt = english_value(words[i + 1]) if i + 1 < len(words) else ""
            if int(w) <= 2 and nxt.startswith("jail"):
                raise UsageError("`{w} {words}`: is that {w} M and a card, or {w} cards? Write `{JAIL_CARD}` once per card (`{JAIL_CARD} {JAIL_CARD}` for two) and put the cash after it",
                                 w=w, words=words[i + 1], JAIL_CARD=JAIL_CARD_WORD)
            if amounts:
                # `--give 10 --give 20`: a slip or a second thought more often than 30 M meant;
                # money is never guessed, so the banker writes the one amount
                raise UsageError("two amounts of cash on one side of the trade, {first} and {second}: write one amount (`{total}` if both are meant)",
                                 first=amounts[0], second=w, total=int(amounts[0]) + int(w))
            amounts.append(w)
            cash += int(w)
            i += 1
        elif low == JAIL_CARD or two == "jail card":
            flush()
            cards += 1
            i += 1 if low == JAIL_CARD else 2
        elif low == "jail-cards" or two == "jail cards":
            raise UsageError("write `{JAIL_CARD}` once per card (`{JAIL_CARD} {JAIL_CARD}` for two)",
                             JAIL_CARD=JAIL_CARD_WORD)
        else:
            run.append(w)
            i += 1
    flush()
    return Items(tuple(props), cash, cards)


def parse_trade(state, words: list[str], language: str | None = None):
    """`A B --give ITEM... --get ITEM... [--lift PROPERTY...]` into a Trade command;
    `language`: the one its mistakes name the options in (`--dai` in Italian)."""
    from banco.ledger.base.names import resolve_all
    from banco.ledger.records.commands import Trade

    if len(words) < 2:
        raise UsageError("trade A B --give ITEM... --get ITEM...  (ITEM: a property, an amount of cash, or {JAIL_CARD})",
                         JAIL_CARD=JAIL_CARD_WORD)
    a = player_name(state, words[0], "in play")
    b = player_name(state, words[1], "other", but=a)
    sections: dict[str, list[str]] = {"--give": [], "--get": [], "--lift": []}
    current, typed = None, None
    for w in english_option_words(words[2:]):
        if w in sections:
            _something_after(current, typed, sections, a, b)
            current, typed, sections[w] = w, spoken_option(w, language or ""), [*sections[w], None]
        elif current is None:
            raise UsageError("{w!r}: say --give or --get before the items",
                             w=w)
        else:
            sections[current].append(w)
    _something_after(current, typed, sections, a, b)
    sections = {k: [w for w in v if w is not None] for k, v in sections.items()}
    by_name = {s.name: s.position for s in state.edition.properties}
    lift = tuple(by_name[n] for n in resolve_all(sections["--lift"], list(by_name), "property"))
    return Trade(a, b, trade_items(state, sections["--give"]),
                 trade_items(state, sections["--get"]), lift)


def _something_after(option, typed, sections, a: str, b: str) -> None:
    """An option of the trade given nothing (`trade Anna Bruno --give`): a usage mistake,
    said with what the option takes, not the rules' `an empty trade`.  None in a section
    marks where an option began (`--give --get 10`)."""
    if option is None or sections[option][-1] is not None:
        return
    if option == "--lift":
        raise UsageError("{option} needs the mortgaged deeds to free", option=typed)
    raise UsageError("{option} needs what {player} gives: a property, an amount of cash or {JAIL_CARD} (`trade {a} {b} --give ITEM... --get ITEM...`)",
                     option=typed, player=a if option == "--give" else b, JAIL_CARD=JAIL_CARD_WORD,
                     a=a, b=b)


def trade(state, typed: str, language: str, words=()):
    return parse_trade(state, list(words), language)
