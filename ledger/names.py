"""Names as a banker types them: any case, any accents, a unique prefix is enough."""

from __future__ import annotations

import difflib
import unicodedata

from .errors import UsageError


def fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().replace("!", "").split())


def resolve(text: str, candidates: list[str], kind: str) -> str:
    """The one candidate `text` names: exact (folded) match first, then a unique prefix."""
    want = fold(text)
    folded = {c: fold(c) for c in candidates}
    exact = [c for c, f in folded.items() if f == want]
    if len(set(exact)) == 1:
        return exact[0]
    starts = sorted({c for c, f in folded.items() if f.startswith(want)}) if want else []
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        raise UsageError(f"{kind} {text!r} is ambiguous: did you mean "
                         f"{' or '.join(repr(s) for s in starts[:6])}?")
    close = difflib.get_close_matches(want, list(folded.values()), n=3, cutoff=0.5)
    back = {f: c for c, f in folded.items()}
    if close:
        hint = " or ".join(repr(back[f]) for f in close)
        raise UsageError(f"no {kind} called {text!r}: did you mean {hint}?")
    raise UsageError(f"no {kind} called {text!r}; known: {', '.join(sorted(set(candidates)))}")
