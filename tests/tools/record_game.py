"""Record a 4-player game as a banco transcript, from seeded dice and card draws.

The table is played as people play: buy when the cash allows with a reserve, otherwise let the
deed go to auction and bid up to a budget; owners usually ask for rent at once, sometimes
forget, and once ask too late (a line marked `!`, refused and recorded).  With --to-the-end
players also trade to complete colour groups, build, mortgage to raise money, and go bankrupt
when they cannot, until one is left.  Run:

    python tests/tools/record_game.py --seed 7 --commands 180 > fixtures/classic-4p.banco
    python tests/tools/record_game.py --to-the-end > fixtures/classic-to-the-end.banco
    python tests/tools/record_game.py --rules vintage > fixtures/vintage-to-a-bankruptcy.banco
    python tests/tools/record_game.py --rules short > fixtures/short-to-the-end.banco

With --rules vintage the deeds are dealt at random and paid (002 §Preparazione) and the game is
played until a player goes bankrupt to another and the Bank pays the creditor (002
§Fallimento); with --rules short, two deeds each and to the second bankruptcy.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ledger import commands as c  # noqa: E402
from ledger.decide import decide, start_game  # noqa: E402
from ledger.decks import drawable  # noqa: E402
from ledger.errors import RuleViolation  # noqa: E402
from ledger.estate import buildable_lots  # noqa: E402
from ledger.rules import load_rules  # noqa: E402
from ledger.state import BANK, evolve, fold, richest_bidders  # noqa: E402
from ledger.worth import deeds_of, interest, raisable  # noqa: E402

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


class Recorder:
    def __init__(self, seed: int, rules: str = "classic"):
        self.rng = random.Random(seed)
        ruleset = load_rules(rules)
        events = start_game(PLAYERS, ruleset, ruleset.edition)
        for i, e in enumerate(events, 1):
            e["seq"] = i
        self.state = fold(events, 1)
        self.lines = [f"new {' '.join(PLAYERS)} --rules {rules} --edition {ruleset.edition}"]
        self.seen: list[dict] = list(events)
        self.late_done = False
        self.forgotten: list[str] = []
        # the table's sense of money scales with the board: x100 in lire (002)
        self.scale = ruleset.go_salary // 200 or 1
        self.deal()

    def m(self, amount: int) -> int:
        return amount * self.scale

    def deal(self) -> None:
        """The deeds shuffled and dealt round the table (002 §Preparazione, 004 short game)."""
        from ledger.rules import deeds_to_deal

        k = deeds_to_deal(self.state.rules, len(PLAYERS))
        if not k:
            return
        deck = [s.position for s in self.state.edition.properties]
        self.rng.shuffle(deck)
        for i, name in enumerate(PLAYERS):
            lots = tuple(deck[i * k:(i + 1) * k])
            self.apply(c.Deal(name, lots), f"deal {name} " + " ".join(self.q(p) for p in lots))

    def q(self, pos: int) -> str:
        return shlex.quote(self.state.edition.space(pos).name)

    def apply(self, cmd, line: str) -> None:
        for e in decide(self.state, cmd):
            e["seq"] = len(self.seen) + 1
            self.state = evolve(self.state, e)
            self.seen.append(e)
        self.lines.append(line)

    # --- the turn, as in the first fixture ----------------------------------------------------

    def turn_step(self) -> None:
        st, rng = self.state, self.rng
        t = st.turn
        p = st.current
        if t.phase == "roll":
            for claim in list(st.claims):
                if claim.closer == t.player:
                    if rng.random() < 0.12 and not self.late_done:
                        self.forgotten.append(claim.owner)
                        continue
                    self.apply(c.Claim(claim.owner), f"claim {claim.owner}")
                    return
            if p.in_jail and p.jail_cards and rng.random() < 0.7:
                self.apply(c.UseCard(), "use-card")
            elif p.in_jail and p.cash > self.m(400) and rng.random() < 0.5:
                self.apply(c.PayFine(), "pay-fine")
            else:
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                self.apply(c.Roll(dice, p.name), f"roll {dice[0]} {dice[1]} --player {p.name}")
                self.try_late_claim()
        elif t.phase == "buy":
            price = st.edition.space(t.offer).price
            if p.cash - price >= self.m(250) and rng.random() < 0.8:
                self.apply(c.Buy(), "buy")
            else:
                self.apply(c.Decline(), "decline")
        elif t.phase == "auction":
            self.auction()
        elif t.phase == "card":
            deck = st.edition.decks[t.card_deck]
            n = rng.choice(drawable(st, deck.name))  # the card on top (003 §09)
            self.apply(c.DrawCard(deck.name, n), f"card {deck.title} {n}")
        elif t.phase == "jail_exit":  # the last failed try, a card in hand (000 FAQ 17)
            if rng.random() < 0.7:
                self.apply(c.UseCard(), "use-card")
            else:
                self.apply(c.PayFine(), "pay-fine")
        elif t.phase == "choice":
            deck, n = t.card_choice
            choice = rng.choice(("pay", "draw"))
            self.apply(c.DrawCard(deck, n, choice), f"card {deck} {n} {choice}")

    def try_late_claim(self) -> None:
        if not self.forgotten or self.late_done:
            return
        owner = self.forgotten.pop()
        try:
            decide(self.state, c.Claim(owner))
        except RuleViolation as refusal:
            for e in refusal.record:
                e["seq"] = len(self.seen) + 1
                self.state = evolve(self.state, e)
                self.seen.append(e)
            if refusal.record:
                self.lines.append(f"! claim {owner}  # asked too late: refused, recorded")
                self.late_done = True

    def auction(self) -> None:
        st, rng = self.state, self.rng
        a = st.auction
        price = st.edition.space(a.property).price
        bidders = [n for n in st.active() if st.player(n).cash > self.m(300)
                   and n not in a.excluded and not any(d.debtor == n for d in st.debts)]
        rng.shuffle(bidders)
        bid = a.high_bid
        for name in bidders:
            budget = min(int(price * rng.uniform(0.4, 1.1)), st.player(name).cash - self.m(200))
            nxt = max(a.min_bid, bid + self.m(rng.choice((5, 10, 20))))
            if nxt <= budget:
                self.apply(c.Bid(name, nxt), f"bid {name} {nxt}")
                bid = nxt
        tied = richest_bidders(self.state) if self.state.auction.high_bidder is None else []
        if len(tied) > 1:  # nobody bid and the richest tie: the banker says who (000 FAQ 22)
            name = rng.choice(tied)
            self.apply(c.Hammer(player=name), f"hammer {name}")
        else:
            self.apply(c.Hammer(), "hammer")

    # --- what players own ---------------------------------------------------------------------

    def estate_step(self) -> bool:
        """Between turns: settle debts, complete a group by trade, build. True if acted."""
        st, rng = self.state, self.rng
        if st.debts:
            self.settle()
            return True
        if rng.random() < 0.04 and self.group_trade():
            return True
        for name in st.active():
            p = st.player(name)
            lots = ((buildable_lots(st, name, "house") if st.bank_houses else [])
                    + (buildable_lots(st, name, "hotel") if st.bank_hotels else []))
            if lots and rng.random() < 0.5:
                lot = rng.choice(lots)
                if p.cash - st.edition.space(lot).house_cost >= self.m(300):
                    self.apply(c.Build(lot), f"build {self.q(lot)}")
                    return True
            mortgaged = [x for x in deeds_of(st, name) if x in st.mortgaged]
            for lot in mortgaged:
                m = st.edition.space(lot).mortgage
                if p.cash > self.m(900) + m and rng.random() < 0.3:
                    self.apply(c.Unmortgage(lot), f"unmortgage {self.q(lot)}")
                    return True
        return False

    def group_trade(self) -> bool:
        st = self.state
        for group, lots in st.edition.groups.items():
            owners = {st.owners[p] for p in lots}
            if None in owners or len(owners) != 2 or group in ("stazioni", "società"):
                continue
            a, b = sorted(owners)
            mine = [p for p in lots if st.owners[p] == a]
            if any(st.buildings[p] for p in lots):
                continue
            fees = sum(interest(st, st.edition.space(p).mortgage) for p in mine
                       if p in st.mortgaged)
            price = sum(st.edition.space(p).price for p in mine) * 3 // 2
            if st.player(b).cash >= price + fees + self.m(200):
                words = " ".join(self.q(p) for p in mine)
                self.apply(c.Trade(a, b, c.Items(tuple(mine)), c.Items(cash=price)),
                           f"trade {a} {b} --give {words} --get {price}")
                return True
        return False

    def settle(self) -> None:
        st = self.state
        d = st.debts[0]
        name = d.debtor
        owed = sum(x.amount for x in st.debts if x.debtor == name)
        if st.player(name).cash >= d.amount:
            self.apply(c.PayDebt(name), f"pay {name}")
        elif raisable(st, name) < owed:
            self.apply(c.Bankrupt(name), f"bankrupt {name}")
        else:
            built = [p for p in deeds_of(st, name) if st.buildings[p]]
            if built:
                lot = max(built, key=lambda p: st.buildings[p])
                self.apply(c.Sell(lot, 1, True), f"sell {self.q(lot)} all")
            else:
                free = [p for p in deeds_of(st, name) if p not in st.mortgaged]
                lot = min(free, key=lambda p: st.edition.space(p).mortgage)
                self.apply(c.Mortgage(lot), f"mortgage {self.q(lot)}")


def record(seed: int, target: int, to_the_end: bool, rules: str = "classic") -> list[str] | None:
    r = Recorder(seed, rules)
    while not r.state.ended:
        if not to_the_end and len(r.lines) >= target:
            break
        if rules == "vintage" and _bank_paid(r.seen) and r.state.turn.phase == "roll":
            break  # to a bankruptcy paid by the Bank, its land auctioned
        if len(r.lines) > 6000:
            return None  # a game that will not end: try another seed
        if r.state.debts and not to_the_end:
            d = r.state.debts[0]
            if r.state.player(d.debtor).cash < d.amount:
                return None
        if r.state.turn.phase == "auction":
            r.auction()
            continue
        if to_the_end and r.state.turn.phase == "roll" and r.estate_step():
            continue
        if r.state.debts and not to_the_end:
            r.apply(c.PayDebt(r.state.debts[0].debtor), f"pay {r.state.debts[0].debtor}")
            continue
        r.turn_step()
    types = {e["type"] for e in r.seen}
    wanted = {"AuctionWon", "SentToJail", "ExtraRollDue", "CardDrawn", "RentPaid", "LeftJail",
              "JailRollFailed", "PropertyBought", "RentClaimRefused"}
    if rules == "vintage":
        wanted = {"DeedsDealt", "DebtPaidByBank", "BuildingsReturned", "AuctionWon", "RentPaid",
                  "SentToJail", "CardDrawn", "PropertyBought"}
    elif rules == "short":
        wanted = {"DeedsDealt", "HotelBuilt", "GameEnded", "RentPaid", "AuctionWon",
                  "PropertyMortgaged"}
        if not any(e["type"] == "EstateTransferred" and e["data"].get("buildings")
                   for e in r.seen):
            return None
    elif to_the_end:
        wanted |= {"HouseBuilt", "TradeCompleted", "PropertyMortgaged", "GameEnded"}
        if not (_bankrupt_with_mortgage(r.seen) and _bankrupt_to_bank_with_auction(r.seen)):
            return None
    return r.lines if wanted <= types else None


def _bank_paid(events) -> bool:
    return any(e["type"] == "DebtPaidByBank" for e in events)


def _bankrupt_with_mortgage(events) -> bool:
    """A bankruptcy to a player whose estate held a mortgaged deed."""
    for i, e in enumerate(events):
        if e["type"] == "EstateTransferred" and e["data"]["creditor"] != BANK:
            after = events[i + 1:i + 8]
            if any(x["type"] in ("MortgageInterestPaid", "DebtIncurred") for x in after):
                return True
    return False


def _bankrupt_to_bank_with_auction(events) -> bool:
    for i, e in enumerate(events):
        if e["type"] == "BankruptcyDeclared" and e["data"]["creditor"] == BANK:
            if any(x["type"] == "AuctionOpened" for x in events[i + 1:i + 3]):
                return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--commands", type=int, default=180)
    ap.add_argument("--to-the-end", action="store_true")
    ap.add_argument("--rules", default="classic", choices=("classic", "vintage", "short"))
    args = ap.parse_args()
    seed = args.seed
    to_the_end = args.to_the_end or args.rules != "classic"
    while (lines := record(seed, args.commands, to_the_end, args.rules)) is None:
        seed += 1
    if args.rules == "vintage":
        print(f"# A vintage game of four in lire (seed 002), recorded with banco (seed {seed}):")
        print("# deeds dealt and paid at the start, played until a player goes bankrupt to")
        print("# another and the Bank pays the creditor in full, then auctions the land.")
        print("# Replay: banco run fixtures/vintage-to-a-bankruptcy.banco")
    elif args.rules == "short":
        print(f"# A short game of four (004, Regole del gioco breve), recorded with banco (seed "
              f"{seed}):")
        print("# two deeds dealt to each, hotels after three houses, a bankrupt's buildings to")
        print("# his creditor, the end at the second bankruptcy, the richest the winner.")
        print("# Replay: banco run fixtures/short-to-the-end.banco")
    elif args.to_the_end:
        print(f"# A classic game of four played to the last player standing (seed {seed}):")
        print("# bankruptcies to a player holding mortgaged deeds and to the Bank, whose deeds")
        print("# are auctioned one by one.  Replay: banco run fixtures/classic-to-the-end.banco")
    else:
        print(f"# A classic game of four at the Italian board, recorded with banco (seed {seed}).")
        print("# Replay: banco --db demo.db run fixtures/classic-4p.banco")
    print("# A line starting with ! was refused at the table and its refusal recorded.")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
