"""The table as a value, and `evolve`: the one fold that rebuilds it from events.

`evolve` applies facts.  It never checks a rule and never computes an amount: every figure it
uses is in the event.  State is made of named tuples so that a step copies only what changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ledger.base.errors import UsageError
from ledger.base.text import Fact, Joined, Text, both, msg
from ledger.board.edition import Edition, load_edition
from ledger.board.rule_sets import RuleSet, deeds_to_deal

BANK = "bank"


class Player(NamedTuple):
    name: str
    cash: int = 0
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    jail_cards: tuple = ()  # ((deck, number), ...)
    bankrupt: bool = False
    passed_go: bool = False  # has passed Via! at least once: rolls the Speedy die (000 FAQ 34)


class Claim(NamedTuple):
    payer: str
    owner: str
    property: int
    amount: int
    opened_seq: int
    closer: str  # whose roll closes the window
    basis: str  # how the amount was worked out, for the referee
    lapsed_seq: int = 0
    landed_seq: int = 0  # the TokenMoved that landed the payer: the evidence of the claim
    made_seq: int = 0  # claimed while another roll's turn was in progress: paid after it
    settle_after: str = ""  # whose turn must end first (000 FAQ 8)


class Auction(NamedTuple):
    property: int | None  # the deed, or None for a building auction
    min_bid: int
    step: int
    high_bidder: str | None = None
    high_bid: int = 0
    bids: int = 0
    kind: str = "deed"  # deed | house | hotel
    resume: str = "moving"  # the turn's phase once the auctions are over
    excluded: tuple = ()  # winners who could not pay, kept out of the new auction (000)
    wanted: tuple = ()  # building auctions: ((player, still wanted), ...) (000 FAQ 30)
    seller: str | None = None  # a debtor auctioning his own deed: the winner pays him (002)


class Debt(NamedTuple):
    debtor: str
    creditor: str
    amount: int
    reason: str
    seq: int


class DeckOrder(NamedTuple):
    """What the table knows of a card deck's order (003 §09: a drawn card goes to the bottom).

    Since the deck was last mixed, the cards never seen lie on top in an order nobody knows;
    under them, in the order they went there, the cards put back at the bottom.  Once every
    card has been seen the whole order is known.  Held jail cards are in neither part."""
    unseen: frozenset  # numbers on top, order unknown
    known: tuple = ()  # ((number, seq at which it went to the bottom), ...), top to bottom


class Turn(NamedTuple):
    player: str
    # roll | buy | auction | card | choice | throw | jail_exit | over, and with the Speedy die
    # (000 §SVOLGIMENTO 3): move (a Bus: `move N`), go (a triple: `go SPACE`), advance (Mr
    # Monopoly's second move: `advance`)
    phase: str = "roll"
    doubles: int = 0  # doubles in a row this turn
    dice: tuple = ()
    extra_roll: bool = False
    offer: int | None = None  # property offered for purchase
    card_deck: str | None = None  # deck the player must draw from
    card_choice: tuple | None = None  # (deck, number) of a "pay or draw" card awaiting the choice
    card_throw: tuple | None = None  # phase "throw": (multiplier, landed seq): the rent is
    # that many times a fresh throw, and the claim points at that landing
    # The Speedy die's face while it counts for this roll: "mr" until Mr Monopoly's move is
    # made (then None: the move is used, the throw it leaves counts the Speedy die as zero).
    speedy: str | None = None


class State(NamedTuple):
    game_id: int
    seq: int
    rules: RuleSet
    edition: Edition
    seats: tuple  # player names in seating order
    # name -> seat (never changes after GameStarted).  The field shadows tuple.index, which
    # nothing calls on a State: mypy objects to the override, the runtime value is the field.
    index: dict  # type: ignore[assignment]
    players: tuple
    owners: tuple  # 40 entries: owner name or None
    mortgaged: frozenset
    buildings: tuple  # 40 entries: 0-4 houses, 5 = hotel
    bank_houses: int
    bank_hotels: int
    turn: Turn
    claims: tuple  # open rent claims
    lapsed: tuple  # claims whose window closed, kept as evidence
    auction: Auction | None
    debts: tuple
    held_cards: dict  # (deck, number) -> holder
    bank_paid_out: int  # net money the bank has paid to players
    ended: bool = False
    winner: str | None = None
    auction_queue: tuple = ()  # deeds of a player bankrupt to the bank, auctioned one by one
    eliminated: tuple = ()  # bankrupt players, in the order they went out
    decks: dict = {}  # deck name -> DeckOrder
    dealt: dict = {}  # name -> deeds dealt before the first roll (002, 004 short and timed)
    final: bool = False  # a championship final or semi-final (000 FAQ 31 does not apply)
    time_up: tuple = ()  # (at, how the game ends): the time limit ran out (000 FAQ 6, 002)
    end_rule: str = ""  # the section that ended the game, for the refusals after it
    last_roll: tuple = ()  # (player, seq) of the last DiceRolled: whose turn it has been
    since_roll: frozenset = frozenset()  # deeds mortgaged since then (000 FAQ 32)

    def player(self, name: str) -> Player:
        return self.players[self.index[name]]

    @property
    def current(self) -> Player:
        return self.players[self.index[self.turn.player]]

    def active(self) -> list[str]:
        return [p.name for p in self.players if not p.bankrupt]


def _fast_replace(cls):
    """A `_replace` for a named tuple that copies by position: the fold spends most of its
    time here, and the generic one calls a Python-level pop for every field."""
    positions = {f: i for i, f in enumerate(cls._fields)}
    new = tuple.__new__

    def _replace(self, **changes):
        values = list(self)
        for key, value in changes.items():
            values[positions[key]] = value
        return new(cls, values)

    cls._replace = _replace


for _cls in (State, Player, Turn):
    _fast_replace(_cls)


def with_seq(state: State, seq: int) -> State:
    """`state._replace(seq=seq)`, the one change made after every event of a command: by
    position, without the keyword dict and the loop."""
    values = list(state)
    values[1] = seq
    return _new_tuple(State, values)


_new_tuple = tuple.__new__


def _set_player(state: State, name: str, **changes) -> State:
    i = state.index[name]
    players = state.players
    new = players[i]._replace(**changes)
    return state._replace(players=players[:i] + (new,) + players[i + 1:])


def _transfer(state: State, d: dict) -> State:
    # One _replace per transfer: the fold's hot path (DESIGN.md: >= 200,000 events/s).
    payer, payee, amount = d["payer"], d["payee"], d["amount"]
    players = state.players
    index = state.index
    paid_out = state.bank_paid_out
    if payer == BANK:
        paid_out += amount
    else:
        i = index[payer]
        p = players[i]
        players = players[:i] + (p._replace(cash=p.cash - amount),) + players[i + 1:]
    if payee == BANK:
        paid_out -= amount
    else:
        i = index[payee]
        p = players[i]
        players = players[:i] + (p._replace(cash=p.cash + amount),) + players[i + 1:]
    return state._replace(players=players, bank_paid_out=paid_out)


def _set_at(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1:]


def richest_bidders(state: State) -> list[str]:
    """Who takes a deed nobody bid for, when the rule set says the richest (000 FAQ 22): the
    players with the most cash who could bid (in play, not kept out, not in debt, with the
    opening bid in hand).  More than one: the banker says who."""
    a = state.auction
    assert a is not None  # only asked while an auction is open
    debtors = {d.debtor for d in state.debts}
    able = [p for p in state.players if not p.bankrupt and p.name not in a.excluded
            and p.name not in debtors and p.cash >= a.min_bid]
    if not able:
        return []
    most = max(p.cash for p in able)
    return [p.name for p in able if p.cash == most]


def _amount(state: State, amount: int) -> str:
    return state.edition.money(amount)


def debt_step(state: State, debtor: str) -> Text:
    """What a debtor must do: raise the money and pay, or go bankrupt if it cannot be raised
    (003 §10)."""
    from ledger.table.worth import raisable

    debts = [d for d in state.debts if d.debtor == debtor]
    owed = sum(d.amount for d in debts)
    to = Joined([msg("{amount} to {creditor} ({reason})", amount=_amount(state, d.amount),
                     creditor=msg("the Bank") if d.creditor == BANK else d.creditor,
                     reason=Fact(d.reason)) for d in debts], ", ")
    cash = state.player(debtor).cash
    if cash >= debts[0].amount:
        return msg("{debtor} owes {to} and has the cash: `pay {debtor}`", debtor=debtor, to=to)
    can = raisable(state, debtor)
    if can < owed:
        return msg("{debtor} owes {to} and can raise only {can}: `bankrupt {debtor}`",
                   debtor=debtor, to=to, can=_amount(state, can))
    return msg("{debtor} owes {to} with {cash} in cash: raise {amount} (`sell`, `mortgage`, "
               "`trade`), then `pay {debtor}`", debtor=debtor, to=to, cash=_amount(state, cash),
               amount=_amount(state, debts[0].amount - cash))


def hammer_step(state: State) -> Text:
    """What `hammer` does now, in the words to type."""
    a = state.auction
    assert a is not None  # only asked while an auction is open
    if a.high_bidder is not None:
        return msg("`hammer`") if a.kind == "deed" else msg("`hammer [PROPERTY]` (where it goes)")
    if a.kind != "deed":
        return msg("`hammer` (no bid: the {kind} stays with the Bank)", kind=msg(a.kind))
    if state.rules.auction_no_bid != "richest":
        return msg("`hammer` (no bid: the deed stays with the Bank)")
    tied = richest_bidders(state)
    if not tied:
        return msg("`hammer` (no bid, and nobody can pay the opening bid: the deed stays unsold)")
    if len(tied) == 1:
        return msg("`hammer` (no bid: {player}, the richest, takes it at {min_bid}, 000 FAQ 22)",
                   player=tied[0], min_bid=_amount(state, a.min_bid))
    return msg("`hammer PLAYER` among {players} (no bid: the richest take it at {min_bid}; they "
               "tie, the banker says who)", players=both(tied),
               min_bid=_amount(state, a.min_bid))


def _auction_step(state: State) -> Text:
    a = state.auction
    assert a is not None  # phase "auction"
    space = state.edition.space
    lead = (msg("{high_bidder} leads at {high_bid}", high_bidder=a.high_bidder,
                high_bid=_amount(state, a.high_bid)) if a.high_bidder
            else msg("no bid yet, bids from {min_bid}", min_bid=_amount(state, a.min_bid)))
    if a.kind == "deed":
        assert a.property is not None  # a deed's auction names its deed
        what = space(a.property).name
        after = (msg("; then {deeds}", deeds=", ".join(space(p).name for p in state.auction_queue))
                 if state.auction_queue else "")
    else:
        what = msg("a {kind}", kind=msg(a.kind))
        keen = [f"{n} {k}" for n, k in a.wanted if k]
        after = msg("; still wanted: {wanted}", wanted=", ".join(keen)) if keen else ""
    return msg("the auction for {what} is open ({lead}{after}): `bid PLAYER AMOUNT` or "
               "{hammer}", what=what, lead=lead, after=after, hammer=hammer_step(state))


def _card_step(state: State) -> Text:
    t = state.turn
    assert t.card_deck is not None  # phase "card" names the deck
    title = state.edition.decks[t.card_deck].title
    order = state.decks[t.card_deck]
    nxt = None
    if len(order.unseen) == 1:
        nxt = next(iter(order.unseen))
    elif not order.unseen and order.known:
        nxt = order.known[0][0]
    hint = msg(" (the next card is {title} {number})", title=title, number=nxt) if nxt else ""
    return msg("{player} must draw from {title}: `card {deck} CARD`{hint}", player=t.player,
               title=title, deck=t.card_deck, hint=hint)


def turn_in_progress(state: State) -> bool:
    """A player has rolled and his turn is not over (000 FAQ 11: the roll, the move and what
    the square asks).  The auction of a bankrupt's deeds between turns is no turn."""
    return (state.turn.phase != "roll" and bool(state.last_roll)
            and state.last_roll[0] == state.turn.player)


