"""The import's audit of a long game in a process of its own, while the import goes on.

`banco import` checks each line (parse, fields, the chain, each hash), inserts the rows in
batches, then audits the game as written (projections/audit/audit.py): for a long game each is about
half the work, one after the other.  Here the audit starts in a child process with the import
and is fed the rows as they are inserted: the very tuples given to `GameImport.insert`, a batch
at a time through a pipe, turned into rows by the function the store reads them back with
(ledger/store/sqlite.py `stored_row`), so the rows audited are the rows written.  The pipe bounds the
memory: the import waits when the audit is behind.  The audit's look-backs (an undo folding
again from a restore point, `_before`, a hash at a seq) read the batches again from a
temporary file the child keeps of what it was sent.

The verdict is the one pass's, and so is every refusal: what the import finds in the file
(it reads it to the end first) is said before what the audit finds, as in one process; the
child stops at the first bad event and its report is said once the file has been read.  The
child also hands back the book's snapshots (`book_snapshots`), folded as the one pass
folds them.  A child that dies (killed, or raising) refuses the import in words; Ctrl-C or
any refusal stops the child (it ignores SIGINT: the parent says "interrupted" once).

Only a game whose header announces THRESHOLD events or more goes this way (for a short one
starting a process costs more than it saves), and every game of a tournament's archive that
holds THRESHOLD events or more in all: their audits run at once, one a process
(projections/exchange/tournament_archive.py).
"""

from __future__ import annotations

import marshal
import os
import tempfile
from bisect import bisect_right

from banco.ledger.base.errors import EXIT_AUDIT, BancoError
from banco.ledger.base.text import msg
from banco.ledger.store.bulk import stored_row

THRESHOLD = 20_000  # events announced by the header (tests lower it)
PIPE_SIZE = 1 << 20  # the rows pipe's buffer (Linux): the import runs ahead by up to this much
_END, _ROWS = b"E", b"R"
# The batches go as marshal data: tuples of str, int and None, between two processes of the
# same Python, written four times faster than pickle writes them, read back a little faster.


class AuditLost(BancoError):
    """The audit beside the import stopped before its verdict: nothing was imported (exit 3)."""

    exit_code = EXIT_AUDIT


def start(game_id: int, hashed_as: int | None) -> ConcurrentAudit | None:
    """The audit started beside the import, or None where no process can be started (the
    import then audits in one process, after the inserts)."""
    try:
        return ConcurrentAudit(game_id, hashed_as)
    except OSError:  # no process (fork refused, too many): the pipes are closed with it
        return None


class ConcurrentAudit:
    """The child auditing game `game_id` (its version-1 rows hashing `hashed_as`): `send` each
    batch after it is inserted, then `verdict`; `close` in every case (stops it if running)."""

    def __init__(self, game_id: int, hashed_as: int | None):
        from banco.projections.audit.audit_games import pool_context

        context = pool_context()
        self.rows_r, self.rows_w = context.Pipe(duplex=False)
        self.verdict_r, verdict_w = context.Pipe(duplex=False)
        _widen(self.rows_w)
        close = (self.rows_w, self.verdict_r) if context.get_start_method() == "fork" else ()
        self.process = context.Process(
            target=_child, args=(self.rows_r, verdict_w, close, game_id, hashed_as),
            name="banco-import-audit", daemon=True)
        try:
            self.process.start()
        except BaseException:
            self.rows_w.close()
            self.verdict_r.close()
            raise
        finally:
            self.rows_r.close()
            verdict_w.close()  # the child's alone: its end closes when it dies
        self.found = None  # the child's message, once it has sent one

    def _poll(self) -> None:
        if self.found is None and self.verdict_r.poll():
            self.found = self._receive()

    def send(self, batch: list[tuple]) -> None:
        """The rows just inserted, to the audit (nothing once it has found a problem)."""
        self._poll()
        if self.found is not None:
            self._check()  # the child failed: no verdict will come
            return  # a bad event found: the rest does not count
        try:
            self.rows_w.send_bytes(_ROWS + marshal.dumps(batch))
        except OSError:  # the child is gone
            self._poll()
            self._check()
            raise self._lost() from None

    def verdict(self, count: int, head: str):
        """(the AuditReport, the snapshots to write) once every row was sent."""
        if self.found is None:
            try:
                self.rows_w.send_bytes(_END + marshal.dumps((count, head)))
            except OSError:
                pass  # gone: said below
            self.found = self._receive()
        self._check()
        _, report, snapshots = self.found
        self.close()
        return report, snapshots

    def _receive(self):
        try:
            return self.verdict_r.recv()
        except (EOFError, OSError):
            raise self._lost() from None

    def _check(self) -> None:
        if self.found is not None and self.found[0] == "error":
            said = msg("the audit beside the import failed ({error}); nothing was imported",
                       error=self.found[1])
            raise AuditLost(said)

    def _lost(self) -> AuditLost:
        self.process.join(5)
        code = self.process.exitcode
        if code is not None and code < 0:
            why = msg("its process was stopped by signal {signal}", signal=-code)
        else:
            why = msg("its process ended with code {code}", code=code)
        said = msg("the audit beside the import stopped before its verdict ({why}); nothing "
                   "was imported", why=why)
        return AuditLost(said)

    def close(self) -> None:
        """Stop the child if it runs, wait for it, close the pipes."""
        process = self.process
        if process.is_alive():
            process.terminate()
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)
        else:
            process.join(0)
        for conn in (self.rows_w, self.verdict_r):
            conn.close()


