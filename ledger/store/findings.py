"""What the checks of a store find (ledger/store/health.py, games_health.py, file_checks.py,
postgres_health.py): one Finding each, and the tables a SQLite file has.  Also the findings a
read and a write of one game share (a break of its chain, a log that ends elsewhere than the
games table recorded), kept this low so that schema.py's append and chain.py's reads say one
fact in one message (chain.py imports schema.py)."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from banco.ledger.base.errors import EXIT_AUDIT, BancoError
from banco.ledger.base.text import msg
from banco.ledger.store.protocol import ChainProblem


class Finding(NamedTuple):
    """One thing wrong with the file.  `game` and `seq` name where, when it is one game's."""
    kind: str  # trigger | index | games | tournament | format | log | snapshot | maintenance | tokens
    problem: str  # a Text (ledger/base/text.py): English as a str, said in the user's language
    game: int | None = None
    seq: int | None = None
    repairable: bool = False

    def document(self) -> dict:
        return {"kind": self.kind, "game": self.game, "seq": self.seq, "problem": self.problem,
                "repairable": self.repairable}


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def end_elsewhere(last: int, head: str, logged: int, hash_: str) -> ChainProblem:
    """The log ends at event `logged` (hash `hash_`), elsewhere than the games table recorded
    with the last append (event `last`, head `head`): its tail was rewritten and re-chained,
    or cut.  One finding, said alike by a reading's warning (held_tables.end_not_recorded), a
    write's refusal (schema.index_game) and the phones' document."""
    return ChainProblem(min(last, logged) or logged, msg(
        "ends the log read, but the games table recorded its end at event {last} with the head "
        "{head}... (the log's: event {logged}, {hash}...): the log was rewritten or cut",
        last=last, head=head[:12], logged=logged, hash=hash_[:12]))


class BrokenChain(BancoError):
    """A write onto a game whose log, from where the table was folded (its snapshot, or the
    game's start) to the head the command would follow, does not match its hash chain, or
    ends elsewhere than the games table recorded: a command chained onto it would vouch for
    the forged rows (exit 3, nothing appended)."""

    exit_code = EXIT_AUDIT

    def __init__(self, game_id: int, problem: ChainProblem):
        super().__init__(msg(
            "game {game} event {seq} {problem}, so nothing was recorded (a command chained "
            "after it would vouch for it); `banco audit` says what changed, `banco doctor` "
            "what can be done", game=game_id, seq=problem.seq, problem=problem.problem))
        self.game_id, self.seq = game_id, problem.seq
