"""What banco asks of an event store, whatever keeps the rows (SQLite today; ledger/store/sqlite.py).

The book, the readings and the import type against `EventStore`, not against one database, so
that another store (PostgreSQL) is a class with these methods and a fixture in
tests/test_store_behaviour.py, whose behaviours (tests/store_suite.py) every store must pass.

What every store guarantees:

- append-only: a row once written is never changed nor removed, and the database itself
  refuses an UPDATE or DELETE of the log (triggers), not only banco's code;
- one transaction per command: `append` writes all of a command's rows or none;
- optimistic concurrency: `append` names the seq the command was decided on; when the game
  has moved on meanwhile, ConflictError and nothing written;
- idempotency: a command id already recorded returns the rows it recorded then, `replayed`,
  and writes nothing (a retry after a lost answer is safe);
- the hash chain: each row carries the hash of the row before it (prev_hash) and its own
  (ledger/store/canonical.py); `read` verifies it as it reads, given where to start;
- seqs of a game are 1, 2, 3 ... with no gap, whatever the number of writers;
- the read model (issue 21): `append(read_model=)`'s rows are kept in the same transaction,
  for a game whose rows already reach the seq the command was decided on (or a new game);
  `movements` and `mentioning` answer None for a game whose rows do not reach its last seq
  (recorded before them, imported), and the reading then reads the log.  A cache like the
  snapshots: never evidence, rebuilt by `put_read_model` (doctor).

Rows are dicts: game_id, seq, type, data, recorded_at, actor, command_id, schema_version,
prev_hash, hash, chain_version (and chain_game_id for an imported game's version-1 rows).

What is here and what is not: a reading that `read` answers by the key or the type index at
the same cost is a function over it, written once (ledger/store/reading.py: a row's hash, the
seqs undone, the times, a game's rows on demand, its first fact, its last command).  A store
keeps what `read` cannot say as cheaply: the last seq and head (the end of a game, one index
step), the rows of a command id and the commands before a seq (an index and an aggregate: ten
times `read`'s cost on a 300,000-event game), and the read model's lookups by subject.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol


class NewEvent(NamedTuple):
    """A fact to append: the store gives it its seq, hashes and the command's stamp."""
    type: str
    data: dict
    schema_version: int = 1


class ChainProblem(NamedTuple):
    seq: int
    problem: str  # read's (checked): a message (ledger/base/text.py), said in the user's language


class Appended(list):
    """The rows of one command (a list of event dicts), with the game they went to and whether
    they were already there (an idempotent retry: nothing was written)."""

    def __init__(self, rows: Iterable[dict], game_id: int, replayed: bool = False):
        super().__init__(rows)
        self.game_id = game_id
        self.replayed = replayed


class Rows(list):
    """Rows read (event dicts); when they were read against the chain (`read`'s `prev_hash`),
    its first break among them in `problem` (None: none, or not checked)."""

    def __init__(self, rows: Iterable[dict] = (), problem: ChainProblem | None = None):
        super().__init__(rows)
        self.problem = problem


class Snapshot(NamedTuple):
    """A folded table kept beside the log (a cache, never evidence): trusted only while the
    log's event `seq` has the hash `head` and `digest` binds the text to that head
    (ledger/store/snapshot_binding.py; None: a row from before digests, never trusted)."""
    seq: int
    head: str
    format: str
    state: str
    digest: str | None = None


class ReadRows(NamedTuple):
    """The read model's rows of some events (ledger/table/read_rows.py says what they are)."""
    movements: list[tuple]  # (seq, n, payer, payee, amount, reason, type)
    mentions: list[tuple]  # (subject, seq)


class StoreHealth(NamedTuple):
    """What a store holds beside the games' chains, checked (ledger/store/health.py): the
    audit's and doctor's look at the database itself."""
    findings: list  # ledger/store/health.py Finding each: guards, games table, tournaments ...
    maintenance: list[dict]  # what `doctor --repair` did: {id, at, what, why}, in order
    missing_triggers: list[str]  # the guards of the log that are missing (or switched off)
    missing_indexes: list[str]
    not_checked: list  # Text each: a check this store has not (said by doctor, not a problem)
    known: tuple[int, int] = (0, 0)  # how many triggers and indexes the store keeps


