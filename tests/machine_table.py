"""The hypothesis state machine that plays random table actions of every kind, checking every
event, command and replay as it goes (tests/test_machine.py says what and why)."""

from __future__ import annotations

import random

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)
from machine_model import (
    ACCEPTED,
    KNOWN_REFUSED,
    NAMES,
    REPORTED,
    RULE_SETS,
    TRIED,
    WHY,
    k,
    model_build,
    model_buy,
    model_mortgage,
    model_unmortgage,
    model_wanting,
    stored,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.board.rule_sets import load_rules
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide, start_game
from banco.ledger.rules.ending import open_rent
from banco.ledger.rules.estate import buildable_lots
from banco.ledger.table.state import evolve, fold, replay
from banco.ledger.table.worth import deeds_of, raisable
from banco.projections.audit.books import delta_problems, entries
from banco.projections.audit.checks import EventChecks


class Table(RuleBasedStateMachine):
    @initialize(players=st.integers(2, 5), cash=st.sampled_from((1500, 800, 400, 250, 5000, 5000)),
                warmup=st.integers(0, 400), seed=st.integers(0, 2**32 - 1),
                rules=st.sampled_from(RULE_SETS))
    def deal(self, players, cash, warmup, seed, rules="classic"):
        """A new game under a rule set drawn at random, its deeds dealt where it deals them,
        then `warmup` table actions picked at random the way a table plays, so that examples
        start anywhere between the first roll and the last bankruptcy."""
        rng = random.Random(seed)
        ruleset = load_rules(rules)
        # The capital drawn, in the board's money (x100 in lire); a table by the number of
        # players (002) scaled the same way.  Where the deeds dealt cannot be paid from it,
        # the rule set's own capital.
        scale = max(1, ruleset.go_salary // 200)
        table = {n: v * cash // 1500 for n, v in ruleset.starting_cash_by_players.items()}
        if not (self.start(ruleset._replace(starting_cash=cash * scale,
                                            starting_cash_by_players=table), players, rng)
                or self.start(ruleset, players, rng)):
            raise AssertionError("the deeds dealt cannot be paid from the rule set's capital")
        for i in range(warmup):
            if self.t.ended:
                break
            self.auto(rng)
            if cash >= 5000 and i % 20 == 19:  # a rich table builds until houses run short
                self.trade(rng.randrange(10_000), 0, False)
                if self.open():  # a trade may be the last fact of a timed game (000 FAQ 6)
                    self.build_out(rng.randrange(10_000))

    def start(self, rules, players: int, rng) -> bool:
        """The game's first facts and the deeds dealt (each player's from the shuffled deck,
        skipping what his cash cannot pay); False if some player cannot be dealt his."""
        from banco.ledger.board.rule_sets import deeds_to_deal

        self.log = start_game(list(NAMES[:players]), rules, rules.edition)
        for i, e in enumerate(self.log, 1):
            e["seq"] = i
        steps = replay(self.log, 1)
        _, self.t = next(steps)
        self.checks = EventChecks(self.t)
        assert self.checks.start() == []
        for e, after in steps:  # the starting cash, through the same checks
            assert self.checks.after(self.t, e, after) == [], e
            self.t = after
        self.t = self.t._replace(seq=len(self.log))
        self.replayed = fold([stored(e) for e in self.log], 1)
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
            self.do(c.Deal(name, tuple(lots)), legal=True)
        return True

    def auto(self, rng) -> None:
        n = rng.randrange(10_000)
        if self.t.debts:
            self.settle(n)
        elif self.t.turn.phase == "auction":
            self.bid_or_hammer(n, rng.randrange(60))
        elif self.t.turn.phase == "jail_exit":
            self.jail_exit(n)
        elif self.t.turn.phase in ("buy", "card", "choice", "move", "go", "advance"):
            self.whole_turn(rng.randrange(2**32))
        else:
            pick = rng.random()
            if pick < 0.5:
                self.whole_turn(rng.randrange(2**32))
            elif pick < 0.75:
                self.build(n, rng.randint(1, 4))
            elif pick < 0.85:
                self.trade(n, rng.randrange(300), rng.random() < 0.3)
            elif pick < 0.92:
                self.mortgage(n)
            elif sum(b == 5 for b in self.t.buildings) >= 2 and pick < 0.94:
                self.break_up(n)
            elif pick < 0.96:
                self.build_out(n)
            elif any(self.t.buildings):
                self.sell(n)

    def do(self, cmd, legal: bool | None = None) -> bool:
        """Decide and apply one command, checking everything; `legal` is what the model says
        (None: no opinion)."""
        kind = type(cmd).__name__
        TRIED[kind] += 1
        if legal is False:
            KNOWN_REFUSED[kind] += 1
        before = self.t
        try:
            events = decide(self.t, cmd)
        except RuleViolation as refusal:
            assert legal is not True, f"the model says {cmd} is legal, the rules refused: {refusal}"
            events = refusal.record
            WHY[kind, refusal.rule or " ".join(refusal.message.split()[:4]) + "..."] += 1
            if currently_in_test_context():
                event(f"refused: {kind}")
            if not events:
                return False
        else:
            assert legal is not False, f"the model says {cmd} is not legal, the rules accepted it"
            ACCEPTED[kind] += 1
        moved = []
        for e in events:
            e["seq"] = len(self.log) + 1
            prev, self.t = self.t, evolve(self.t, e)
            self.log.append(e)
            problems = self.checks.after(prev, e, self.t)
            assert not problems, (e, problems)
            moved += entries(e)
            self.replayed = evolve(self.replayed, stored(e))
            if e["type"] in REPORTED and currently_in_test_context():
                event(e["type"])  # `pytest --hypothesis-show-statistics` shows how often
        assert delta_problems(before, moved, self.t) == [], (cmd, events)
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
        # Once the time is up, no new turn begins while rent is still to be asked: the game
        # waits for the claim or a second `time-up` (000 FAQ 6; ledger/rules/ending.py no_new_turn).
        legal = not (self.t.time_up and open_rent(self.t))
        if p.in_jail and n % 4 == 0 and p.cash >= self.t.rules.jail_fine:
            self.do(c.PayFine(), legal=legal or None)
        elif p.in_jail and p.jail_cards and n % 4 == 1:
            self.do(c.UseCard(), legal=legal or None)
        else:
            self.do(c.Roll((d1, d2), speedy=self.speedy_face(p, n)), legal=legal)

    def speedy_face(self, p, n):
        """The Speedy die under a rule set that has it: always once the player has passed Via!
        (out of jail), sometimes before or in jail, where it is ignored (000 FAQ 34-35).  Mr
        Monopoly is on two of its six faces."""
        if not self.t.rules.speedy_die:
            return None
        if (p.passed_go and not p.in_jail) or n % 3 == 0:
            return ("1", "2", "3", "bus", "mr", "mr")[n // 3 % 6]
        return None

    @precondition(lambda self: self.phase("move"))
    @rule(n=k)
    def bus(self, n):
        from banco.ledger.table.speedy_die import choices_of

        self.do(c.BusMove(self.pick(choices_of(self.t.turn), n)), legal=True)

    @precondition(lambda self: self.phase("go"))
    @rule(n=k)
    def triple(self, n):
        self.do(c.GoTo(n % 40), legal=True)

    @precondition(lambda self: self.phase("advance"))
    @rule()
    def advance(self):
        # refused only while the mover owes money from the first square (000 FAQ 42)
        owes = any(d.debtor == self.t.turn.player for d in self.t.debts)
        self.do(c.Advance(), legal=None if owes else True)

    @precondition(lambda self: self.phase("roll") and not self.t.debts)
    @rule(seed=st.integers(0, 2**32 - 1))
    def whole_turn(self, seed):
        """One player's whole turn as a table plays it: roll, buy or auction, draw, claim."""
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
            elif ph == "move":
                self.bus(rng.randrange(10_000))
            elif ph == "go":
                self.triple(rng.randrange(10_000))
            elif ph == "advance":
                self.advance()
            elif ph == "jail_exit":
                self.jail_exit(rng.randrange(10_000))
            for claim in list(self.t.claims):
                # a claim already made waits for its turn to end (000 FAQ 8)
                if rng.random() < 0.9 and claim in self.t.claims and not claim.made_seq:
                    self.do(c.Claim(claim.owner), legal=True)

    @precondition(lambda self: self.phase("jail_exit") and not self.t.debts)
    @rule(n=k)
    def jail_exit(self, n):
        """The last failed try with a card in hand: the card or the fine (000 FAQ 17).  Short
        of the fine with no card, it is a debt that `settle` pays before the move."""
        assert self.do(c.UseCard() if n % 2 else c.PayFine())

    @precondition(lambda self: self.phase("buy"))
    @rule(n=k)
    def offer(self, n):
        """Mostly buy when the cash allows; now and then try without it (refused) or decline."""
        if n % 3 == 0:
            self.do(c.Decline(), legal=True)
        elif model_buy(self.t) or n % 7 == 1:
            self.do(c.Buy(), legal=model_buy(self.t))
        else:
            self.do(c.Decline(), legal=True)

    @precondition(lambda self: self.phase("auction"))
    @rule(n=k, extra=st.integers(0, 60))
    def bid_or_hammer(self, n, extra):
        a = self.t.auction
        if n % 3 == 0 or a.bids > 5:
            lot, player, legal = None, None, True
            if a.kind == "deed" and not a.high_bidder:
                from banco.ledger.table.state import richest_bidders

                # Nobody bid: the richest takes it at the opening bid (000 FAQ 22); with a tie of
                # cash the banker names one of them.
                tied = richest_bidders(self.t)
                if len(tied) > 1:
                    player = self.pick(tied, n)
            if a.kind != "deed" and a.high_bidder:
                from banco.ledger.rules.shortage import winner_lots

                # A winner who sold or mortgaged since his bid has nowhere to build: the
                # hammer voids his win and reopens without him (the test at the end of this
                # file), so it is always accepted.
                lot = self.pick(winner_lots(self.t), n)
            self.do(c.Hammer(lot, player), legal=legal)
            return
        # A building auction: only those who announced a want still unmet bid (000 FAQ 30),
        # each from the house price of his own cheapest lot under classic (004 §Mancanza).
        keen = {b for b, left in a.wanted if left} if a.wanted else None
        # A debtor auctioning his own deed does not bid for it (002 §Varie).
        bidders = [b for b in self.t.active() if b not in a.excluded and b != a.seller
                   and not any(d.debtor == b for d in self.t.debts)
                   and (a.kind == "deed" or (buildable_lots(self.t, b, a.kind)
                                             and (keen is None or b in keen)))]
        low = a.min_bid if a.high_bidder is None else a.high_bid + a.step

        def floor_of(b):
            if a.kind == "deed" or self.t.rules.building_auction_opening != "house_price":
                return low
            from banco.ledger.rules.shortage import floor

            return max(low, floor(self.t, b, a.kind))

        rich = [b for b in bidders if self.t.player(b).cash >= floor_of(b)]
        if rich and n % 5:
            bidder = self.pick(rich, n)
            self.do(c.Bid(bidder, min(floor_of(bidder) + extra, self.t.player(bidder).cash)),
                    legal=True)
        else:  # anyone, for anything up to his cash: often refused, never wrongly accepted
            bidder = self.pick(self.t.active(), n)
            amount = min(low + extra, self.t.player(bidder).cash)
            self.do(c.Bid(bidder, amount),
                    legal=False if bidder not in bidders or amount < low else None)

    @precondition(lambda self: self.open() and any(not cl.made_seq for cl in self.t.claims))
    @rule(n=k)
    def claim(self, n):
        # a claim already made waits for its turn to end (000 FAQ 8): asking again is refused
        waiting = [cl for cl in self.t.claims if not cl.made_seq]
        if waiting:
            self.do(c.Claim(self.pick(waiting, n).owner), legal=True)

    @precondition(lambda self: self.phase("card", "choice"))
    @rule(n=k)
    def card(self, n):
        t = self.t.turn
        if t.phase == "choice":
            deck, number = t.card_choice
            self.do(c.DrawCard(deck, number, "pay" if n % 2 else "draw"), legal=True)
            return
        from banco.ledger.table.decks import drawable

        self.do(c.DrawCard(t.card_deck, self.pick(drawable(self.t, t.card_deck), n)), legal=True)

    # --- what players own -------------------------------------------------------------------

    @precondition(lambda self: self.open())
    @rule(n=k, count=st.integers(1, 3))
    def build(self, n, count):
        """Mostly a lot the model allows, one building at a time (up to `count` in a row);
        sometimes any street of a complete group, to see the refusals match the model."""
        t = self.t
        whole = [p for p in range(40) if t.owners[p] and t.edition.space(p).kind == "street"
                 and all(t.owners[q] == t.owners[p] for q in t.edition.groups[t.edition.space(p).group])]
        legal = [p for p in whole if model_build(t, p)]
        lot = self.pick(legal if legal and n % 4 else whole, n)
        if lot is None:
            return
        for _ in range(count):
            if not self.do(c.Build(lot, 1), legal=model_build(self.t, lot)):
                return

    @precondition(lambda self: self.open())
    @rule(n=k)
    def build_out(self, n):
        """The builders take turns buying houses (not hotels, which give houses back) as far as
        their cash goes, until the Bank has one left: then two of them want it, and it goes to
        auction (004 §Mancanza di edifici)."""
        for _ in range(40):
            t = self.t
            if t.bank_houses <= 1:
                break
            built = False
            for player in t.active():
                lots = [p for p in deeds_of(t, player)
                        if t.buildings[p] < t.rules.houses_for_hotel and model_build(t, p)]
                if lots and self.t.bank_houses > 1:
                    self.do(c.Build(self.pick(lots, n), 1), legal=True)
                    built = True
            if not built:
                break
        if (not self.t.auction and not self.t.debts and self.t.bank_houses <= 1
                and len(model_wanting(self.t, "house")) >= 2):
            self.building_auction("house")

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
            self.do(c.Unmortgage(lot), legal=model_unmortgage(self.t, lot))
        else:
            self.do(c.Mortgage(lot), legal=model_mortgage(self.t, lot))

    @precondition(lambda self: self.open() and len(self.t.active()) >= 2)
    @rule(n=k, cash=st.integers(0, 300), lift=st.booleans())
    def trade(self, n, cash, lift):
        """Mostly the deal that completes a colour group; sometimes any deed for cash."""
        t = self.t
        if len(t.active()) < 2:  # the warm-up calls this without the rule's precondition
            return
        deals = []
        for group in t.edition.groups.values():
            owners = [t.owners[p] for p in group]
            for b in sorted(set(owners) - {None}):
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
            self.do(c.TimeUp("2026-11-29T23:00:00.000000Z"), legal=True)

    @precondition(lambda self: self.open() and self.t.debts)
    @rule(n=k)
    def settle(self, n):
        d = self.t.debts[0]
        if self.t.rules.pay_in_kind and d.creditor != "bank" and n % 3 == 0 and self.in_kind(d, n):
            return
        if self.t.player(d.debtor).cash >= d.amount:
            self.do(c.PayDebt(d.debtor), legal=True)
        elif raisable(self.t, d.debtor) < sum(x.amount for x in self.t.debts
                                              if x.debtor == d.debtor):
            if not self.t.auction:
                self.do(c.Bankrupt(d.debtor), legal=True)
        else:  # raise money: sell a building, else mortgage a deed (or try to pay too soon)
            built = [p for p in deeds_of(self.t, d.debtor) if self.t.buildings[p]]
            if n % 5 == 0:
                self.do(c.PayDebt(d.debtor), legal=False)
            elif built:
                self.do(c.Sell(self.pick(built, n), 1, True), legal=True)
            else:
                free = [p for p in deeds_of(self.t, d.debtor) if p not in self.t.mortgaged]
                lot = self.pick(free, n)
                self.do(c.Mortgage(lot), legal=model_mortgage(self.t, lot))

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
        return self.do(c.PayInKind(((lot, price),), d.debtor), legal=True)

    @precondition(lambda self: self.open() and not self.t.auction and self.t.bank_houses < 8)
    @rule(kind=st.sampled_from(("house", "hotel")))
    def building_auction(self, kind):
        """Asked for when buildings run short, each player announcing how many he wants.
        Fewer than two players who could build one cannot hold an auction for it (004
        §Mancanza di edifici)."""
        from banco.ledger.rules.shortage import room_for

        stock = self.t.bank_houses if kind == "house" else self.t.bank_hotels
        room = {n: room_for(self.t, n, kind) for n in self.t.active()}
        wanted = tuple((n, min(r, 3)) for n, r in room.items() if r)
        # no shortage when the Bank has as many as are wanted: each buys at the deed's price
        few = (len(model_wanting(self.t, kind)) < 2 or stock < 1
               or stock >= sum(k for _, k in wanted))
        self.do(c.BuildingAuction(kind, wanted), legal=False if few else None)

    @rule()
    def look(self):
        """A referee looks at the table: the read models work on every table, even at the end."""
        from banco.cli.words.table_text import state_document
        from banco.ledger.table.state import next_step
        from banco.projections.readings.accounts import standings

        doc = state_document(self.t)
        assert len(doc["properties"]) == 28
        rows = standings(self.t)
        ranks = [r["rank"] for r in rows]  # 1, 1, 3: tied players share a rank
        assert len(ranks) == len(self.t.players) and ranks[:1] == [1]
        assert all(r in (ranks[i - 1], i + 1) for i, r in enumerate(ranks) if i)
        assert next_step(self.t)

    # --- replay -------------------------------------------------------------------------------

    @invariant()
    def replay_gives_the_live_table(self):
        """At every step: the table replayed from the stored form of the log is the live one;
        at the end of a game, so is the whole log folded again from GameStarted."""
        if not hasattr(self, "t"):
            return
        assert self.replayed == self.t
        if self.t.ended:
            self.whole_log_gives_the_live_table()

    def whole_log_gives_the_live_table(self):
        """The whole log, in its stored form, folded again from GameStarted is the live table:
        once per log and table (a game that has ended is looked at step after step, its log
        unchanged; folding the same events again checked nothing new, and was a third of the
        machine's time)."""
        length, table = getattr(self, "folded", (None, None))
        if length == len(self.log) and table is self.t:
            return
        assert fold([stored(e) for e in self.log], 1) == self.t
        self.folded = (len(self.log), self.t)

    def teardown(self):
        if hasattr(self, "t"):
            self.whole_log_gives_the_live_table()
            # the table as a snapshot keeps it (ledger/snapshot_check.py), read back: the same
            from helpers import same_table

            from banco.ledger.table.snapshot_codec import decode, encode
            from banco.ledger.table.state import initial_state

            dealt = initial_state(1, next(e for e in self.log if e["type"] == "GameStarted"))
            assert same_table(decode(encode(self.t), dealt), self.t)