def _widen(conn) -> None:
    try:
        import fcntl

        fcntl.fcntl(conn.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_SIZE)
    except (ImportError, OSError):
        pass  # the default buffer: the import waits for the audit a little more often


class PipedRows:
    """The rows the import sends, as RawRows gives them (stored_row): iterating streams
    them as they come; `fetch` reads a range again from the child's copy of the batches."""

    KEEP = 4  # batches kept decoded for `fetch`

    def __init__(self, conn, game_id: int, hashed_as: int | None):
        self.conn, self.game_id, self.hashed_as = conn, game_id, hashed_as
        self.copy = tempfile.TemporaryFile(prefix="banco-import-")
        self.firsts: list[int] = []  # each batch's first seq, its place in the copy
        self.places: list[tuple[int, int]] = []
        self.decoded: dict[int, list[tuple]] = {}
        self.end: tuple[int, str] | None = None

    def __iter__(self):
        g, conn = self.game_id, self.conn
        while True:
            data = conn.recv_bytes()
            if data[:1] == _END:
                self.end = marshal.loads(data[1:])
                return
            rows = marshal.loads(data[1:])
            if not rows:
                continue
            self.copy.seek(0, os.SEEK_END)
            self.firsts.append(rows[0][0])
            self.places.append((self.copy.tell(), len(data) - 1))
            self.copy.write(memoryview(data)[1:])
            for r in rows:
                yield stored_row(g, r)

    def _batch(self, i: int) -> list[tuple]:
        found = self.decoded.get(i)
        if found is None:
            if len(self.decoded) >= self.KEEP:
                self.decoded.clear()
            at, size = self.places[i]
            self.copy.seek(at)
            g = self.game_id
            found = self.decoded[i] = [stored_row(g, r)
                                       for r in marshal.loads(self.copy.read(size))]
        return found

    def fetch(self, first: int, last: int) -> list[tuple]:
        # rows the audit has read already: seqs 1..n in order, each batch consecutive
        out: list[tuple] = []
        i = max(bisect_right(self.firsts, first) - 1, 0)
        while i < len(self.firsts) and self.firsts[i] <= last:
            batch = self._batch(i)
            start = self.firsts[i]
            out.extend(batch[max(first - start, 0):max(last - start + 1, 0)])
            i += 1
        return out

    def drain(self) -> None:
        """Read what is still sent, unread, until the end (or the import is gone)."""
        if self.end is not None:
            return
        try:
            while self.conn.recv_bytes()[:1] != _END:
                pass
        except (EOFError, OSError):
            pass


def _child(rows_r, verdict_w, close, game_id: int, hashed_as: int | None) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the import stops this process
    for conn in close:
        conn.close()  # the import's ends: EOF here when it is gone
    rows = None
    try:
        from banco.projections.audit.audit import GameAudit

        rows = PipedRows(rows_r, game_id, hashed_as)
        judge = GameAudit(game_id, rows, hashes_checked=True)
        report = judge.run()
        snapshots = None
        if report.ok:
            count, head = rows.end
            snapshots = book_snapshots(judge, count, head)
        verdict_w.send(("report", report, snapshots))
    except (EOFError, BrokenPipeError):
        return  # the import is gone
    except BaseException as exc:  # noqa: BLE001 - said to the import, which refuses
        try:
            verdict_w.send(("error", f"{type(exc).__name__}: {exc}", None))
        except OSError:
            pass
        return
    rows.drain()


def book_snapshots(judge, count: int, head: str) -> list[tuple[int, str, str, str]]:
    """The book's snapshots of a long imported game (ledger/table/snapshot_codec.py) as (seq,
    head, format, text), oldest first: the tables whose digest the game's own chain records
    (chain-version-3 rows) and the audit has just checked against its fold, those a book keeps
    (ledger/store/kept_snapshots.py), so the first command on it folds only what came after
    and a moment long ago is folded from near it.  A game whose rows carry no table digest
    (recorded by an older banco) gets none: a snapshot the chain does not bind is never used
    (ledger/store/snapshot_binding.py); the next command that records keeps one.  A cache,
    never evidence (the audit never starts from one)."""
    return list(judge.bound)


def audit_copied(game_id: int, rows) -> tuple[int | None, str] | None:
    """The audit `banco copy` runs on a game's rows before their commit (ledger/store/copy.py
    CopyAudit), the import's own (GameAudit, the hashes checked by the copy already): None
    when it passes, else (the event it stops at, what is wrong)."""
    from banco.projections.audit.audit import GameAudit

    report = GameAudit(game_id, rows, hashes_checked=True).run()
    return None if report.ok else (report.bad_seq, str(report.problem))
