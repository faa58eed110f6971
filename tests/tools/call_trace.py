"""Which of banco's files one command runs through, and how often a call crosses from one
file to another: `roll 2 1` from a phone (POST /api/commands), from the command line (`banco
roll 2 1`, in-process, as the installed entry point runs it) and through the library
(`banco.open(db).execute("roll 2 1")`).  All three record through cli/library.py's
Library.execute: the phone's with the line, the command line's with the typed command click
built (cli/session.py's record), on a book it opens cold (its table folded from the log).

    python tests/tools/call_trace.py            # the three counts
    python tests/tools/call_trace.py --edges    # and each file-to-file edge, with its calls

Counted with sys.setprofile on every thread that does the work (the request's event loop and
the server's writer thread too), after a first command has warmed the imports, so only the
command's own calls are counted:
  files   the banco source files whose functions are entered
  edges   the distinct (caller's file, callee's file) pairs, files apart
  calls   the calls from one banco file into another
  climbs  the calls up the layers (ledger -> projections -> cli; in cli, from cli/lines or
          cli/words up into the rest)
  pulls   of those, the ones into a generator: a lower layer iterating rows a higher one
          handed it (the screen's rows read backwards, through ledger/batches.py's undo_facts)
          resumes the generator's frame; the data is pulled down, nothing calls up
It reads the installed banco (run the tests' install first: pip install --no-deps .).
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

import banco

HOME = Path(banco.__file__).resolve().parent
RESUMED = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def rank(path: str) -> int:
    """A file's layer, lowest first."""
    rel = Path(path).relative_to(HOME).parts
    if rel[0] == "ledger":
        return 0
    if rel[0] == "projections":
        return 1
    if rel[0] == "cli" and len(rel) > 1 and rel[1] in ("lines", "words"):
        return 2
    return 3


class Trace:
    def __init__(self):
        self.files: set[str] = set()
        self.calls: Counter = Counter()
        self.pulls: Counter = Counter()  # calls that resume a generator (its consumer's next)
        self.lock = threading.Lock()

    def __call__(self, frame, event, arg):
        if event != "call":
            return
        callee = frame.f_code.co_filename
        if not callee.startswith(str(HOME)):
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        with self.lock:
            self.files.add(callee)
            if caller.startswith(str(HOME)) and caller != callee:
                self.calls[caller, callee] += 1
                if frame.f_code.co_flags & RESUMED:
                    self.pulls[caller, callee] += 1

    def counts(self) -> dict:
        return {"files": len(self.files), "edges": len(self.calls),
                "calls": sum(self.calls.values()),
                "climbs": sum(n for (a, b), n in self.calls.items() if rank(b) > rank(a)),
                "pulls": sum(n for (a, b), n in self.pulls.items() if rank(b) > rank(a))}

    def edges(self) -> list[str]:
        def short(p):
            return str(Path(p).relative_to(HOME))
        return [f"{n:6} {short(a)} -> {short(b)}{'  (climbs)' if rank(b) > rank(a) else ''}"
                for (a, b), n in sorted(self.calls.items(), key=lambda kv: -kv[1])]


def start(folder: Path) -> str:
    db = str(folder / "trace.db")
    book = banco.open(db, create=True)
    try:
        assert book.new(["Anna", "Bruno", "Carla"]).refusal is None
        for line in ("roll 1 2", "buy"):
            assert book.execute(line).refusal is None, line
    finally:
        book.close()
    return db


def undo(db: str) -> None:
    book = banco.open(db)
    try:
        assert book.execute("undo").refusal is None
    finally:
        book.close()


def cli(db: str) -> Trace:
    from banco.cli.main import cli as group

    def run():
        try:
            group.main(["--db", db, "roll", "2", "1"], prog_name="banco")
        except SystemExit as exc:
            assert not exc.code, exc.code

    run()  # warm: the imports and the first fold are not the command's
    undo(db)
    trace = Trace()
    sys.setprofile(trace)
    try:
        run()
    finally:
        sys.setprofile(None)
    return trace


def library(db: str) -> Trace:
    book = banco.open(db)
    try:
        assert book.execute("roll 2 1").refusal is None
        assert book.execute("undo").refusal is None
        trace = Trace()
        sys.setprofile(trace)
        try:
            out = book.execute("roll 2 1")
            out.say("en")
        finally:
            sys.setprofile(None)
        assert out.refusal is None
    finally:
        book.close()
    return trace


def phone(db: str) -> Trace:
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app
    from banco.ledger.store import tokens

    key = tokens.issue(db, "banker", 1, "2026-12-06T00:00:00Z", None)[0]
    hub = Hub(db, None, poll=None)
    trace = Trace()
    try:
        with TestClient(make_app(hub)) as client:
            def post(line):
                r = client.post("/api/commands", json={"line": line},
                                headers={"Authorization": f"Bearer {key}"})
                assert r.status_code == 200, r.text

            post("roll 2 1")
            post("undo")
            # the request's thread (the event loop's) and the game's writer (cli/web/writers.py)
            client.portal.call(sys.setprofile, trace)
            hub.writers.of(1).submit(sys.setprofile, trace).result()  # game 1's writer
            try:
                post("roll 2 1")
            finally:
                client.portal.call(sys.setprofile, None)
                hub.writers.of(1).submit(sys.setprofile, None).result()
    finally:
        hub.close()
    return trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edges", action="store_true", help="list each file-to-file edge")
    args = parser.parse_args()
    os.environ.pop("BANCO_FIXED_TIME", None)
    with tempfile.TemporaryDirectory() as folder:
        for name, way in (("cli", cli), ("phone", phone), ("library", library)):
            (Path(folder) / name).mkdir()
            trace = way(start(Path(folder) / name))
            c = trace.counts()
            print(f"{name:8} files {c['files']:3}  edges {c['edges']:4}  calls {c['calls']:6}"
                  f"  climbs {c['climbs']:5} (pulls {c['pulls']})")
            if args.edges:
                print("\n".join("    " + e for e in trace.edges()))


if __name__ == "__main__":
    main()
