"""What the table waits for next, in the words the banker types: the prompt, and the help a
refusal gives."""

from __future__ import annotations

from banco.ledger.base.text import Fact, Joined, Text, both, msg
from banco.ledger.board.rule_sets import deeds_to_deal
from banco.ledger.table.model import BANK, Debt, Player, State
from banco.ledger.table.speedy_die import speedy_step
from banco.ledger.table.worth import deeds_of, raisable


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


def hammer_choices(state: State) -> list[str]:
    """The players the banker names with `hammer PLAYER` for a deed nobody bid for, when the
    rule set gives it to the richest and they tie (000 FAQ 22: the FAQ does not break a tie);
    [] when `hammer` alone says where it goes (a debtor's own deed stays his, 002 §Varie)."""
    a = state.auction
    if a is None or a.high_bidder is not None or a.kind != "deed" or a.seller \
            or state.rules.auction_no_bid != "richest":
        return []
    tied = richest_bidders(state)
    return tied if len(tied) > 1 else []


def _amount(state: State, amount: int) -> str:
    return state.edition.money(amount)


def debt_choice(state: State, debtor: str) -> tuple[str, int]:
    """What a debtor may do now (003 §10), as the debt's step says it: ("pay", 0) with the
    cash in hand; ("bankrupt", 0) when even all he could raise falls short (otherwise the
    bankruptcy is refused: he can pay); else ("raise", what the cash lacks), to be raised by
    selling and mortgaging before `pay` can work."""
    debts = [d for d in state.debts if d.debtor == debtor]
    cash = state.player(debtor).cash
    if cash >= debts[0].amount:
        return "pay", 0
    if raisable(state, debtor) < sum(d.amount for d in debts):
        return "bankrupt", 0
    return "raise", debts[0].amount - cash


def must_go_bankrupt(state: State, name: str) -> bool:
    """`name` owes more than all the player could raise: `bankrupt` is what follows (003 §10),
    as the debt's step says it (debt_choice)."""
    return any(d.debtor == name for d in state.debts) and debt_choice(state, name)[0] == "bankrupt"


def after_bankruptcy(state: State, debtor: str) -> Text:
    """What follows `bankrupt DEBTOR` when the debtor is the player whose turn it is: he is out,
    so the next roll is the next seat's, after the Bank's auctions of his deeds where they go to
    the Bank (003 §10), unless his bankruptcy ends the game (003 §11; 004 short game 3)."""
    left = [n for n in state.active() if n != debtor]
    last = state.rules.end_after_bankruptcies
    if len(left) == 1 or (last and len(state.eliminated) + 1 >= last):
        return msg("then the game ends")
    i = state.index[debtor]
    seats = state.seats
    following = next(seats[j % len(seats)] for j in range(i + 1, i + len(seats))
                     if seats[j % len(seats)] in left)
    creditor = next(d.creditor for d in state.debts if d.debtor == debtor)
    to_bank = creditor == BANK or state.rules.bankruptcy_estate == "bank_pays_creditors"
    if to_bank and deeds_of(state, debtor):
        return msg("then the Bank auctions {debtor}'s deeds (003 §10) and {player} rolls",
                   debtor=debtor, player=following)
    return msg("then {player} rolls", player=following)


def fine_reason(attempts: int) -> dict:
    """The reason the fine of the last failed try is recorded with (its words:
    cli/words/reasons.py)."""
    from banco.ledger.records.reasons import reason

    return reason("jail_fine_after", n=attempts)


def fine_owed(state: State) -> Debt | None:
    """The fine of the last failed try while the token waits for it: "pagare $50 prima di poter
    muovere" (004 §Prigione; 000 §PRIGIONE, 003 §08).  A debt to the Bank of the prisoner whose
    turn it is, in the wait of `jail_exit`; None otherwise."""
    if state.turn.phase != "jail_exit":
        return None
    p = state.current
    if not p.in_jail:
        return None
    reason = fine_reason(p.jail_turns)
    return next((d for d in state.debts if d.debtor == p.name and d.creditor == BANK
                 and d.reason == reason), None)