def dealing_left(state: State) -> list[tuple[str, int]]:
    """(player, deeds still to deal) for each player not yet dealt his deeds; [] when the
    rule set deals none or the dealing is done (002 §Preparazione, 004 short and timed)."""
    due = deeds_to_deal(state.rules, len(state.seats))
    if not due:
        return []
    return [(n, due - state.dealt.get(n, 0)) for n in state.seats
            if state.dealt.get(n, 0) < due]


def _deal_step(left: list[tuple[str, int]]) -> Text:
    who = ", ".join(f"{n} {k}" for n, k in left)
    return msg("deal the deeds before the first roll (still to deal: {who}): "
               "`deal PLAYER PROPERTY...`", who=who)


def next_step(state: State) -> Text | str:
    """What the table is waiting for, in the words the banker types."""
    if state.ended:
        return (msg("the game is over: {winner} wins", winner=state.winner) if state.winner
                else msg("the game is over: a tie"))
    left = dealing_left(state)
    if left:
        return _deal_step(left)
    t = state.turn
    if state.time_up and not turn_in_progress(state) and not state.debts:
        owners = ", ".join(dict.fromkeys(cl.owner for cl in state.claims
                                         if not getattr(cl, "made_seq", 0)))
        if owners:
            return (f"time is up: rent may still be asked (`claim OWNER`: {owners}); "
                    f"`time-up` again ends the game and lets it go")
    main = None
    if t.phase == "buy":
        assert t.offer is not None  # phase "buy" names the deed offered
        main = msg("{player} must `buy` or `decline` {space}", player=t.player,
                   space=state.edition.space(t.offer).name)
    elif t.phase == "auction":
        main = _auction_step(state)
    elif t.phase == "card":
        main = _card_step(state)
    elif t.phase == "choice":
        assert t.card_choice is not None  # phase "choice" names the card
        deck, number = t.card_choice
        main = msg("{player} must choose for {title} {number}: `card {deck} {number} pay` or "
                   "`card {deck} {number} draw`", player=t.player,
                   title=state.edition.decks[deck].title, number=number, deck=deck)
    elif t.phase == "throw":
        assert t.card_throw is not None  # phase "throw" holds the multiplier
        multiplier, _ = t.card_throw
        main = msg("{player} throws the dice again for the rent on {space} ({multiplier} x the "
                   "throw): `roll D1 D2`", player=t.player,
                   space=state.edition.space(state.current.position).name, multiplier=multiplier)
    elif t.phase == "jail_exit":
        main = msg("{player} failed the last try and leaves jail: `use-card` or `pay-fine` "
                   "({fine}), then moves {spaces} (000 FAQ 17)", player=t.player,
                   fine=_amount(state, state.rules.jail_fine), spaces=sum(t.dice[:2]))
    elif t.phase in ("move", "go", "advance"):
        from ledger.rules.speedy import speedy_step

        main = speedy_step(state)
    debtors = list(dict.fromkeys(d.debtor for d in state.debts))
    debts = Joined([debt_step(state, n) for n in debtors], "; ")
    if state.time_up:  # the game waits only for the turn in progress and the debts
        then = (msg("the game ends after {player}'s turn", player=t.player) if main
                else msg("the game ends"))
        return Joined([main, debts, msg("time is up: {then}", then=then)], "; ")
    if main:
        return msg("{main}; meanwhile {debts}", main=main, debts=debts) if debts else main
    if debts and len(state.active()) == 1:  # the last player pays the Bank, then it is over
        return Joined([debts, msg("the game ends")], "; ")
    if debts:  # nobody rolls while a debt is unsettled (003 §10)
        return msg("{debts}; then {player} rolls", debts=debts, player=t.player)
    p = state.current
    if p.in_jail:
        ways = ([msg("`pay-fine`")] if p.cash >= state.rules.jail_fine else []) + (
            [msg("`use-card`")] if p.jail_cards else [])
        return msg("{player} is in jail: {ways} (try {attempt} of {attempts})", player=t.player,
                   ways=Joined([*ways, msg("`roll D1 D2` to try for doubles")], ", "),
                   attempt=p.jail_turns + 1, attempts=state.rules.jail_max_attempts)
    return msg("{player} to {roll}", player=t.player, roll=roll_words(state, p))


