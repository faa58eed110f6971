"""Names as the banker types them, resolved against the table: a player (`an` is Anna), a
property, any of the 40 spaces, a deck.  Pure: no click, no printing; the parser
(cli/lines/parse.py) and the click commands read them alike."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import msg


def player_name(state, text: str | None, who: str | None = None, but: str | None = None
                ) -> str | None:
    """The player `text` names.  With `who`, a misspelt name is matched against the players
    who could do what the command asks (WHO[who]: the players in play, the owners for a rent
    claim, the bidders in an auction...), other than `but` (a trade's first player)."""
    if text is None:
        return None
    from banco.ledger.base.names import resolve, resolve_likely

    if who is None:
        return resolve(text, list(state.seats), "player")
    find, phrase = WHO[who]
    likely = [p for p in find(state) if p != but]
    return resolve_likely(text, list(state.seats), "player", likely, phrase)


def _in_play(state) -> list[str]:
    return state.active()


def _owners(state) -> list[str]:
    owners = set(state.owners)
    return [p for p in state.active() if p in owners]


def _bidders(state) -> list[str]:
    a = state.auction
    out = set(a.excluded) | {a.seller} if a is not None else set()
    return [p for p in state.active() if p not in out]


def _debtors(state) -> list[str]:
    debtors = {d.debtor for d in state.debts}
    return [p for p in state.active() if p in debtors]


# who could do what a command asks, and the phrase that says who they are
WHO = {"in play": (_in_play, msg("the players in play")),
       "owner": (_owners, msg("the players who own a deed")),
       "bidder": (_bidders, msg("the players who may bid")),
       "debtor": (_debtors, msg("the players in debt")),
       "other": (_in_play, msg("the other players in play"))}


def property_position(state, text: str) -> int:
    from banco.ledger.base.names import fold, resolve, space_or_deeds

    by_name = {s.name: s.position for s in state.edition.properties}
    other = next((s for s in state.edition.spaces if fold(s.name) == fold(text)
                  and s.name not in by_name), None)
    if other is not None:  # `history Via!`: a space, not a deed (it said "ambiguous"), and
        # `mortgage via`: the deeds whose name it begins (Via Roma, ...) are offered
        raise space_or_deeds(text, other.name, list(by_name))
    return by_name[resolve(text, list(by_name), "property")]


def space_position(state, text: str) -> int:
    """Any of the 40 spaces, by number (0-39) or by name; a name on several spaces
    (Imprevisti, Probabilità) asks for the number."""
    from banco.ledger.base.names import resolve
    from banco.ledger.base.numbers import is_digits, not_a_number, number_like

    if number_like(text.strip()):
        raise not_a_number(text.strip())
    if is_digits(text.strip()):
        number = int(text)
        if not 0 <= number < 40:
            raise UsageError("the board's spaces are 0 to 39, not {number}",
                             number=number)
        return number
    spaces = state.edition.spaces
    name = resolve(text, sorted({s.name for s in spaces}), "space")
    at = [s.position for s in spaces if s.name == name]
    if len(at) > 1:
        numbers = [str(n) for n in at]
        raise UsageError("{name} is on {count} spaces: say which by number, {items} or {numbers}",
                         name=name, count=len(at), items=', '.join(numbers[:-1]),
                         numbers=numbers[-1])
    return at[0]


# The two classic decks by their names in the other language: a banker with an English box at
# an Italian board (or the reverse) says `card chance 3`.  Only where the edition has the deck.
DECK_NAMES = {"Chance": "Imprevisti", "Community Chest": "Probabilità",
              "Imprevisti": "Chance", "Probabilità": "Community Chest"}


def deck_key(edition, text: str) -> str:
    """A deck by its title, any case or accents, unique prefix (`imp`, `probabilita`), or by
    the classic deck's name in the other language (`chance` on the Italian board)."""
    from banco.ledger.base.names import UnknownName, resolve

    titles = {d.title: k for k, d in edition.decks.items()}
    try:
        return titles[resolve(text, list(titles), "deck")]
    except UnknownName:
        other = {name: title for name, title in DECK_NAMES.items() if title in titles}
        try:
            return titles[other[resolve(text, list(other), "deck")]]
        except UnknownName:
            pass
        raise


def next_property(state, words: list[str], i: int) -> tuple[int, int]:
    """The longest run of words from i that names a property, so names need no quotes:
    `via roma corso impero` is two properties.  Returns it and where the next word starts."""
    from banco.ledger.base.names import resolve_run

    by_name = {s.name: s.position for s in state.edition.properties}
    name, j = resolve_run(words, i, list(by_name), "property")
    return by_name[name], j


def said(words: list[str]) -> str:
    """Words as a line to type: a name with a space between quotes (`'Via Verdi'`)."""
    return " ".join(quoted(w) for w in words)


def quoted(word: str) -> str:
    if word and all(c.isalnum() or c in "-_.,=+:/@%" for c in word):
        return word
    if "'" in word and '"' not in word:
        return f'"{word}"'  # `"Piazza dell'Orologio"`, not shlex's '"'"'
    import shlex

    return shlex.quote(word)
