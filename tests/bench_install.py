"""Benchmark: the default install beside installing banco's dependencies alone (issue 21's goal:
`pip install .` within 2x of the dependencies alone, measured in one run).  Prints figures;
asserts nothing about speed.  Not part of the test run:

    python tests/bench_install.py              # 3 rounds, each into fresh venvs

Each round creates fresh venvs (not timed) and times, taken in turn, `pip install` of the
dependencies pyproject.toml lists and `pip install .` of this checkout (hatchling builds the wheel in pip's
build environment, as at any user's install).  A warm-up round first fills pip's cache for all of them, so
no round pays for a download the others do not.  The machine's load is printed beside each
round: on a shared machine only the ratios of one run mean much.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} {five:.1f} on {os.cpu_count()} cores"


def dependencies() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["dependencies"]


def timed_install(folder: str, name: str, what: list[str], env: dict | None = None) -> float:
    venv = os.path.join(folder, name)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    pip = [os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q",
           "--disable-pip-version-check"]
    t0 = time.perf_counter()
    done = subprocess.run([*pip, *what], env={**os.environ, **(env or {})},
                          capture_output=True, text=True)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"`pip install {' '.join(what)}` failed ({done.returncode}):\n{done.stderr}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    jobs = {"dependencies alone": (dependencies(), None),
            "pip install .": ([str(ROOT)], None)}
    times: dict[str, list[float]] = {name: [] for name in jobs}
    with tempfile.TemporaryDirectory() as folder:
        for i, (what, env) in enumerate(jobs.values()):
            timed_install(folder, f"warm{i}", what, env)  # pip's cache, for every job alike
        for r in range(args.runs):
            print(f"round {r + 1} ({load()})", flush=True)
            for i, (name, (what, env)) in enumerate(jobs.items()):
                times[name].append(timed_install(folder, f"r{r}-{i}", what, env))
                print(f"  {name:32s} {times[name][-1]:6.1f} s", flush=True)
    base = statistics.median(times["dependencies alone"])
    base_min = min(times["dependencies alone"])
    print(f"median (minimum) of {args.runs} rounds, taken in turn ({load()}):")
    for name, taken in times.items():
        med, low = statistics.median(taken), min(taken)
        goal = "  (goal <= 2x)" if name.startswith("pip install .") else ""
        print(f"  {name:32s} {med:6.1f} s ({low:.1f}) = {med / base:.2f}x "
              f"({low / base_min:.2f}x){goal}")


if __name__ == "__main__":
    main()