def debt_step(state: State, debtor: str) -> Text:
    """What a debtor must do: raise the money and pay, or go bankrupt if it cannot be raised
    (003 §10)."""
    debts = [d for d in state.debts if d.debtor == debtor]
    to = Joined([msg("{amount} to {creditor} ({reason})", amount=_amount(state, d.amount),
                     creditor=msg("the Bank") if d.creditor == BANK else d.creditor,
                     reason=Fact(d.reason, edition=state.edition)) for d in debts], ", ")
    cash = state.player(debtor).cash
    choice, _ = debt_choice(state, debtor)
    if choice == "pay":
        return msg("{debtor} owes {to} and has the cash: `pay {debtor}`", debtor=debtor, to=to)
    if choice == "bankrupt":
        return msg("{debtor} owes {to} and can raise only {can}: `bankrupt {debtor}`",
                   debtor=debtor, to=to, can=_amount(state, raisable(state, debtor)))
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
    if a.seller and a.property is not None:  # a debtor's own deed stays his (002 §Varie)
        return msg("`hammer` (no bid: {space} stays with {seller}, 002 §Varie)",
                   space=state.edition.space(a.property).name, seller=a.seller)
    if state.rules.auction_no_bid != "richest":
        return msg("`hammer` (no bid: the deed stays with the Bank)")
    tied = richest_bidders(state)
    if not tied:
        return msg("`hammer` (no bid, and nobody can pay the opening bid: the deed stays unsold)")
    if len(tied) == 1:
        return msg("`hammer` (no bid: {player}, the richest, takes it at {min_bid}, 000 FAQ 22)",
                   player=tied[0], min_bid=_amount(state, a.min_bid))
    return msg("`hammer PLAYER` among {players} (no bid: the richest player takes it at "
               "{min_bid}; they are tied, so the banker says who)", players=both(tied),
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
               title=title, deck=state.edition.decks[t.card_deck].word, hint=hint)


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
            # a template, not an f-string: an Italian page read it in English
            return msg("time is up: rent may still be asked (`claim OWNER`: {owners}); "
                       "`time-up` again ends the game and lets it go", owners=owners)
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
                   title=state.edition.decks[deck].title, number=number,
                   deck=state.edition.decks[deck].word)
    elif t.phase == "throw":
        assert t.card_throw is not None  # phase "throw" holds the multiplier
        multiplier, _ = t.card_throw
        main = msg("{player} throws the dice again for the rent on {space} ({multiplier} x the "
                   "throw): `roll D1 D2`", player=t.player,
                   space=state.edition.space(state.current.position).name, multiplier=multiplier)
    elif t.phase == "jail_exit" and fine_owed(state) is None:
        main = msg("{player} failed the last try and leaves jail: `use-card` or `pay-fine` "
                   "({fine}), then moves {spaces} (000 FAQ 17)", player=t.player,
                   fine=_amount(state, state.rules.jail_fine), spaces=sum(t.dice[:2]))
    elif t.phase in ("move", "go", "advance"):
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
    if debts and fine_owed(state) is not None and state.current.jail_cards:
        # a card stands for the fine owed (000 FAQ 17): no bankruptcy for it while he holds one
        return msg("{debts}; or {player} uses a get-out-of-jail card for the fine (`use-card`, "
                   "000 FAQ 17); then {player} leaves jail and moves {spaces} (004 §Prigione)",
                   debts=debts, player=t.player, spaces=sum(t.dice[:2]))
    if debts and must_go_bankrupt(state, t.player):  # out of the game: not his roll next
        return msg("{debts}; {then}", debts=debts, then=after_bankruptcy(state, t.player))
    if debts and fine_owed(state) is not None:  # the fine first, then the move (004 §Prigione)
        return msg("{debts}; then {player} leaves jail and moves {spaces} (004 §Prigione)",
                   debts=debts, player=t.player, spaces=sum(t.dice[:2]))
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