class GameImportWriter(Protocol):
    """One imported game written whole in one transaction (EventStore.begin_import)."""

    game_id: int

    def insert(self, rows: list[tuple]) -> None:
        """Rows as (seq, type, data text, recorded_at, actor, command_id, schema_version,
        prev_hash, hash, chain_version), as the exporting file hashed them."""

    def rows(self, hashed_as: int | None = None) -> Sequence[dict]:
        """The rows inserted so far, read back inside the transaction."""

    def raw_rows(self, hashed_as: int | None = None) -> Iterable[tuple]:
        """The rows inserted so far as stored, read back inside the transaction (the audit)."""

    def finish(self, game: dict, meta: dict[str, str],
               snapshots: Iterable[tuple[int, str, str, str]] = (),
               made_at: str | None = None, commit: bool = True) -> None:
        """Index the game and commit (or keep the transaction open for the next, `commit`
        False)."""

    def abort(self) -> None:
        """Nothing of the transaction is kept."""


class StoreChecks(Protocol):
    """What audit, seal, doctor, `games` and backup ask of a store beyond what a command
    needs (EventStore.checks(): one object per engine, ledger/store/sqlite_checks.py and
    postgres_health.py): the log as the referee holds it, the store's health, its copy."""

    def logged_games(self) -> list[int]:
        """Every game the log holds rows of, in order, whatever the games table says (a game
        the table lost is still audited)."""

    def hashes(self, game_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        """(seq, hash) of the game's rows up to seq `upto`, in seq order, as stored."""

    def hash_prefix(self, prefix: str) -> list[tuple[int, int]]:
        """(game, seq) of every row whose hash begins with `prefix` (lowercase hex), by game
        and seq: which event a head line's digits name."""

    def games_row_findings(self) -> list:
        """The games table's rows held to their logs, as doctor holds them (health.Finding
        each, kind "games"): what `banco games` warns of."""

    def health(self, *, tournaments: bool = True, file: bool = False) -> StoreHealth:
        """The store beside the games' chains (StoreHealth); `tournaments`: their chains too;
        `file`: what doctor adds about the file itself (SQLite's text bytes, its WAL)."""

    def missing_guards(self) -> list[str]:
        """The log's triggers that refuse an UPDATE or a DELETE of a recorded row (and in
        PostgreSQL a TRUNCATE) which are missing or switched off: what a write warns of."""

    def engine_check(self) -> str | None:
        """What the database engine says of its own pages, checked whole: None when sound (or
        when the engine checks them itself: PostgreSQL), else its words (SQLite's quick_check,
        its first lines): doctor's first look."""

    def refuse_damaged(self, whole: bool = False) -> None:
        """DatabaseError (exit 4) when the database engine finds its own pages damaged
        (SQLite's quick_check, once per store; `whole`: the log's pages too); nothing for an
        engine that checks its pages itself (PostgreSQL)."""

    def worker_path(self) -> str | None:
        """The file a worker process may open by itself to audit some of this store's games on
        another core (projections/audit/audit_games.py), or None: each game audited here."""

    def repair(self, *, now: Callable[[], str], why: str,
               snapshots: Iterable[tuple[int, int, str]] = ()) -> list | None:
        """doctor --repair: what the store's own checks found put right (guards, indexes,
        the games table's rows, then these snapshots (game, seq, problem) deleted), recorded
        with the time `now()` and `why`; what was done, or None where that is not banco's
        to do (PostgreSQL: the database's owner's)."""

    def backup(self, target: str) -> None:
        """A consistent copy of the whole store into `target`."""


class EventStore(Protocol):
    """The operations the rest of banco needs of a store (see the module's guarantees)."""

    path: str
    shown: str  # the store as the user is told of it (a URL without its password)
    format: int  # the file's format; 0 for a store with nothing in it yet

    # --- appending ------------------------------------------------------------------------

    def append(self, game_id: int | None, expected_seq: int, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str,
               snapshot: Callable[[list[dict]], tuple[str, str, str] | None] | None = None,
               read_model: Callable[[list[dict]], ReadRows] | None = None) -> Appended:
        """One command's events in one transaction, after seq `expected_seq` (ConflictError
        when the game's last seq is another: nothing written).  `game_id` None: a new game,
        numbered inside the write lock.  `command_id` already recorded: its rows, replayed,
        nothing written.  `snapshot(rows)`, given the rows before they are hashed: (format,
        text, table digest) kept in the same transaction, the digest in the last row's hash
        (ledger/store/chain.py chain_rows);
        `read_model(rows)`: the read model's rows for them, kept in it too."""

    # --- reading --------------------------------------------------------------------------

    def read(self, game_id: int, after: int = 0, upto: int | None = None, *,
             types: Iterable[str] | None = None, limit: int | None = None,
             prev_hash: str | None = None, columns: Iterable[str] | None = None) -> Rows:
        """Rows with after < seq <= upto (of these `types`; at most `limit`), in seq order, as
        stored.  `prev_hash` (the hash of row `after`; never with `types`): each row checked
        against the chain as it is read, the first break in the answer's `problem`.
        `columns` (some of schema.py's FORMAT1_COLUMNS; never with `prev_hash`): tuples of
        those alone, as stored, for a reading that needs no more of a long game's rows.  A
        game's first fact, its rows newest first, its last command, a row's hash, the seqs its
        undos took back, its times: ledger/store/reading.py."""

    def last_seq(self, game_id: int) -> int:
        """The game's last seq; 0 for no rows."""

    def head(self, game_id: int) -> str:
        """The hash of the game's last row; GENESIS for no rows."""

    def data_version(self) -> int | None:
        """A number that changes whenever another connection has written to the store since
        this one last asked (SQLite's PRAGMA data_version), so that a book holding a table may
        skip reading its rows again when nothing else wrote; None when the store cannot tell
        (then they are read again)."""

    def command_events(self, game_id: int, command_id: str) -> list[dict]:
        """The rows a command recorded in a game, or []."""

    def commands_before(self, game_id: int, seq: int) -> int:
        """How many commands were recorded before event `seq`: counted by the database (by
        `read`'s command ids, ten times slower on a 300,000-event game)."""

    # --- snapshots ------------------------------------------------------------------------

    def snapshots(self, game_id: int) -> list[Snapshot]:
        """The game's snapshots, newest first (the nearest before a seq is the first whose
        seq is not after it), each with the digest recorded with it (never recomputed on
        reading: the reader checks it, ledger/store/snapshot_binding.py).  A store keeps them
        only with what it writes (`append`'s `snapshot`, the import's `finish`)."""

    # --- the read model ---------------------------------------------------------------------

    def movements(self, game_id: int, account: str) -> list[tuple] | None:
        """(seq, n, payer, payee, amount, reason, type) of the movements in or out of
        `account`, in order; None when the game's read model does not reach its last seq."""

    def mentioning(self, game_id: int, subjects: list[str], after: int = 0,
                   upto: int | None = None) -> Iterator[dict] | None:
        """The rows (after < seq <= upto) whose read-model mentions include any of
        `subjects`, in seq order, read as needed; None as for `movements`."""

    def read_model_rows(self, game_id: int, after: int, upto: int) -> ReadRows | None:
        """The read model's rows kept for seqs after < seq <= upto (movements by seq and n,
        mentions by seq and subject); None when the game has none."""

    def put_read_model(self, game_id: int, chunks: Iterable[ReadRows], through: int) -> None:
        """Replace the game's read model with these rows, covering it up to `through`, in one
        transaction."""

    # --- games ----------------------------------------------------------------------------

    def games(self) -> list[dict]:
        """Every game: game_id, uuid, command_id, started_at, players, rules, edition,
        events, head, ended, chain_game_id, imported (as `game` says them)."""

    def game(self, game_id: int) -> dict | None:
        """One game as `games` lists it, or None; with `chain_game_id` (the number an imported
        game's version-1 rows hash, when not its own, else None) and `imported` (where and
        when it was imported from, else None): one read for all a game's row says."""

    def latest_game(self, unfinished: bool) -> int | None:
        """The highest game number (among the unfinished ones if asked)."""

    def find_game(self, *, command_id: str | None = None, uuid: str | None = None,
                  first_hash: str | None = None) -> int | None:
        """The game a command started (an idempotent `new`), the game with this identity
        (`uuid`), or the game whose first row has this hash; None for none.  Exactly one
        key."""

    # --- the import's bulk path -----------------------------------------------------------

    def begin_import(self) -> GameImportWriter:
        """Start writing a whole game in one transaction, the write lock held throughout."""

    def raw_rows(self, game_id: int) -> Iterable[tuple]:
        """The game's rows as stored, streamed in seq order (the audit)."""

    # --- the rest --------------------------------------------------------------------------

    def checks(self) -> StoreChecks:
        """The referee's and the organiser's look at the store beside its games' chains."""

    def close(self) -> None:
        """Release the connection; the store may not be used after."""


def conforms(store: Any) -> list[str]:
    """The operations of EventStore that `store` lacks, and of StoreChecks that its checks
    lack (as "checks().NAME"; [] when it has them all): the behaviour suite's first check of
    an implementation."""
    def lacking(protocol, thing) -> list[str]:
        wanted = [n for n in vars(protocol) if not n.startswith("_") and callable(
            getattr(protocol, n))]
        return [n for n in wanted if not callable(getattr(thing, n, None))]

    missing = lacking(EventStore, store)
    if "checks" not in missing:
        missing += [f"checks().{n}" for n in lacking(StoreChecks, store.checks())]
    return missing
