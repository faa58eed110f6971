"""A hypothesis state machine playing random table actions of every kind — rolls, purchases,
auctions, claims, cards, jail, building, selling, mortgages, trades, debts, bankruptcies.

After every event it runs every check the audit runs (projections/audit/checks.py: the amount of
each money fact against the rules, each account's statement against the table, the Bank's
buildings, even building, ...).  After every command it checks each account's change against
the command's transfers, and that a second table, replayed from the stored form of the log
(JSON), equals the live one; at the end of every game the whole log is folded again from
GameStarted and compared.

It counts, per command kind, how often the rules refused it (and citing which rule): a kind
that is almost never accepted tests nothing but its refusals, and fails the run, as does a kind
never accepted at all.  A dozen fixed rich tables are played first, so that house shortages,
building auctions and hotel break-ups are reached whatever hypothesis draws.  A small model of
what is legal (written apart from ledger/) says when a buy, a build, a payment, a mortgage or its
lifting must be accepted, or refused; a disagreement either way fails.

    pytest -n 0 tests/test_machine.py -s --hypothesis-show-statistics

The rule set is drawn too (every built-in one, the championship with its Speedy die), with the
deeds dealt at the start where the rule set deals them.

The model and the counts are tests/machine_model.py, the machine tests/machine_table.py.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test
from machine_model import ACCEPTED, KNOWN_REFUSED, TRIED, WHY
from machine_table import Table

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records import commands as c

# derandomize: the same examples on every run, so the counts below (and the run time) do not
# vary from one run to the next; tests/tools/explore_machine.py explores with random seeds.
# No shrinking in the default run: a failing example already names its deal (players, cash,
# seed, rule set) and its steps, and shrinking a table game takes minutes, not seconds.
SETTINGS = settings(max_examples=150, stateful_step_count=50, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])

# How often each kind of command must be accepted, at least, over the whole run.
LEAST_ACCEPTED = 0.10
KINDS = {cls.__name__ for cls in (c.Roll, c.Buy, c.Decline, c.Bid, c.Hammer, c.Claim,
                                  c.DrawCard, c.PayFine, c.UseCard, c.PayDebt, c.Build, c.Sell,
                                  c.BreakUp, c.Mortgage, c.Unmortgage, c.Trade, c.Bankrupt,
                                  c.BuildingAuction)}


def play_tables(settings_) -> str:
    """Run the machine: a dozen fixed rich tables that build until houses run short (so that
    building auctions and hotel break-ups are played whatever hypothesis draws), then the
    hypothesis run.  Return the counts of tried and accepted commands, and why refused."""
    TRIED.clear()
    ACCEPTED.clear()
    WHY.clear()
    KNOWN_REFUSED.clear()
    for seed in range(12):
        table = Table()
        table.deal(players=3 + seed % 3, cash=5000, warmup=300, seed=seed)
        table.replay_gives_the_live_table()
        table.teardown()
    run_state_machine_as_test(Table, settings=settings_)
    lines = [f"{kind:<16}{TRIED[kind]:>7} tried {ACCEPTED[kind]:>7} accepted "
             f"({ACCEPTED[kind] / TRIED[kind]:.0%}) {KNOWN_REFUSED[kind]:>6} known refused"
             for kind in sorted(TRIED)]
    lines += [f"  {n:>6} {kind} refused: {why}" for (kind, why), n in WHY.most_common(25)]
    return "\n".join(lines)


def test_random_tables_keep_every_check_and_accept_what_is_legal():
    counts = play_tables(SETTINGS)
    print("\n" + counts)
    # of the tries the model did not know to be refused, the rules accepted at least a tenth
    open_ = {kind: TRIED[kind] - KNOWN_REFUSED[kind] for kind in TRIED}
    rare = [kind for kind in TRIED if open_[kind] >= 30
            and ACCEPTED[kind] < LEAST_ACCEPTED * open_[kind]]
    assert rare == [], "commands the rules almost always refused:\n" + counts
    # every kind of table action was tried, and accepted
    assert {kind for kind in KINDS if not ACCEPTED[kind]} == set(), counts


def test_a_building_auction_winner_who_can_no_longer_build_does_not_stop_the_table():
    """Found by the machine: Bruno bids for the last house, then mortgages a lot of his group.
    Nobody outbids him, and `hammer` used to be refused ("say where it goes", with no lot
    allowed) for as long as the table waited.  Either the mortgage is refused while his bid
    stands, or the hammer lets the table go on (the auction voided and reopened without him, as
    for an unpaid bid, 000 §COMPRARE I CONTRATTI)."""
    from helpers import POS, build, new_table, own, play

    t = own(new_table(), "Anna", "Via Roma", "Corso Impero", "Largo Augusto")
    t = own(t, "Bruno", "Vicolo Corto", "Vicolo Stretto")
    carla = [s.name for s in t.edition.spaces if s.group in ("azzurro", "rosso", "arancione",
                                                               "giallo")]
    t = own(t, "Carla", *carla)
    for i, name in enumerate(carla):  # 31 houses on Carla's lots: one left in the Bank
        t = build(t, name, 3 if i < 7 else 2)
    assert t.bank_houses == 1
    t, _ = play(t, c.BuildingAuction("house", (("Anna", 1), ("Bruno", 1))), c.Bid("Bruno", 50))
    try:
        t, _ = play(t, c.Mortgage(POS["Vicolo Corto"]))
    except RuleViolation:
        return  # refused while his bid stands: the table can go on
    t, _ = play(t, c.Hammer())
    assert t.auction is None or t.auction.high_bidder != "Bruno"


# Marked as Table.TestCase.runTest is, so that `--hypothesis-show-statistics` reports the run.
test_random_tables_keep_every_check_and_accept_what_is_legal.is_hypothesis_test = True
