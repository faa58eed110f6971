"""`statement`, `history` and `log --player` from the read model (ledger/table/read_rows.py)
when the game has one reaching its end, from the log otherwise: the same rows either way, but
the read model's cost follows the answer's length, not the game's (issue 21).

The read model is a cache: an answer from it is not checked against the chain as a pass over
the log is (`banco audit` does that; `banco doctor` checks the read model against the log),
but a statement and a history are held to the table before they are shown (its cash, the
deed's owner), and read from the log where they disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from banco.ledger.records.upcast import kept_reason
from banco.projections.readings.accounts import deed_held, history, seen_by, statement


def statement_rows(book, game: int, account: str) -> Iterator[dict]:
    """accounts.statement's rows for `account`, from the money movements kept beside the log."""
    moves = book.movements(game, account)
    gone = book.retracted_seqs(game)
    if moves is None:
        return statement(book.checked(game), account, gone)
    return _statement(moves, account, gone)


def checked_statement(book, game: int, account: str, expected: int
                      ) -> tuple[list[dict], int | None]:
    """`statement_rows`, checked against the balance the table gives `account` (`expected`)
    before anything is shown: where the read model's rows end elsewhere, the rows are read
    from the log instead (chain-checked), so an edited read model never prints its figures as
    the account's.  The second item: the balance the read model's rows ended at when they
    disagreed with the log's, else None.  The check costs the answer's length only; a whole
    comparison with the log is `doctor`'s and `audit`'s."""
    store = book.store
    moves = store.movements(game, account)
    gone = book.retracted_seqs(game)
    if moves is None:
        return list(statement(book.checked(game), account, gone)), None
    rows = list(_statement(moves, account, gone))
    kept = rows[-1]["balance"] if rows else 0
    if kept == expected:
        return rows, None
    logged = list(statement(book.checked(game), account, gone))
    # the log agreeing with the read model: the table's side was edited (said by the caller)
    return logged, (kept if (logged[-1]["balance"] if logged else 0) != kept else None)


def _statement(moves: list[tuple], account: str, gone: set[int]) -> Iterator[dict]:
    balance = 0
    for seq, _n, payer, payee, amount, reason, type_ in moves:
        if seq in gone or payer == payee:
            continue
        incoming = payee == account
        amount = amount if incoming else -amount
        balance += amount
        other = payer if incoming else payee
        yield {"seq": seq, "type": type_, "counterparty": other, "amount": amount,
               "reason": seen_by(kept_reason(type_, reason), account, other), "balance": balance}


def checked_history(book, game: int, position: int, table) -> tuple[list[dict], bool]:
    """accounts.history's rows for a deed, from the events the read model says name it,
    checked as `checked_statement`'s are: against what the table gives the deed (its owner,
    mortgage and buildings: what a history shows) before anything is shown.  Where the read
    model's events end elsewhere (a mention row edited, deleted or moved: a lost mortgage
    leaves the owner as it was), the rows are read from the log instead (chain-checked), so
    an edited read model never prints its story as the deed's.  The second item: whether
    the read model's rows disagreed with the log's (False when the log agrees with them:
    the table's side was edited, said elsewhere)."""
    edition = table.edition
    named = book.mentioning(game, [f"d:{position}"])
    gone = book.retracted_seqs(game)
    if named is None:
        return list(history(book.checked(game), position, gone, edition)), False
    named = list(named)  # the deed's events, read twice: a few, whatever the game's length
    held = (table.owners[position], position in table.mortgaged, table.buildings[position])
    if deed_held(named, position, gone) == held:
        return list(history(named, position, gone, edition)), False
    rows = list(history(named, position, gone, edition))
    logged = list(history(book.checked(game), position, gone, edition))
    return logged, logged != rows


def player_events(book, game: int, players: Iterable[str], bank: bool, first: int,
                  last: int) -> Iterator[dict]:
    """Events first..last that may concern these players (or the Bank's money): a superset,
    in seq order, which `log` filters as it filters the whole log."""
    subjects = [f"p:{p}" for p in sorted(players)] + (["bank"] if bank else [])
    rows = book.mentioning(game, subjects, first - 1, last) if subjects else None
    return book.stream(game, first, last) if rows is None else rows


def last_player_events(book, game: int, players: Iterable[str], bank: bool, first: int,
                       last: int, count: int, keep: Callable[[dict], bool]) -> list[dict] | None:
    """The last `count` events first..last that may concern these players and that `keep`
    keeps, in seq order, read from the end a window of seqs at a time (each twice as wide as
    the one before): `log --player Anna --tail 20` reads about the rows it shows, not every
    row that names Anna in a long game.  None when the read model does not reach the game's
    end (`log` then filters the log, as it does without --tail)."""
    subjects = [f"p:{p}" for p in sorted(players)] + (["bank"] if bank else [])
    found: list[dict] = []
    upto, width = last, max(64, 4 * count)
    while upto >= first and len(found) < count and subjects:
        after = max(first - 1, upto - width)
        rows = book.mentioning(game, subjects, after, upto)
        if rows is None:
            return None
        found[:0] = [e for e in rows if keep(e)]
        upto, width = after, width * 2
    return found[-count:] if count else []
