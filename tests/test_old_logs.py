"""Logs recorded by an older banco still audit after a rule is corrected: the correction is a
rule parameter, and a GameStarted without it is played, and re-derived, as it was recorded
(ledger/board/rule_sets.py _ADDED).

tests/data/old-late-claims.jsonl was recorded by banco before `late_claims` (2026-11-30): Anna
claims Bruno's lapsed landing on Vicolo Stretto twice (events 24 and 26, the same evidence
twice), then, after Bruno landed on her mortgaged Via Accademia (RentNotDue), once more (event
42, tied to the old landing).
"""

import json
from pathlib import Path

from click.testing import CliRunner

from banco.cli.main import cli

OLD = Path(__file__).parent / "data" / "old-late-claims.jsonl"


def test_an_old_log_with_repeated_late_claims_imports_audited(tmp_path):
    db = str(tmp_path / "old.db")
    run = CliRunner().invoke
    result = run(cli, ["--db", db, "import", str(OLD)])
    assert result.exit_code == 0, result.output
    assert "42 events, chain intact, audit passed" in result.output
    log = json.loads(run(cli, ["--db", db, "log", "--json"]).output)
    refused = [e for e in log if e["type"] == "RentClaimRefused"]
    assert [e["seq"] for e in refused] == [24, 26, 42]
    assert {e["data"]["landed_seq"] for e in refused} == {15}
    assert "late_claims" not in log[1]["data"]["rules"]  # the GameStarted of the older banco