def roll_words(state: State, p: Player) -> Text | str:
    """The roll a player makes: two dice, or three once he has passed Via! under a rule set with
    the Speedy die (000 §SVOLGIMENTO 2-3); in jail only the numbered dice (000 FAQ 34)."""
    if state.rules.speedy_die and p.passed_go and not p.in_jail:
        return msg("`roll D1 D2 S` (S, the Speedy die: 1 2 3 bus mr)")
    return msg("`roll D1 D2`")


# --- one handler per event type -------------------------------------------------------------

def _game_started(state: State, d: Any, seq: Any) -> State:
    raise AssertionError("GameStarted begins a fold; it cannot be applied to a table")


def _money(state: State, d: Any, seq: Any) -> State:
    return _transfer(state, d)


def _dice_rolled(state: State, d: Any, seq: Any) -> State:
    speedy = d.get("speedy")
    if speedy is not None and "speedy_ignored" in d:
        speedy = None
    turn = state.turn._replace(dice=tuple(d["dice"]), doubles=d["in_row"],
                               extra_roll=d["extra_roll"], phase="moving", speedy=speedy)
    return state._replace(turn=turn, last_roll=(d["player"], seq), since_roll=frozenset())


def _token_moved(state: State, d: Any, seq: Any) -> State:
    if d["passed_go"]:
        return _set_player(state, d["player"], position=d["to"], passed_go=True)
    return _set_player(state, d["player"], position=d["to"])


