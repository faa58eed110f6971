"""The audit of one game in a process of its own while the caller does other work: `banco
report` draws its page as the game is audited (issue 21), and needs the verdict only when it
writes the page's head, after the timeline is spooled.

The process is forked from the caller (only where fork is safe: projections/audit/
audit_parallel.py's `pool_context`), opens the file itself (writes refused) and runs
`audit_game` up to the event given, its workers forked from it as `banco audit`'s are from
`banco audit`: every core but one (`processes`), the caller's work taking that one.  It hands back the audit's progress (events done, for the caller's bar) and
its report through a pipe; the caller reads them when it likes (`poll`, never waiting) and
waits only for the report (`report`).  A process that ends without a report the caller can
read (it could not open the file, it failed, it was killed) leaves the audit to the caller's
own process (`audit_game` there), which gives the same verdict or raises what it raises.

Stopping (`close` before the report came, e.g. on Ctrl-C): the process ignores SIGINT (a
terminal sends it to the whole group, the caller stops it, once) and takes SIGTERM as its
stop: its pool is terminated with it, and it exits with nothing said.
"""

from __future__ import annotations

import os
import signal

from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.audit.audit_parallel import audit_game, pool_context, workers
from banco.projections.audit.results import AuditReport
from banco.projections.audit.ticking import Tick


class AuditApart:
    """`AuditApart.start(store, game, last, progress)`: the audit under way (or None where it
    cannot be: no file, no fork); `report()` waits for it; `close()` always, at the end."""

    def __init__(self, store, game_id: int, last: int, progress: Tick | None, context):
        self.store, self.game_id, self.last, self.progress = store, game_id, last, progress
        self._report: AuditReport | None = None
        self._failed: BaseException | None = None  # what this process's own audit raised
        self._ended = False  # the pipe says no more: a report, or the process's end
        self.reader, writer = context.Pipe(duplex=False)
        self.process = context.Process(target=_audit_apart, name="banco-audit",
                                       args=(store.worker_path(), game_id, last, writer))
        try:
            self.process.start()
        except BaseException:
            self.reader.close()
            raise
        finally:
            writer.close()  # the process's end of the pipe only: its end is our end of file

    @classmethod
    def start(cls, store, game_id: int, last: int,
              progress: Tick | None = None) -> AuditApart | None:
        if store.worker_path() is None:  # no file another process can open (PostgreSQL)
            return None
        context = pool_context()
        if context.get_start_method() != "fork":
            return None  # another thread here, or no fork: a process started cold costs more
        try:
            return cls(store, game_id, last, progress, context)
        except OSError:  # no process to be had (a limit on them): the caller audits itself
            return None

    def poll(self) -> None:
        """The audit's progress so far told to `progress`, without waiting."""
        while not self._ended and self.reader.poll():
            self._take()

    def report(self) -> AuditReport:
        """The audit's report, once it is done: the process's, else this process's own."""
        while not self._ended:
            if self.reader.poll(0.2):
                self._take()
            elif self.process.exitcode is not None and not self.reader.poll():
                self._ended = True  # ended saying nothing more (its workers may hold the pipe)
        if self._failed is not None:
            raise self._failed
        if self._report is None:
            self.close()
            try:
                self._report = audit_game(self.store, self.game_id, progress=self.progress,
                                          last=self.last)
            except Exception as exc:  # raised again if asked again, not audited twice
                self._failed = exc
                raise
        return self._report

    def _take(self) -> None:
        try:
            said = self.reader.recv()
        except Exception:  # the end of the pipe, or a report that cannot be read here
            self._ended = True
            return
        if isinstance(said, AuditReport):
            self._report, self._ended = said, True
        elif self.progress is not None and type(said) is int:
            self.progress(said)

    def close(self) -> None:
        """The process stopped if it is still at work, and waited for."""
        process = self.process
        if process.exitcode is None and self._report is None:
            try:
                os.kill(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        process.join(10)
        if process.exitcode is None:
            # it did not stop within 10 s (not seen: it takes SIGTERM between two steps of
            # Python): killed, and a worker of its pool, if it had one then, is left behind
            process.kill()
            process.join()
        self.reader.close()

    def __enter__(self) -> AuditApart:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def processes() -> int:
    """The audit's processes beside the caller's work (the report's page, one core busy):
    every core but that one, at least one; BANCO_AUDIT_WORKERS as given.  On two cores the
    audit's two workers and the page were three at work on two: the page, the longer,
    went at two thirds of its pace, and the report took longer than with one."""
    given = os.environ.get("BANCO_AUDIT_WORKERS", "").strip()
    if given.isdecimal() and int(given) > 0:
        return int(given)
    return max(1, workers() - 1)


class _Stopped(BaseException):
    """SIGTERM from the caller: the audit stops (not an Exception: nothing may take it for a
    failure and audit again in one pass)."""


def _stop(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: its pool is being stopped
    raise _Stopped


def _audit_apart(path: str, game_id: int, last: int, pipe) -> None:
    """In the process apart: the audit, its progress and report sent through `pipe`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    try:
        # its own connection (the caller's, forked with it, is the caller's), writes refused
        store = SQLiteStore(path, create=False)
        store.conn.execute("PRAGMA query_only=ON")
        report = audit_game(store, game_id, processes=processes(), progress=pipe.send,
                            last=last)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # done: nothing left to stop
        pipe.send(report)
    except (_Stopped, Exception):
        pass  # stopped; or failed: the caller audits in its own process, and says why
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        pipe.close()


def report_of(apart: AuditApart | None, store, game_id: int, last: int,
            progress: Tick | None = None) -> AuditReport:
    """The audit's report: the process's started apart (AuditApart.start), or, where none
    could be started, the audit run here now (`report` and `export --audit` both wait so)."""
    if apart is not None:
        return apart.report()
    return audit_game(store, game_id, progress=progress, last=last)
