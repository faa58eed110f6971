"""A hypothesis state machine playing random table actions of every kind — rolls, purchases,
auctions, claims, cards, jail, building, selling, mortgages, trades, debts, bankruptcies — and
checking after every event that:

- money is conserved (players' cash minus what the bank paid out net is zero), nobody's cash
  is negative;
- the bank never holds more than 32 houses and 12 hotels, and with the board it holds exactly
  those; building is even; no lot has buildings while its group has a mortgaged lot; only
  owners of whole groups have buildings; a bankrupt player owns nothing;
- replaying the log from scratch gives exactly the live table.

The rule set is drawn too (every built-in one; championship without the Speedy die until that
branch is merged), with the deeds dealt at the start where the rule set deals them.
"""

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ledger import commands as c
from ledger.decide import decide, start_game
from ledger.errors import RuleViolation
from ledger.estate import buildable_lots
from ledger.rules import load_rules
from ledger.state import evolve, fold
from ledger.worth import deeds_of, raisable
from projections.checks import table_problems

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elio")
RULE_SETS = ("classic", "quick", "championship", "vintage", "euro", "short", "timed")
k = st.integers(0, 10_000)
REPORTED = {"HotelsBrokenUp", "AuctionVoided", "BankruptcyDeclared", "GameEnded", "HotelBuilt", "HouseBuilt", "BuildingSold",
            "TradeCompleted", "MortgageInterestPaid", "PropertyMortgaged", "MortgageLifted",
            "DebtPaid", "AuctionWon", "RentPaid", "RentClaimRefused", "EstateTransferred",
            "JailCardUsed", "DebtCancelled", "DeedsDealt", "TimeRanOut", "RentClaimDeferred",
            "MortgageReverted", "BuildingsReturned", "DebtPaidByBank", "DebtPaidInKind"}


def check_table(t) -> None:
    problems = table_problems(t)
    assert not problems, problems


