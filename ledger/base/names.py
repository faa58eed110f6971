"""Names as a banker types them: any case, any accents, a unique prefix is enough.

The same rules hold for every kind of name (players, properties, decks, colour groups): an
exact name wins over a prefix (`Anna` is Anna even beside Annalisa), a unique prefix names its
candidate, an ambiguous prefix lists the candidates, and a misspelt name gets a suggestion.
"""

from __future__ import annotations

import unicodedata

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Joined, Text, either, msg

SHOWN = 8  # candidates listed in an "ambiguous" message before "and N more"

# The kinds of name, as the messages say them (in the user's language at the edge).
KINDS = {"player": msg("player"), "property": msg("property"), "space": msg("space"),
         "deck": msg("deck"), "event type": msg("event type"),
         "tournament": msg("tournament"), "colour group": msg("colour group")}


class UnknownName(UsageError):
    """A name that names no candidate, or several.  `suggestions` are what the banker may have
    meant (close spellings, or the candidates of an ambiguous prefix)."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = (), ambiguous: bool = False,
                 closeness: float = 0.0, **params):
        super().__init__(message, **params)
        self.suggestions = suggestions
        self.ambiguous = ambiguous
        self.closeness = closeness  # how close the best suggestion's spelling is, 0..1


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().replace("!", "").split())


def _listing(names: list[str]) -> Text:
    shown = either([repr(n) for n in names[:SHOWN]])  # 'a', 'b' or 'c', not 'a' or 'b' or 'c'
    more = len(names) - SHOWN
    return Joined([shown, msg(" (and {n} more)", n=more)], "") if more > 0 else shown


def hidden_character(text: str) -> str | None:
    """The first character of `text` that prints as nothing or as something else (a control or
    format character, a private-use or unassigned code point, a surrogate), or None."""
    return next((ch for ch in text if unicodedata.category(ch).startswith("C")), None)


def code_point(ch: str) -> str:
    return "U+" + format(ord(ch), "04X")


def shown(text: str, limit: int = 40) -> str:
    """What a message echoes of a word the banker typed: a pasted paragraph or a stuck key
    (`claim AAAA...`, ten thousand of them) is cut, not printed back whole."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def resolve(text: str, candidates: list[str], kind: str) -> str:
    """The one candidate `text` names: an exact (folded) match first, then a unique prefix."""
    want = fold(text)
    folded = {c: fold(c) for c in candidates}
    exact = sorted({c for c, f in folded.items() if f == want})
    if len(exact) == 1:
        return exact[0]
    starts = sorted({c for c, f in folded.items() if f.startswith(want)}) if want else []
    if len(exact) > 1:  # two candidates that fold alike: only the exact spelling can tell them
        same = [c for c in exact if c == text]
        if len(same) == 1:
            return same[0]
        starts = exact
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise UnknownName("{kind} {text!r} is ambiguous: did you mean {options}?",
                          tuple(starts), ambiguous=True, kind=KINDS.get(kind, kind),
                          text=shown(text),
                          options=_listing(starts))
    import difflib  # a misspelt name only: a cold command that names things right spares it

    back = {f: c for c, f in folded.items()}
    close = difflib.get_close_matches(want, list(back), n=3, cutoff=0.5)
    if not close and want:
        # the start of a long name misspelt (`parcco` for Parco della Vittoria): its first
        # letters, as long as what was typed, are close
        starts = {f[:len(want)]: f for f in back}
        close = [starts[s] for s in difflib.get_close_matches(want, list(starts), n=3,
                                                               cutoff=0.75)]
    odd = _odd_letter(text, folded.values())
    if close:
        hint = [back[f] for f in close]
        score = difflib.SequenceMatcher(None, want, close[0]).ratio()
        raise UnknownName("no {kind} called {text!r}{odd}: did you mean {options}?",
                          tuple(hint), closeness=score, kind=KINDS.get(kind, kind),
                          text=shown(text), odd=odd,
                          options=_listing(hint))
    known = sorted(set(candidates))
    if kind in ("property", "space") and len(known) > 2 * SHOWN:  # not 28 names in a line
        raise UnknownName("no {kind} called {text!r}; `board` lists them",
                          kind=KINDS.get(kind, kind), text=shown(text))
    raise UnknownName("no {kind} called {text!r}{odd}; known: {known}",
                      kind=KINDS.get(kind, kind), text=shown(text), odd=odd,
                      known=", ".join(known))


