"""What an import says of a game the database holds already (the same uuid): the same history,
or how the copy stored and the file differ.  A shortened forgery imported first made the
genuine game's import say only "already game N": the organiser could not tell that the copy
kept was not the file's history."""

from __future__ import annotations

import json
from collections.abc import Iterator

from banco.ledger.base.text import Text, msg


def _file_hashes(lines: Iterator[str]) -> Iterator[tuple[int, str]]:
    """(seq, hash) of each event line as the file gives it, until a line that is not one (the
    import itself names such a line; here the comparison stops)."""
    for line in lines:
        try:
            row = json.loads(line)
            seq, hsh = row["seq"], row["hash"]
        except (ValueError, TypeError, KeyError):
            return
        if type(seq) is not int or not isinstance(hsh, str):
            return
        yield seq, hsh


def difference(store, taken: int, lines: Iterator[str], header: dict) -> Text | None:
    """None when game `taken` of `store` is the file's history, event for event (the header's
    head and count, then each hash); else what differs: the stored copy a prefix of the file's
    history, the file a prefix of the stored copy, or where they part."""
    if store.head(taken) == header.get("head") and store.last_seq(taken) == header.get("events"):
        return None
    stored = ((r[1], r[9]) for r in store.raw_rows(taken))
    last_same = 0
    theirs = _file_hashes(lines)
    for (seq, mine), (file_seq, hsh) in zip(stored, theirs, strict=False):
        if seq != file_seq or mine != hsh:
            return msg("a different history: they part at event {seq} (the stored copy's "
                       "hash there is {mine}..., the file's {theirs}...)", seq=seq,
                       mine=mine[:12], theirs=hsh[:12])
        last_same = seq
    kept, told = store.last_seq(taken), header.get("events")
    if last_same == kept and isinstance(told, int) and told > kept:
        return msg("shorter: the stored copy ends at event {kept}, the file goes on to event "
                   "{told}, the same up to there", kept=kept, told=told)
    if isinstance(told, int) and last_same == told and kept > told:
        return msg("longer: the file ends at event {told}, the stored copy goes on to event "
                   "{kept}, the same up to there", told=told, kept=kept)
    return None  # the file could not be read far enough to tell: the import names its line