_SPEEDY_PHASES = {"bus": "move", "triple": "go", "mr_monopoly": "advance"}


def _speedy_move_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase=_SPEEDY_PHASES[d["move"]]))


def _speedy_move_chosen(state: State, d: Any, seq: Any) -> State:
    t = state.turn
    speedy = None if d["move"] == "mr_monopoly" else t.speedy
    return state._replace(turn=t._replace(phase="moving", speedy=speedy))


def _purchase_offered(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="buy", offer=d["property"]))


def _property_bought(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    state = state._replace(owners=_set_at(state.owners, d["property"], d["player"]))
    return state._replace(turn=state.turn._replace(phase="moving", offer=None))


def _property_declined(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(offer=None))


def _auction_opened(state: State, d: Any, seq: Any) -> State:
    auction = Auction(property=d["property"], min_bid=d["min_bid"], step=d["step"],
                      resume=d.get("resume", "moving"), excluded=tuple(d.get("excluded", ())),
                      seller=d.get("seller"))
    queue = tuple(p for p in state.auction_queue if p != d["property"])
    return state._replace(auction=auction, auction_queue=queue,
                          turn=state.turn._replace(phase="auction"))


def _building_auction_opened(state: State, d: Any, seq: Any) -> State:
    auction = Auction(property=None, min_bid=d["min_bid"], step=d["step"], kind=d["kind"],
                      resume=d["resume"], excluded=tuple(d.get("excluded", ())),
                      wanted=tuple(d.get("wanted", {}).items()))
    return state._replace(auction=auction, turn=state.turn._replace(phase="auction"))


# A bid, a win or a close with no auction open is a log the fold cannot apply: the
# AttributeError on None is what the audit reports for it ("fold: AttributeError: ..."), so
# these three keep it rather than narrow the Optional with an assert.
def _bid_placed(state: State, d: Any, seq: Any) -> State:
    a = state.auction
    # bids first: compiled code evaluates the arguments before the method, so either build
    # names the same missing attribute
    bids = a.bids + 1  # type: ignore[union-attr]
    return state._replace(auction=a._replace(  # type: ignore[union-attr]
        high_bidder=d["player"], high_bid=d["amount"], bids=bids))


def _auction_won(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    state = state._replace(owners=_set_at(state.owners, d["property"], d["player"]))
    resume = state.auction.resume  # type: ignore[union-attr]
    return state._replace(auction=None, turn=state.turn._replace(phase=resume))


def _auction_closed(state: State, d: Any, seq: Any) -> State:
    resume = state.auction.resume  # type: ignore[union-attr]
    return state._replace(auction=None, turn=state.turn._replace(phase=resume))


def _auction_voided(state: State, d: Any, seq: Any) -> State:
    return state._replace(auction=None)


def _building_changed(state: State, d: Any, seq: Any) -> State:
    """HouseBuilt, HotelBuilt, BuildingSold: the level and the bank's stock are in the event."""
    state = _transfer(state, d)
    return state._replace(buildings=_set_at(state.buildings, d["property"], d["level"]),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _buildings_set(state: State, d: Any, seq: Any) -> State:
    """BuildingsSold: a whole group sold (`properties` to 0), or with `lots`, lots sold down
    to their levels; BuildingsBuilt: `lots` built up to theirs.  One payment either way."""
    state = _transfer(state, d)
    buildings = list(state.buildings)
    for p in d.get("properties", ()):
        buildings[p] = 0
    for lot in d.get("lots", ()):
        buildings[lot["property"]] = lot["level"]
    return state._replace(buildings=tuple(buildings),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _hotels_broken_up(state: State, d: Any, seq: Any) -> State:
    for t in d["transfers"]:
        state = _transfer(state, t)
    buildings = list(state.buildings)
    for lot in d["lots"]:
        buildings[lot["property"]] = lot["level"]
    return state._replace(buildings=tuple(buildings),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _mortgaged(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    return state._replace(mortgaged=state.mortgaged | {d["property"]},
                          since_roll=state.since_roll | {d["property"]})


def _mortgage_lifted(state: State, d: Any, seq: Any) -> State:
    """MortgageLifted, and MortgageReverted: a deed mortgaged during the bankrupt's turn
    passes as it was when the turn began, its money back to the Bank (000 FAQ 32)."""
    state = _transfer(state, d)
    return state._replace(mortgaged=state.mortgaged - {d["property"]},
                          since_roll=state.since_roll - {d["property"]})


def _deeds_dealt(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    owners = list(state.owners)
    for p in d["properties"]:
        owners[p] = d["player"]
    dealt = dict(state.dealt)
    dealt[d["player"]] = dealt.get(d["player"], 0) + len(d["properties"])
    return state._replace(owners=tuple(owners), dealt=dealt)


def _buildings_returned(state: State, d: Any, seq: Any) -> State:
    """A bankrupt's buildings go back to the Bank with the rest of his estate, unpaid (002)."""
    buildings = list(state.buildings)
    for p in d["properties"]:
        buildings[p] = 0
    return state._replace(buildings=tuple(buildings),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _debt_paid_in_kind(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    owners = list(state.owners)
    for deed in d["deeds"]:
        owners[deed["property"]] = d["payee"]
    return state._replace(owners=tuple(owners),
                          debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


def _time_ran_out(state: State, d: Any, seq: Any) -> State:
    return state._replace(time_up=(d["at"], d["ends"]))


def _claim_deferred(state: State, d: Any, seq: Any) -> State:
    claims = tuple(c._replace(made_seq=seq, settle_after=d["settles_after"])
                   if c.opened_seq == d["opened_seq"] else c for c in state.claims)
    return state._replace(claims=claims)


def _bottom(decks: dict, deck: str, number: int, seq: int) -> dict:
    """The decks after a card leaves the top (or a hand) and goes under its deck.  Robust to
    any order of facts, so a log written before decks were tracked still folds."""
    order = decks[deck]
    if number in order.unseen:  # the first round: the common case, no search
        moved = DeckOrder(order.unseen - {number}, order.known + ((number, seq),))
    else:
        moved = DeckOrder(order.unseen,
                          tuple(k for k in order.known if k[0] != number) + ((number, seq),))
    decks = dict(decks)
    decks[deck] = moved
    return decks


def _to_bottom(state: State, deck: str, number: int, seq: int) -> State:
    return state._replace(decks=_bottom(state.decks, deck, number, seq))


def _out_of_deck(state: State, deck: str, number: int) -> State:
    """A jail card kept: it is in a player's hand, not in the deck."""
    order = state.decks[deck]
    decks = dict(state.decks)
    decks[deck] = DeckOrder(order.unseen - {number},
                            tuple(k for k in order.known if k[0] != number))
    return state._replace(decks=decks)


def _move_cards(state, giver: str, taker: str | None, cards) -> State:
    """Get-out-of-jail cards change hands; taker None puts them back under their decks."""
    cards = [tuple(c) for c in cards]
    if not cards:
        return state
    held = dict(state.held_cards)
    g = state.player(giver)
    state = _set_player(state, giver, jail_cards=tuple(c for c in g.jail_cards if c not in cards))
    for c in cards:
        if taker is None:
            held.pop(c, None)
        else:
            held[c] = taker
    if taker is not None:
        t = state.player(taker)
        state = _set_player(state, taker, jail_cards=t.jail_cards + tuple(cards))
    return state._replace(held_cards=held)


def _trade_completed(state: State, d: Any, seq: Any) -> State:
    for t in d["transfers"]:
        state = _transfer(state, t)
    owners = list(state.owners)
    for side, receiver in (("a_gives", d["b"]), ("b_gives", d["a"])):
        for p in d[side]["properties"]:
            owners[p] = receiver
    state = state._replace(owners=tuple(owners))
    state = _move_cards(state, d["a"], d["b"], d["a_gives"]["jail_cards"])
    return _move_cards(state, d["b"], d["a"], d["b_gives"]["jail_cards"])


def _estate_transferred(state: State, d: Any, seq: Any) -> State:
    if d["creditor"] == BANK:  # the bankrupt's jail cards go under their decks (003 §10)
        for deck, number in d["jail_cards"]:
            state = _to_bottom(state, deck, number, seq)
    state = _transfer(state, d)
    owners = list(state.owners)
    to_bank = d["creditor"] == BANK
    for p in d["properties"]:
        owners[p] = None if to_bank else d["creditor"]
    state = state._replace(owners=tuple(owners))
    if to_bank:  # deeds go back unmortgaged and wait for their auctions (003 §10)
        state = state._replace(mortgaged=state.mortgaged - set(d["properties"]),
                               auction_queue=state.auction_queue + tuple(d["properties"]))
    return _move_cards(state, d["debtor"], None if to_bank else d["creditor"], d["jail_cards"])


def _bankruptcy_declared(state: State, d: Any, seq: Any) -> State:
    name = d["player"]
    state = _set_player(state, name, bankrupt=True)
    return state._replace(debts=tuple(x for x in state.debts if x.debtor != name),
                          eliminated=state.eliminated + (name,))


def _claim_opened(state: State, d: Any, seq: Any) -> State:
    # Logs written before landed_seq point at the claim itself, as banco did then.
    claim = Claim(payer=d["payer"], owner=d["owner"], property=d["property"], amount=d["amount"],
                  opened_seq=seq, closer=d["closer"], basis=d["basis"],
                  landed_seq=d.get("landed_seq", seq))
    return state._replace(claims=state.claims + (claim,))


def _claim_lapsed(state: State, d: Any, seq: Any) -> State:
    keep: list[Claim] = []
    gone: list[Claim] = []
    for c in state.claims:
        (gone if c.opened_seq == d["opened_seq"] else keep).append(c)
    if state.rules.late_claims == "last_landing":
        return _last_landing(state._replace(claims=tuple(keep)), gone, seq,
                             late=d["closed_by"] not in ("debt", "bankruptcy"))
    # A late claim is answered from the owner's last lapsed claim (decide's _claim): only that
    # one is kept, so the table stays the same size however long the game.
    owners = {c.owner for c in gone}
    lapsed = tuple(c for c in state.lapsed if c.owner not in owners)
    return state._replace(claims=tuple(keep),
                          lapsed=lapsed + tuple(c._replace(lapsed_seq=seq) for c in gone))


def _last_landing(state, ended, seq, late: bool):
    """`late_claims = "last_landing"`: `lapsed` keeps, per owner, his most recent landing that
    a claim can no longer settle, and a late claim is judged against it (decide's _claim):
    a claim whose window closed (the evidence of a late claim), or a landing that owed nothing
    (opened_seq 0).  A claim settled (paid, become a debt, ended by a bankruptcy) is no late
    claim: it only retires an older landing of the same owner's."""
    lapsed = list(state.lapsed)
    for c in ended:
        mine = [x for x in lapsed if x.owner == c.owner]
        if mine and mine[0].landed_seq > c.landed_seq:
            continue  # the owner's landing on record is the more recent one
        lapsed = [x for x in lapsed if x.owner != c.owner]
        if late:
            lapsed.append(c._replace(lapsed_seq=seq))
    return state._replace(lapsed=tuple(lapsed))


def _rent_paid(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    if state.rules.late_claims == "last_landing" and d["opened_seq"]:
        paid = [c for c in state.claims if c.opened_seq == d["opened_seq"]]
        state = _last_landing(state, paid, seq, late=False)
    return state._replace(claims=tuple(c for c in state.claims
                                       if c.opened_seq != d["opened_seq"]))


def _rent_not_due(state: State, d: Any, seq: Any) -> State:
    """A landing that owed nothing (a mortgaged deed): the owner's most recent landing, so a
    claim after it is refused as owing nothing, not tied to an older lapsed one."""
    if state.rules.late_claims != "last_landing":
        return state
    landing = Claim(payer=d["payer"], owner=d["owner"], property=d["property"], amount=0,
                    opened_seq=0, closer="", basis=d["reason"], lapsed_seq=seq, landed_seq=seq)
    return _last_landing(state, [landing], seq, late=True)


def _claim_refused(state: State, d: Any, seq: Any) -> State:
    """The evidence of a late claim is recorded once: its landing remembers where (made_seq)."""
    if state.rules.late_claims != "last_landing":
        return state
    return state._replace(lapsed=tuple(
        c._replace(made_seq=seq) if (c.owner, c.opened_seq) == (d["owner"], d["opened_seq"])
        else c for c in state.lapsed))


def _nothing(state: State, d: Any, seq: Any) -> State:
    return state


def _card_draw_required(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="card", card_deck=d["deck"]))


def _card_drawn(state: State, d: Any, seq: Any) -> State:
    return state._replace(decks=_bottom(state.decks, d["deck"], d["number"], seq),
                          turn=state.turn._replace(phase="moving", card_deck=None,
                                                   card_choice=None))


def _card_misdrawn(state: State, d: Any, seq: Any) -> State:
    return _to_bottom(state, d["deck"], d["number"], seq)


def _deck_shuffled(state: State, d: Any, seq: Any) -> State:
    deck = d["deck"]
    held = {n for (k, n) in state.held_cards if k == deck}
    decks = dict(state.decks)
    decks[deck] = DeckOrder(frozenset(c.number for c in state.edition.decks[deck].cards) - held)
    return state._replace(decks=decks)


def _card_choice_required(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="choice",
                                                   card_choice=(d["deck"], d["number"])))


def _card_throw_required(state: State, d: Any, seq: Any) -> State:
    # Logs written before landed_seq point at the throw's request itself.
    throw = (d["multiplier"], d.get("landed_seq", seq))
    return state._replace(turn=state.turn._replace(phase="throw", card_throw=throw))


def _card_dice_thrown(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="moving", card_throw=None))


def _jail_card_kept(state: State, d: Any, seq: Any) -> State:
    p = state.player(d["player"])
    key = (d["deck"], d["number"])
    held = dict(state.held_cards)
    held[key] = d["player"]
    state = _set_player(state, d["player"], jail_cards=p.jail_cards + (key,))
    return _out_of_deck(state._replace(held_cards=held), d["deck"], d["number"])


def _jail_card_used(state: State, d: Any, seq: Any) -> State:
    p = state.player(d["player"])
    key = (d["deck"], d["number"])
    held = dict(state.held_cards)
    held.pop(key, None)
    state = _set_player(state, d["player"],
                        jail_cards=tuple(c for c in p.jail_cards if c != key))
    return _to_bottom(state._replace(held_cards=held), d["deck"], d["number"], seq)


def _sent_to_jail(state: State, d: Any, seq: Any) -> State:
    return _set_player(state, d["player"], position=state.edition.jail_position, in_jail=True,
                       jail_turns=0)


def _jail_roll_failed(state: State, d: Any, seq: Any) -> State:
    return _set_player(state, d["player"], jail_turns=d["attempt"])


def _left_jail(state: State, d: Any, seq: Any) -> State:
    state = _set_player(state, d["player"], in_jail=False, jail_turns=0)
    if state.turn.phase == "jail_exit":  # the wait of 000 FAQ 17 is over: the token moves
        state = state._replace(turn=state.turn._replace(phase="moving"))
    return state


def _debt_incurred(state: State, d: Any, seq: Any) -> State:
    debt = Debt(debtor=d["debtor"], creditor=d["creditor"], amount=d["amount"],
                reason=d["reason"], seq=seq)
    return state._replace(debts=state.debts + (debt,))


def _debt_paid(state: State, d: Any, seq: Any) -> State:
    state = _transfer(state, d)
    return state._replace(debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


def _jail_exit_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="jail_exit"))


def _extra_roll_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="roll", dice=(), offer=None,
                                                   speedy=None))


def _turn_ended(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=Turn(player=d["next"]))


def _game_ended(state: State, d: Any, seq: Any) -> State:
    return state._replace(ended=True, winner=d.get("winner"), auction=None, auction_queue=(),
                          turn=state.turn._replace(phase="over"), end_rule=d.get("rule", ""))


def _debt_cancelled(state: State, d: Any, seq: Any) -> State:
    return state._replace(debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


HANDLERS = {
    "GameStarted": _game_started,
    "CashIssued": _money,
    "DiceRolled": _dice_rolled,
    "TokenMoved": _token_moved,
    "SalaryPaid": _money,
    "PurchaseOffered": _purchase_offered,
    "PropertyBought": _property_bought,
    "PropertyDeclined": _property_declined,
    "AuctionOpened": _auction_opened,
    "BidPlaced": _bid_placed,
    "AuctionWon": _auction_won,
    "AuctionClosed": _auction_closed,
    "RentClaimOpened": _claim_opened,
    "RentClaimLapsed": _claim_lapsed,
    "RentPaid": _rent_paid,
    "RentClaimRefused": _claim_refused,
    "RentNotDue": _rent_not_due,
    "TaxPaid": _money,
    "CardDrawRequired": _card_draw_required,
    "CardDrawn": _card_drawn,
    "CardChoiceRequired": _card_choice_required,
    "CardMisdrawn": _card_misdrawn,
    "DeckShuffled": _deck_shuffled,
    "CardPayment": _money,
    "CardThrowRequired": _card_throw_required,
    "CardDiceThrown": _card_dice_thrown,
    "JailCardKept": _jail_card_kept,
    "JailCardUsed": _jail_card_used,
    "SentToJail": _sent_to_jail,
    "JailRollFailed": _jail_roll_failed,
    "LeftJail": _left_jail,
    "FinePaid": _money,
    "DebtIncurred": _debt_incurred,
    "DebtPaid": _debt_paid,
    "ExtraRollDue": _extra_roll_due,
    "JailExitDue": _jail_exit_due,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
    "BuildingAuctionOpened": _building_auction_opened,
    "HouseBuilt": _building_changed,
    "HotelBuilt": _building_changed,
    "BuildingSold": _building_changed,
    "BuildingsSold": _buildings_set,
    "BuildingsBuilt": _buildings_set,
    "AuctionVoided": _auction_voided,
    "HotelsBrokenUp": _hotels_broken_up,
    "PropertyMortgaged": _mortgaged,
    "MortgageLifted": _mortgage_lifted,
    "MortgageInterestPaid": _money,
    "TradeCompleted": _trade_completed,
    "EstateTransferred": _estate_transferred,
    "BankruptcyDeclared": _bankruptcy_declared,
    "DebtCancelled": _debt_cancelled,
    "EventRetracted": _nothing,
    "CommandRecorded": _nothing,  # the command beside its facts: evidence, not a table change
    "SpeedyMoveDue": _speedy_move_due,
    "SpeedyMoveChosen": _speedy_move_chosen,
    "DeedsDealt": _deeds_dealt,
    "TimeRanOut": _time_ran_out,
    "RentClaimDeferred": _claim_deferred,
    "MortgageReverted": _mortgage_lifted,
    "BuildingsReturned": _buildings_returned,
    "DebtPaidByBank": _debt_paid,
    "DebtPaidInKind": _debt_paid_in_kind,
}


# --- a referee's facts (ledger/rules/referee.py decides them) ----------------------------------------

def _position_corrected(state: State, d: Any, seq: Any) -> State:
    changes = {"position": d["to"]}
    if d["left_jail"]:
        changes.update(in_jail=False, jail_turns=0)
    return _set_player(state, d["player"], **changes)


def _owner_corrected(state: State, d: Any, seq: Any) -> State:
    pos = d["property"]
    owner = None if d["to"] == BANK else d["to"]
    mortgaged = state.mortgaged | {pos} if d["mortgaged"] else state.mortgaged - {pos}
    return state._replace(owners=_set_at(state.owners, pos, owner), mortgaged=mortgaged)


HANDLERS.update({
    "RulingRecorded": _nothing,  # evidence: what the referee ruled, not a table change
    "SealRecorded": _nothing,  # evidence: a referee's signature on the head (ledger/records/seals.py)
    "CashCorrected": _money,
    "PositionCorrected": _position_corrected,
    "OwnerCorrected": _owner_corrected,
})


def evolve(state: State, event: dict) -> State:
    """Apply one event ({"type", "data", "seq"}) to the table."""
    seq = event.get("seq", state.seq + 1)
    return with_seq(HANDLERS[event["type"]](state, event["data"], seq), seq)


def initial_state(game_id: int, started: dict) -> State:
    """The table right after GameStarted: seats taken, nobody has any cash yet."""
    d = started["data"]
    try:
        edition = load_edition(d["edition"])
        rules = RuleSet.from_params(d["rules"])
    except UsageError as exc:  # e.g. a board or a parameter of a newer banco
        raise ValueError(f"its rules or board cannot be read ({exc})") from None
    seats = tuple(d["players"])
    return State(
        game_id=game_id, seq=started.get("seq", 1), rules=rules, edition=edition, seats=seats,
        index={n: i for i, n in enumerate(seats)},
        players=tuple(Player(name=n) for n in seats),
        owners=(None,) * 40, mortgaged=frozenset(), buildings=(0,) * 40,
        bank_houses=edition.bank_houses, bank_hotels=edition.bank_hotels,
        turn=Turn(player=d["first_player"]), claims=(), lapsed=(), auction=None, debts=(),
        held_cards={}, bank_paid_out=0,
        decks={k: DeckOrder(frozenset(c.number for c in deck.cards))
               for k, deck in edition.decks.items()},
        final=bool(d.get("final", False)))


def retracted_seqs(events) -> set[int]:
    out: set[int] = set()
    for e in events:
        if e["type"] == "EventRetracted":
            out.update(e["data"]["seqs"])
    return out


def replay(events, game_id: int | None = None):
    """Rebuild the table from a game's events (in seq order), honouring retractions, yielding
    (event, table after it) at every step: the audit checks each one."""
    if not isinstance(events, Sequence):  # a list, or rows read from the file on demand
        events = list(events)
    # A game's log begins with GameStarted, or (from format 2) with the `new` command that
    # recorded it: the commands before the table exists are yielded with the table as dealt.
    start = 0
    while start < len(events) and events[start]["type"] == "CommandRecorded":
        start += 1
    if start == len(events) or events[start]["type"] != "GameStarted":
        raise ValueError("a game's log must begin with GameStarted")
    gone = retracted_seqs(events)
    gid = game_id if game_id is not None else events[start].get("game_id", 0)
    state = initial_state(gid, events[start])
    for e in events[:start + 1]:
        yield e, state
    handlers = HANDLERS
    for e in events[start + 1:]:
        seq = e["seq"]
        if seq not in gone:
            state = handlers[e["type"]](state, e["data"], seq)
        yield e, state


def fold(events, game_id: int | None = None) -> State:
    """The table after the last event."""
    state = None
    for event, state in replay(events, game_id):  # noqa: B007 - the last one is the answer
        pass
    # seq is set once at the end rather than per event: the fold's hot path.  replay yields
    # at least GameStarted or raises, so state is a table here.
    assert state is not None
    return state._replace(seq=event["seq"])
