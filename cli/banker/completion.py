"""The shell's completion of a command's arguments (cli/banker/shell.py's Tab): names by
prefix in any case or accents, property names of several words, colour groups and their
levels, card numbers (or a card by words of its text), and only what the command could take
now (`mortgage` Tab: the deeds that may be mortgaged; `trade A B --give` Tab: A's deeds), as
the banker's page offers it (projections/readings/estate_pads.py).  An offer, not the verdict:
the rules decide the line."""

from __future__ import annotations

from typing import NamedTuple

from banco.cli.lines.vocabulary import OPTION_ALIASES, WHO_NAMED, naming
from banco.ledger.base.names import fold

# what each word's arguments name, from the one table of words (cli/lines/vocabulary.py)
TAKES_DECK = naming("deck")
TAKES_PROPERTY = naming("property")
TAKES_SPACE = naming("space")  # any of the 40 spaces (a triple of the Speedy die)
TAKES_GROUP = {"build": ["1", "2", "3", "4", "hotel"],  # `build GROUP N`: the levels after it
               "sell": ["0", "1", "2", "3", "4"]}
CARD_NUMBERS = naming("card")  # `card DECK N`: the deck's numbers after it
COMPLETES_WHO = WHO_NAMED  # `claim` Tab: the owners (cli/lines/names.py WHO)
# a trade's sides, in both languages: `--give` (`--dai`) the first player's deeds, `--get` the
# second's
SIDES = {**{o: i for i, o in enumerate(("--give", "--get"))},
         **{it: ("--give", "--get").index(en) for it, en in OPTION_ALIASES.items()
            if en in ("--give", "--get")}}


def complete(st, command: str, text: str, line: str, begidx: int, endidx: int) -> list[str]:
    """The matches for the word being completed (`text`, from `begidx` to `endidx` of `line`)
    of `command` (its English word) at the table `st`."""
    word = line.split(" ", 1)[0]
    before = line[:begidx].split()[1:]  # the words before the one being completed
    if command in CARD_NUMBERS and before:
        if len(before) > 1:
            return []
        if text and not text.isdigit():  # `card imprevisti vai` Tab: a card by its words
            return spaced(_cards_saying(st, before[0], text))
        numbers = _card_numbers(st, before[0])
        return spaced([n for n in numbers if n.startswith(text)])
    fits = fitting(st, command)
    groups = _groups(st) if command in TAKES_GROUP else []
    if groups and len(before) == 1 and fold(before[0]) in map(fold, groups):
        levels = fits.levels.get(fold(before[0]), []) if fits else TAKES_GROUP[command]
        return spaced([n for n in levels if n.startswith(text.lower())])
    if fits is not None:  # only the groups and deeds the command could take now
        groups = [g for g in groups if fold(g) in fits.levels]
    if command in TAKES_PROPERTY or command in ("trade", "deal"):
        names = [sp.name for sp in st.edition.properties]
        if fits is not None:
            names = [n for n in names if n in fits.deeds]
        if command in ("trade", "deal"):  # players, then deeds, word by word
            names += list(st.seats)
    elif command in TAKES_SPACE:
        names = sorted({sp.name for sp in st.edition.spaces})
    elif command in TAKES_DECK:
        # a deck is one word (`card DECK N`): a title of two is offered by its first
        names = [d.title.split()[0] for d in st.edition.decks.values()]
    elif command in COMPLETES_WHO and not before:
        # the players who could (cli/session.py WHO): `claim` Tab offers the owners
        from banco.cli.session import WHO

        names = WHO[COMPLETES_WHO[command]][0](st) or list(st.seats)
    else:
        names = list(st.seats)
    typed = line[len(word):endidx].lstrip()
    given = [i for i, w in enumerate(before) if w in SIDES]
    if command in ("trade", "deal") and given and (
            given[-1] == len(before) - 1 or before[given[-1] + 1] not in st.seats):
        # `--get piazza univ`: a deed's name of several words after the option, one the
        # side giving it holds (`trade A B --give` A's, `--get` B's) when they are named
        names = traded_deeds(st, before, before[given[-1]])
        typed = line[:endidx].rsplit(before[given[-1]], 1)[1].lstrip()
    elif command in TAKES_PROPERTY or command in TAKES_SPACE:
        typed = typed.lstrip("\"'")
    else:
        typed = text  # players and decks are single words
    start = len(typed) - len(text)
    want = fold(typed)
    found = [n[start:] for n in names if fold(n).startswith(want)]
    if not before:  # `build marr`: a colour group is one word
        found = [g for g in groups if fold(g).startswith(fold(text))] + found
    return spaced(found)


