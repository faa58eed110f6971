"""A test run writes nothing into the real home (issue 32's note: under CI the PostgreSQL tests
left a tokens' key in root's ~/.config/banco/token-keys/ for every database they made): the
folders banco keeps things in are the run's own (tests/conftest.py own_home)."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from banco.cli.banker.shell_history import history_path
from banco.ledger.store import token_key

BANCO = Path(sys.executable).parent / "banco"


def real_homes() -> set[Path]:
    return {Path(pwd.getpwuid(os.getuid()).pw_dir).resolve(), Path("~").expanduser().resolve()}


def outside(path: Path, own: Path) -> None:
    path = Path(path).resolve()
    assert own.resolve() in path.parents, path
    for home in real_homes():
        if home not in own.resolve().parents:  # a run whose temporary folder is in the home
            assert home not in path.parents, path


def test_the_folders_banco_writes_in_are_the_run_s_own(own_home, monkeypatch):
    monkeypatch.delenv(token_key.ENV, raising=False)
    monkeypatch.delenv("BANCO_HISTORY", raising=False)
    outside(token_key.key_path("postgresql://banco@localhost:5432/any"), own_home)
    outside(Path(history_path()), own_home)


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_a_postgresql_token_from_a_banco_process_keeps_its_key_out_of_the_home(own_home):
    import pg_cluster

    url, _ = pg_cluster.database()
    env = {k: v for k, v in os.environ.items() if k != token_key.ENV}
    for words in (["new", "Anna", "Bruno"], ["token", "banker", "--json"]):
        done = subprocess.run([str(BANCO), "--db", url, *words], capture_output=True,
                              text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["token"].startswith("bt_")
    key = token_key.key_path(url)
    assert key.exists()
    outside(key, own_home)
    for home in real_homes():
        assert not (home / ".config" / "banco" / "token-keys" / key.name).exists()
