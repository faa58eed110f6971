"""Deliberate bugs, one at a time, and the tests that must catch each (a slow exploration, not
part of the default run).  Each mutant edits one file in place, runs the tests named for it,
and restores the file (and fixtures/, for the ones that regenerate the golden files first).

    python tests/tools/mutants.py            # all mutants
    python tests/tools/mutants.py salary     # those whose name contains "salary"
    python tests/tools/mutants.py -v         # with the first failure line of each

A mutant is KILLED when its tests fail; SURVIVED means the suite missed a bug.  A mutant whose
text is no longer in the code is reported as STALE: update it with the code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]


class Mutant(NamedTuple):
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]
    regolden: tuple[str, ...] = ()  # recorded games regenerated with the bug before testing


MUTANTS = [
    # --- the books and the amounts (projections/) ---
    Mutant("statement check removed", "projections/audit/books.py",
           "problems += statement_problems(self.balances, table)", "problems += []",
           ("tests/test_books.py",)),
    Mutant("seat named bank allowed", "projections/audit/books.py",
           "        elif key in BANK_WORDS:", "        elif False:", ("tests/test_books.py",)),
    Mutant("bank pays bank allowed", "projections/audit/books.py",
           "    if entry.payer == entry.payee:", "    if False:", ("tests/test_books.py",)),
    Mutant("starting cash issued twice allowed", "projections/audit/books.py",
           "    if entry.payee in issued:", "    if False:", ("tests/test_books.py",)),
    Mutant("salary amount unchecked", "projections/audit/amounts.py",
           '    "SalaryPaid": salary,\n', "", ("tests/test_books.py",)),
    Mutant("rent paid unchecked", "projections/audit/amounts.py",
           '    "RentPaid": rent_paid,\n', "", ("tests/test_books.py",)),
    Mutant("card payments unchecked", "projections/audit/amounts.py",
           '    "CardPayment": card_payment,\n', "", ("tests/test_books.py",)),
    Mutant("building price unchecked", "projections/audit/building_amounts.py",
           '    return out + expect(t, what, d["amount"], space.house_cost, "the deed\'s building price")',
           "    return out", ("tests/test_books.py",)),
    Mutant("a move past Via! unchecked", "projections/audit/board_amounts.py",
           '    if d["passed_go"] and d["from"] + d["spaces"] < 40:', "    if False:",
           ("tests/test_books.py",)),
    Mutant("bids unchecked", "projections/audit/amounts.py", '    "BidPlaced": bid,\n', "",
           ("tests/test_books.py",)),
    # --- the fold moves money wrongly: every check downstream ---
    Mutant("fold: a 25 M payment arrives as 26", "ledger/table/model.py",
           "players = players[:i] + (p._replace(cash=p.cash + amount),) + players[i + 1:]",
           "players = players[:i] + (p._replace(cash=p.cash + amount + (amount == 25)),) "
           "+ players[i + 1:]",
           ("tests/test_golden.py", "tests/test_machine.py", "tests/test_properties.py")),
    Mutant("fold: card payments ignored", "ledger/table/fold_money.py",
           '    "CardPayment": _money,', '    "CardPayment": lambda state, d, seq: state,',
           ("tests/test_golden.py", "tests/test_machine.py", "tests/test_decks.py")),
    # --- the decks ---
    Mutant("Imprevisti 14 fine 150", "ledger/board/data/editions/it.toml",
           'guidato senza patente", effect = { kind = "pay", amount = 15 }',
           'guidato senza patente", effect = { kind = "pay", amount = 150 }',
           ("tests/test_decks.py",)),
    Mutant("Probabilita 12 refund 200", "ledger/board/data/editions/it.toml",
           'dalla Banca", effect = { kind = "collect", amount = 20 }',
           'dalla Banca", effect = { kind = "collect", amount = 200 }', ("tests/test_decks.py",)),
    Mutant("back three spaces moves two", "ledger/rules/cards.py",
           'move_token(tx, name, (pos - n) % 40, -n, "card", salary=False)',
           'move_token(tx, name, (pos - n + 1) % 40, -n, "card", salary=False)',
           ("tests/test_decks.py",)),
    Mutant("birthday from one player only", "ledger/rules/cards.py",
           "        for other in state.active():", "        for other in state.active()[:2]:",
           ("tests/test_decks.py",)),
    # --- golden files regenerated with the bug: the hand-worked anchors still fail ---
    # (the game played to the end no longer replays with these: only the four-player one is
    # regenerated, and only its tests run)
    Mutant("salary 210, golden files regenerated", "ledger/board/data/rules/classic.toml",
           "go_salary = 200", "go_salary = 210",
           ("tests/test_golden.py", "-k", "4p or four_players"), regolden=("classic-4p",)),
    Mutant("a rent of 7 M on Stazione Sud, golden files regenerated", "ledger/rules/movement.py",
           '        return space.rents[n - 1], f"{n} station(s) owned: {space.rents[n - 1]}"',
           '        return space.rents[n - 1] + 1, f"{n} station(s) owned: {space.rents[n - 1]}"',
           ("tests/test_golden.py", "-k", "4p or four_players"), regolden=("classic-4p",)),
    Mutant("double rent tripled", "ledger/rules/movement.py",
           'return base * 2, f"complete group, unbuilt: double {base}"',
           'return base * 3, f"complete group, unbuilt: double {base}"',
           ("tests/test_books.py", "tests/test_machine.py")),
    # --- the state machine's model and counts ---
    Mutant("buy refused unless 50 M are left over", "ledger/rules/auction.py",
           "    if cash < space.price:", "    if cash < space.price + 50:",
           ("tests/test_machine.py",)),
    Mutant("uneven building allowed", "ledger/rules/estate.py",
           "    return max(levels) - min(levels) <= 1", "    return max(levels) - min(levels) <= 2",
           ("tests/test_machine.py",)),
    Mutant("debt payment wants 10 more", "ledger/rules/debts.py",
           "    if cash < d.amount:", "    if cash < d.amount + 10:", ("tests/test_machine.py",)),
    Mutant("mortgages always refused", "ledger/rules/estate.py",
           "    if pos in state.mortgaged:\n        raise RuleViolation(f\"{space.name} is already mortgaged\", rule=R_MORTGAGE)",
           "    if True:\n        raise RuleViolation(f\"{space.name} is already mortgaged\", rule=R_MORTGAGE)",
           ("tests/test_machine.py",)),
    # --- pytest.raises names the refusal ---
    Mutant("pay-fine refused for the wrong reason", "ledger/rules/turn.py",
           "    if not p.in_jail:", "    if p.in_jail and p.cash < 20:", ("tests/test_jail.py",)),
    # --- the command line ---
    Mutant("a refusal escapes as a traceback", "cli/main.py",
           "        except BancoError as exc:", "        except UsageError as exc:",
           ("tests/test_fuzz_cli.py",)),
    Mutant("a refused roll is recorded anyway", "ledger/rules/decide.py",
           "        raise RuleViolation(f\"a die shows 1 to 6, got {' '.join(map(str, dice))}\",",
           "        raise RuleViolation(f\"a die shows 1 to 6, got {' '.join(map(str, dice))}\", "
           "record=[{'type': 'JailRollFailed', 'data': {'player': name, 'attempt': 1}}] if "
           "(name := state.turn.player) else [],",
           ("tests/test_fuzz_cli.py",)),
]


def run(m: Mutant) -> str:
    path = ROOT / m.file
    original = path.read_text(encoding="utf-8")
    if original.count(m.old) != 1:
        return "STALE"
    try:
        path.write_text(original.replace(m.old, m.new), encoding="utf-8")
        if m.regolden:
            subprocess.run([sys.executable, "tests/tools/regolden.py", *m.regolden], cwd=ROOT,
                           check=True, stdout=subprocess.DEVNULL)
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                               "no:cacheprovider", *m.tests], cwd=ROOT,
                              capture_output=True, text=True)
        if not done.returncode:
            return "SURVIVED"
        # the first line pytest gives as the reason, to see it was the bug that was caught
        why = next((ln for ln in done.stdout.splitlines() if ln.startswith("E ")), "")
        return "KILLED" + (f"  <- {why[:150].strip()}" if VERBOSE else "")
    finally:
        path.write_text(original, encoding="utf-8")
        if m.regolden:
            subprocess.run(["git", "checkout", "--", "fixtures/"], cwd=ROOT, check=True)


VERBOSE = "-v" in sys.argv


def main(pattern: str) -> None:
    survived = 0
    for m in MUTANTS:
        if pattern not in m.name:
            continue
        outcome = run(m)
        survived += not outcome.startswith("KILLED")
        head, _, why = outcome.partition("  <- ")
        print(f"{head:<9} {m.name}  ({m.file}; {' '.join(m.tests)})", flush=True)
        if why:
            print(f"          {why}", flush=True)
    sys.exit(1 if survived else 0)


if __name__ == "__main__":
    words = [a for a in sys.argv[1:] if a != "-v"]
    main(words[0] if words else "")