class Fits(NamedTuple):
    deeds: set[str]               # the deeds the command could take now
    levels: dict[str, list[str]]  # folded colour group -> the levels `build/sell GROUP N` reach


def fitting(state, command: str) -> Fits | None:
    """What `build`, `sell`, `mortgage` and `unmortgage` could take now, whoever holds it
    (projections/readings/estate_pads.py, as the banker's page offers it), or None for a
    command whose every deed may be typed.  An offer, not the verdict: the rules decide."""
    from banco.projections.readings.estate_pads import estate, one_more

    if command not in ("build", "sell", "mortgage", "unmortgage"):
        return None
    deeds: set[str] = set()
    levels: dict[str, list[str]] = {}
    for pads in estate(state)["players"]:
        if command == "build":  # a house on one street may fit where a whole level does not
            deeds.update(one_more(state, pads["name"]))
        if command in ("build", "sell"):
            for g in pads[command]:
                deeds.update(lot["name"] for lot in g["lots"])
                levels[fold(g["group"])] = [lv["level"] for lv in g["levels"]]
        else:
            deeds.update(d["name"] for d in pads[command])
    return Fits(deeds, levels)


def traded_deeds(state, before: list[str], option: str) -> list[str]:
    """The deeds after `--give` (the first player's) or `--get` (the second's), when the
    players are named; else every deed."""
    from banco.ledger.table.worth import deeds_of

    players = [w for w in before if w in state.seats]
    side = SIDES.get(option, 1)
    if len(players) > side:
        return [state.edition.space(p).name for p in deeds_of(state, players[side])]
    return [sp.name for sp in state.edition.properties]


def _groups(state) -> list[str]:
    """The colour groups that take houses, as `build GROUP N` reads them (one word)."""
    return [g for g, lots in state.edition.groups.items()
            if " " not in g and all(state.edition.space(p).kind == "street" for p in lots)]


def _deck_cards(state, deck: str) -> list:
    """The cards of the deck a word names ([] for a word that names none)."""
    from banco.cli.session import deck_key
    from banco.ledger.base.errors import BancoError

    try:
        return list(state.edition.decks[deck_key(state.edition, deck)].cards)
    except BancoError:
        return []


def _card_numbers(state, deck: str) -> list[str]:
    return [str(c.number) for c in _deck_cards(state, deck)]


def _cards_saying(state, deck: str, words: str) -> list[str]:
    """The numbers of the deck's cards whose text holds `words` (any case or accents): the
    one card's number replaces the words typed; several are listed."""
    wanted = fold(words)
    return [str(c.number) for c in _deck_cards(state, deck) if wanted in fold(c.text)]


def spaced(matches: list[str]) -> list[str]:
    """The one match, with the space that comes after it (`bid br` Tab gives `bid Bruno `, ready
    for the amount), as bash does: Python's readline adds none."""
    return [matches[0] + " "] if len(matches) == 1 else matches


def in_order(matches: list[str]) -> list[str]:
    """The matches as the banker reads them: numbers by their value (card 2 before card 10,
    where readline sorts them as text: 1, 10, 11, 2), words as they are."""
    def key(m: str):
        word = m.strip()
        return (0, int(word), "") if word.isdigit() else (1, 0, fold(word))

    return sorted(matches, key=key)


def listing(matches: list[str], width: int) -> str:
    """The matches in columns across `width`, down each column first, as readline lists them."""
    matches = in_order([m.strip() for m in matches])
    cell = max(len(m) for m in matches) + 2
    columns = max(1, width // cell)
    rows = -(-len(matches) // columns)
    return "\n".join("".join(m.ljust(cell) for m in matches[r::rows]).rstrip()
                     for r in range(rows))