class Table(RuleBasedStateMachine):
    @initialize(players=st.integers(2, 5), cash=st.sampled_from((1500, 800, 400, 250)),
                warmup=st.integers(0, 400), seed=st.integers(0, 2**32 - 1),
                ruleset=st.sampled_from(RULE_SETS))
    def deal(self, players, cash, warmup, seed, ruleset):
        """A new game by a rule set drawn at random, its deeds dealt where it deals them, then
        `warmup` table actions picked at random the way a table plays, so that examples start
        anywhere between the first roll and the last bankruptcy."""
        import random

        rng = random.Random(seed)
        rules = load_rules(ruleset)
        # The capital drawn, in the board's money (x100 in lire); a table by the number of
        # players (002) scaled the same way.  Where the deeds dealt cannot be paid from it,
        # the rule set's own capital.
        scale = max(1, rules.go_salary // 200)
        table = {n: v * cash // 1500 for n, v in rules.starting_cash_by_players.items()}
        if not (self.start(rules._replace(starting_cash=cash * scale,
                                          starting_cash_by_players=table), players, rng)
                or self.start(rules, players, rng)):
            raise AssertionError("the deeds dealt cannot be paid from the rule set's capital")
        for _ in range(warmup):
            if self.t.ended:
                break
            self.auto(rng)

    def start(self, rules, players: int, rng) -> bool:
        """The game's first facts and the deeds dealt (each player's from the shuffled deck,
        skipping what his cash cannot pay); False if some player cannot be dealt his."""
        from ledger.rules import deeds_to_deal

        self.log = start_game(list(NAMES[:players]), rules, rules.edition)
        for i, e in enumerate(self.log, 1):
            e["seq"] = i
        self.t = fold(self.log, 1)
        self.steps = 0
        k = deeds_to_deal(rules, players)
        deck = [s.position for s in self.t.edition.properties]
        rng.shuffle(deck)
        for name in NAMES[:players] if k else ():
            cash, lots = self.t.player(name).cash, []
            for pos in list(deck):
                price = self.t.edition.space(pos).price
                if len(lots) < k and price <= cash:
                    lots.append(pos)
                    deck.remove(pos)
                    cash -= price
            if len(lots) < k:
                return False
            assert self.do(c.Deal(name, tuple(lots)))
        return True

    def auto(self, rng) -> None:
        n = rng.randrange(10_000)
        if self.t.debts:
            self.settle(n)
        elif self.t.turn.phase == "auction":
            self.bid_or_hammer(n, rng.randrange(60))
        elif self.t.turn.phase == "jail_exit":
            self.jail_exit(n)
        elif self.t.turn.phase in ("buy", "card", "choice"):
            self.whole_turn(rng.randrange(2**32))
        else:
            pick = rng.random()
            if pick < 0.55:
                self.whole_turn(rng.randrange(2**32))
            elif pick < 0.75:
                self.build(n, rng.randint(1, 3))
            elif pick < 0.85:
                self.trade(n, rng.randrange(300), rng.random() < 0.3)
            elif pick < 0.92:
                self.mortgage(n)
            elif sum(b == 5 for b in self.t.buildings) >= 2 and pick < 0.94:
                self.break_up(n)
            elif any(self.t.buildings):
                self.sell(n)

    def do(self, cmd) -> bool:
        try:
            events = decide(self.t, cmd)
        except RuleViolation as refusal:
            events = refusal.record
            if not events:
                return False
        for e in events:
            e["seq"] = len(self.log) + 1
            self.t = evolve(self.t, e)
            self.log.append(e)
            check_table(self.t)
            if e["type"] in REPORTED and currently_in_test_context():
                event(e["type"])  # `pytest --hypothesis-show-statistics` shows how often
        return True

    def open(self):
        return not self.t.ended

    def phase(self, *phases):
        return self.open() and self.t.turn.phase in phases

    def pick(self, seq, n):
        return seq[n % len(seq)] if seq else None

    # --- the turn ---------------------------------------------------------------------------

    @precondition(lambda self: self.phase("roll") and not self.t.debts)
    @rule(d1=st.integers(1, 6), d2=st.integers(1, 6), n=k)
    def roll(self, d1, d2, n):
        p = self.t.current
        if p.in_jail and n % 4 == 0 and p.cash >= 50:
            self.do(c.PayFine())
        elif p.in_jail and p.jail_cards and n % 4 == 1:
            self.do(c.UseCard())
        else:
            assert self.do(c.Roll((d1, d2))), "a legal roll was refused"

    @precondition(lambda self: self.phase("roll") and not self.t.debts)
    @rule(seed=st.integers(0, 2**32 - 1))
    def whole_turn(self, seed):
        """One player's whole turn as a table plays it: roll, buy or auction, draw, claim."""
        import random

        rng = random.Random(seed)
        player = self.t.turn.player
        for _ in range(12):
            if self.t.ended or self.t.debts:
                return
            ph = self.t.turn.phase
            if ph == "auction" and self.t.auction.kind != "deed":
                self.bid_or_hammer(rng.randrange(10_000), rng.randrange(60))
                continue
            if ph == "roll":
                if self.t.turn.player != player:
                    return
                self.roll(rng.randint(1, 6), rng.randint(1, 6), rng.randrange(10_000))
            elif ph == "buy":
                self.offer(rng.randrange(10_000))
            elif ph == "auction":
                self.bid_or_hammer(rng.randrange(10_000), rng.randrange(60))
            elif ph in ("card", "choice"):
                self.card(rng.randrange(10_000))
            elif ph == "jail_exit":
                self.jail_exit(rng.randrange(10_000))
            for claim in list(self.t.claims):
                if rng.random() < 0.9 and claim in self.t.claims:
                    self.do(c.Claim(claim.owner))

    @precondition(lambda self: self.phase("jail_exit"))
    @rule(n=k)
    def jail_exit(self, n):
        """The last failed try with a card in hand: the card or the fine (000 FAQ 17)."""
        assert self.do(c.UseCard() if n % 2 else c.PayFine())

    @precondition(lambda self: self.phase("buy"))
    @rule(n=k)
    def offer(self, n):
        price = self.t.edition.space(self.t.turn.offer).price
        if n % 3 and self.t.current.cash >= price and not self.t.debts:
            assert self.do(c.Buy())
        else:
            assert self.do(c.Decline())

    @precondition(lambda self: self.phase("auction"))
    @rule(n=k, extra=st.integers(0, 60))
    def bid_or_hammer(self, n, extra):
        a = self.t.auction
        if n % 3 == 0 or a.bids > 5:
            lot = None
            if a.kind != "deed" and a.high_bidder:
                from ledger.shortage import winner_lots

                lot = self.pick(winner_lots(self.t), n)
            self.do(c.Hammer(lot))
            return
        bidder = self.pick(self.t.active(), n)
        low = a.min_bid if a.high_bidder is None else a.high_bid + a.step
        self.do(c.Bid(bidder, min(low + extra, self.t.player(bidder).cash)))

    @precondition(lambda self: self.open() and any(not cl.made_seq for cl in self.t.claims))
    @rule(n=k)
    def claim(self, n):
        # a claim already made waits for its turn to end (000 FAQ 8): asking again is refused
        owner = self.pick([cl for cl in self.t.claims if not cl.made_seq], n).owner
        assert self.do(c.Claim(owner))

    @precondition(lambda self: self.phase("card", "choice"))
    @rule(n=k)
    def card(self, n):
        t = self.t.turn
        if t.phase == "choice":
            deck, number = t.card_choice
            assert self.do(c.DrawCard(deck, number, "pay" if n % 2 else "draw"))
            return
        from ledger.decks import drawable

        assert self.do(c.DrawCard(t.card_deck, self.pick(drawable(self.t, t.card_deck), n)))

    # --- what players own -------------------------------------------------------------------

    @precondition(lambda self: self.open())
    @rule(n=k, count=st.integers(1, 3))
    def build(self, n, count):
        options = [(p, lot) for p in self.t.active() for kind in ("house", "hotel")
                   for lot in buildable_lots(self.t, p, kind)]
        if options:
            player, lot = self.pick(options, n)
            self.do(c.Build(lot, count))

    @precondition(lambda self: self.open() and any(self.t.buildings))
    @rule(n=k)
    def sell(self, n):
        lot = self.pick([p for p, b in enumerate(self.t.buildings) if b], n)
        self.do(c.Sell(lot, 1, n % 4 == 0))

    @precondition(lambda self: self.open() and sum(b == 5 for b in self.t.buildings) >= 2)
    @rule(n=k)
    def break_up(self, n):
        hotels = [p for p, b in enumerate(self.t.buildings) if b == 5]
        self.do(c.BreakUp(tuple(hotels[: 2 + n % max(1, len(hotels) - 1)])))

    @precondition(lambda self: self.open() and any(self.t.owners))
    @rule(n=k)
    def mortgage(self, n):
        lot = self.pick([p for p, o in enumerate(self.t.owners) if o], n)
        if lot is None:  # reached from the warm-up, which does not check preconditions
            return
        if lot in self.t.mortgaged:
            self.do(c.Unmortgage(lot))
        else:
            self.do(c.Mortgage(lot))

    @precondition(lambda self: self.open() and len(self.t.active()) >= 2)
    @rule(n=k, cash=st.integers(0, 300), lift=st.booleans())
    def trade(self, n, cash, lift):
        """Mostly the deal that completes a colour group; sometimes any deed for cash."""
        t = self.t
        deals = []
        for group in t.edition.groups.values():
            owners = [t.owners[p] for p in group]
            for b in set(owners) - {None}:
                missing = [p for p in group if t.owners[p] not in (b,)]
                sellers = {t.owners[p] for p in missing}
                if len(sellers) == 1 and None not in sellers and not t.player(b).bankrupt:
                    deals.append((sellers.pop(), b, tuple(missing)))
        if deals and n % 4:
            a, b, give = self.pick(deals, n)
        else:
            a = self.pick(t.active(), n)
            b = self.pick([x for x in t.active() if x != a], n // 7)
            deeds = deeds_of(t, a)
            give = (self.pick(deeds, n),) if deeds else ()
        pay = min(cash, t.player(b).cash)
        lifted = tuple(p for p in give if lift and p in t.mortgaged)
        self.do(c.Trade(a, b, c.Items(give), c.Items(cash=pay), lifted))

    @precondition(lambda self: self.open() and self.t.rules.time_limit != "none"
                  and not self.t.time_up)
    @rule(n=k)
    def time_up(self, n):
        """The agreed time runs out (000 FAQ 6, 002, 004 timed): now and then."""
        if n % 8 == 0:
            assert self.do(c.TimeUp("2026-11-29T23:00:00.000000Z"))

    @precondition(lambda self: self.open() and self.t.debts)
    @rule(n=k)
    def settle(self, n):
        d = self.t.debts[0]
        if self.t.rules.pay_in_kind and d.creditor != "bank" and n % 3 == 0 and self.in_kind(d, n):
            return
        if self.t.player(d.debtor).cash >= d.amount:
            assert self.do(c.PayDebt(d.debtor))
        elif raisable(self.t, d.debtor) < sum(x.amount for x in self.t.debts
                                              if x.debtor == d.debtor):
            if not self.t.auction:
                assert self.do(c.Bankrupt(d.debtor)), "a bankruptcy that was due was refused"
        else:  # raise money: sell a building, else mortgage a deed
            built = [p for p in deeds_of(self.t, d.debtor) if self.t.buildings[p]]
            if built:
                assert self.do(c.Sell(self.pick(built, n), 1, True))
            else:
                free = [p for p in deeds_of(self.t, d.debtor) if p not in self.t.mortgaged]
                assert self.do(c.Mortgage(self.pick(free, n)))

    def in_kind(self, d, n) -> bool:
        """002 §Varie: a free deed at the creditor's price, the rest in cash; or the deed
        auctioned among the others for the debtor."""
        t = self.t
        free = [p for p in deeds_of(t, d.debtor) if not any(
            t.buildings[q] for q in t.edition.groups[t.edition.space(p).group])]
        if not free:
            return False
        lot = self.pick(free, n)
        if n % 2 and not t.auction:
            return self.do(c.AuctionDeed(lot))
        price = min(d.amount, max(1, t.edition.space(lot).price * (1 + n % 3) // 2))
        if d.amount - price > t.player(d.debtor).cash:
            return False
        assert self.do(c.PayInKind(((lot, price),), d.debtor))
        return True

    @precondition(lambda self: self.open() and not self.t.auction and self.t.bank_houses < 4)
    @rule(kind=st.sampled_from(("house", "hotel")))
    def building_auction(self, kind):
        from ledger.shortage import room_for

        room = {n: room_for(self.t, n, kind) for n in self.t.active()}
        self.do(c.BuildingAuction(kind, tuple((n, min(r, 3)) for n, r in room.items() if r)))

    @rule()
    def look(self):
        """A referee looks at the table: the read models work on every table, even at the end."""
        from cli.render import state_document
        from ledger.state import next_step
        from projections.accounts import standings

        doc = state_document(self.t)
        assert len(doc["properties"]) == 28
        rows = standings(self.t)
        assert [r["rank"] for r in rows] == list(range(1, len(self.t.players) + 1))
        assert next_step(self.t)

    # --- the invariant that needs the whole log ---------------------------------------------

    @invariant()
    def replay_gives_the_live_table(self):
        if not hasattr(self, "t"):
            return
        self.steps += 1
        if self.steps % 10 == 0 or self.t.ended:
            assert fold(self.log, 1) == self.t


Table.TestCase.settings = settings(max_examples=200, stateful_step_count=50, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow])
TestTable = Table.TestCase