def _odd_letter(text: str, folded_names) -> Text | str:
    """`claim Аnna` with a Cyrillic А prints as Anna: the character no name has that made
    the name another, said by its code point as a command word's is (cli/main.py); accents
    fold away (`Annà` is Anna) and a letter a name has is no odd one.  "" if none."""
    letters = set("".join(folded_names))
    odd = next((ch for ch in text if not fold(ch).isascii() and not set(fold(ch)) <= letters),
               None)
    if odd is None:
        return ""
    return msg(" (its {char!r} is {code}, a letter none of the names has)", char=odd,
               code=code_point(odd))


def space_or_deeds(text: str, space: str, deeds: list[str]) -> UnknownName:
    """`mortgage via`: `text` names a space that is no deed (Via!) and begins, as whole words,
    the names of deeds (Via Roma, Via Verdi; not Viale Traiano): the deeds are offered, as an
    ambiguous prefix's candidates are, with a word for the space it also names.  With no such
    deed, or the space's name typed in full (`Via!`): the space is no deed."""
    want = fold(text)
    starts = sorted(d for d in deeds if fold(d).startswith(want + " ")) if want else []
    if not starts or text.strip().casefold() == space.casefold():
        return UnknownName("{name} is a space of the board, not a deed: name a property "
                           "(`board` lists them)", name=space)
    return UnknownName("{text!r} names {name}, a space of the board, not a deed: did you mean "
                       "{options}?", tuple(starts), ambiguous=True, text=shown(text),
                       name=space, options=_listing(starts))


def resolve_likely(text: str, candidates: list[str], kind: str, likely: list[str],
                   who: Text) -> str:
    """resolve(), but a name that names nobody is matched only against `likely` (those who
    could do what the command asks: `claim ana` suggests the players who own a deed, not one
    who owns nothing), and the message says who they are (`who`, a phrase)."""
    try:
        return resolve(text, candidates, kind)
    except UnknownName as exc:
        likely = [c for c in likely if c in candidates]
        if exc.ambiguous or not likely or set(likely) == set(candidates):
            raise
        import difflib

        folded = {fold(c): c for c in likely}
        close = difflib.get_close_matches(fold(text), list(folded), n=3, cutoff=0.5)
        odd = _odd_letter(text, (fold(c) for c in candidates))
        if close:
            hint = [folded[f] for f in close]
            raise UnknownName("no {kind} called {text!r}{odd}: of {who}, did you mean "
                              "{options}?", tuple(hint), kind=KINDS.get(kind, kind),
                              text=shown(text), odd=odd, who=who,
                              options=_listing(hint)) from None
        raise UnknownName("no {kind} called {text!r}{odd}; {who}: {known}",
                          kind=KINDS.get(kind, kind), text=shown(text), odd=odd, who=who,
                          known=", ".join(likely)) from None


def resolve_run(words: list[str], start: int, candidates: list[str], kind: str) -> tuple[str, int]:
    """The longest run of words from `start` that names a candidate, so multi-word names need
    no quotes (`via roma corso impero` is two properties).  Returns the name and the index of
    the word after it.

    When no run names anything, the error is the one of the run with the closest suggestion
    (`viale monterossa` -> did you mean 'Viale Monterosa'), rather than the first word's
    (`viale` is ambiguous), which would hide the better hint."""
    if start >= len(words):
        raise UsageError("name a {kind}",
                         kind=kind)
    best: UnknownName | None = None
    for end in range(len(words), start, -1):
        try:
            return resolve(" ".join(words[start:end]), candidates, kind), end
        except UnknownName as exc:
            if exc.closeness > (best.closeness if best else 0.0):
                best = exc
            last = exc
    raise best or last


def resolve_all(words: list[str], candidates: list[str], kind: str) -> list[str]:
    """Every name in a list of words, multi-word names unquoted: `bastioni gran sasso via roma`."""
    out, i = [], 0
    while i < len(words):
        name, i = resolve_run(words, i, candidates, kind)
        out.append(name)
    return out
