"""What each fact says, in the user's language: one function a fact type, found in one table
(SAY), as Beancount's printer says each directive.  A fact's reason, a code and its
parameters, is said by cli/words/reasons.py; amounts as the edition prints them."""

from __future__ import annotations

from banco.cli.words.i18n import N_, NP_, _, ngettext, pgettext, say
from banco.cli.words.reasons import BUILDINGS, local_time, say_basis, say_how, say_reason
from banco.ledger.board.rule_sets import said as rules_said
from banco.ledger.records.verdicts import words
from banco.ledger.table.state import BANK, State, must_go_bankrupt, next_step


def space_name(state: State, pos: int) -> str:
    """The name of the space at `pos` on the game's board."""
    return state.edition.space(pos).name


def bank_or(account: str) -> str:
    """An account as said: a player's name, or the Bank in the user's language."""
    return _("the Bank") if account == BANK else account


# Events whose line is `PAYER pays AMOUNT to PAYEE: REASON`.
TRANSFERS = ("SalaryPaid", "TaxPaid", "FinePaid", "CardPayment", "PropertyBought", "AuctionWon",
             "RentPaid", "DebtPaid", "CashIssued", "HouseBuilt", "HotelBuilt", "BuildingSold",
             "BuildingsSold", "BuildingsBuilt",
             "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "EstateTransferred",
             "DeedsDealt", "MortgageReverted", "DebtPaidByBank", "DebtPaidInKind")


_TRANSFER_TYPES = frozenset(TRANSFERS)  # a set to look in, for every event said


def _transfer(d: dict, state: State) -> str:
    money = state.edition.money
    reason = say_reason(d["reason"], state.edition, d["amount"])
    if d["payer"] == BANK:
        return _("  the Bank pays {amount} to {payee}: {reason}").format(
            amount=money(d["amount"]), payee=bank_or(d["payee"]), reason=reason)
    if d["payee"] == BANK:
        return _("  {payer} pays {amount} to the Bank: {reason}").format(
            payer=d["payer"], amount=money(d["amount"]), reason=reason)
    return _("  {payer} pays {amount} to {payee}: {reason}").format(
        payer=d["payer"], amount=money(d["amount"]), payee=d["payee"], reason=reason)


def _turn_ended(event: dict, d: dict, state: State) -> str | None:
  # the commonest facts first: no other branch says these
    return _("{player} to roll").format(player=d["next"])


def _dice_rolled(event: dict, d: dict, state: State) -> str | None:
    dice = "+".join(map(str, d["dice"]))
    extra = (_(" (doubles, {n} in a row)").format(n=d["in_row"]) if d["doubles"] and d["in_row"]
             else (_(" (doubles)") if d["doubles"] else ""))
    if "speedy" in d:
        return _speedy_roll(d, dice, extra)
    return _("{player} rolls {dice} = {total}{extra}").format(
        player=d["player"], dice=dice, total=sum(d["dice"]), extra=extra)


def _speedy_move_due(event: dict, d: dict, state: State) -> str | None:
    if d["move"] == "bus":
        ways = _either([f"`move {n}`" for n in d["choices"]])
        return _("  the Bus: {player} moves by one die or both: {ways}").format(
            player=d["player"], ways=ways)
    if d["move"] == "triple":
        return _("  a triple: {player} goes to any space: `go SPACE`").format(
            player=d["player"])
    return _("  Mr Monopoly: {player} moves on: `advance`").format(player=d["player"])


def _speedy_move_chosen(event: dict, d: dict, state: State) -> str | None:
    # A Bus or a triple is said by the TokenMoved line after it; Mr Monopoly says why.
    return (_("  Mr Monopoly: {reason}").format(reason=say_reason(d["reason"], state.edition))
            if d["move"] == "mr_monopoly" else None)


def _token_moved(event: dict, d: dict, state: State) -> str | None:
    if d["to"] == state.edition.jail_position:  # sent to jail is a fact of its own
        return _("  {player} moves to {space} ({position}), just visiting").format(
            player=d["player"], space=space_name(state, d["to"]), position=d["to"])
    return _("  {player} moves to {space} ({position})").format(
        player=d["player"], space=space_name(state, d["to"]), position=d["to"])


def _transfer_types(event: dict, d: dict, state: State) -> str | None:
    return _transfer(d, state)


def _purchase_offered(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  {space} is for sale at {price}: `buy` or `decline`").format(
        space=space_name(state, d["property"]), price=money(d["price"]))


def _property_declined(event: dict, d: dict, state: State) -> str | None:
    return _("  {player} declines {space}").format(player=d["player"],
                                                  space=space_name(state, d["property"]))


def _auction_opened(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  auction for {space}: bids from {amount}, `bid PLAYER AMOUNT`, then "
             "`hammer`").format(space=space_name(state, d["property"]),
                                amount=money(d["min_bid"]))


def _bid_placed(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  {player} bids {amount}").format(player=d["player"],
                                               amount=money(d["amount"]))


# No-bid reasons that name what was auctioned: said alone, or the line read "no bid for X:
# nobody bid: X stays with ..." (each of them begins with "nobody bid").
_NO_BID_NAMED = {"no_bid_seller_keeps", "no_bid_richest", "no_bid_richest_tied",
                 "no_bid_building"}


def _auction_closed(event: dict, d: dict, state: State) -> str | None:
    from banco.ledger.records.reasons import from_text

    if d["outcome"] != "no bid":
        return None
    what = space_name(state, d["property"]) if d["property"] is not None else _("the building")
    reason = from_text(d["reason"]) if d["reason"] else {}
    code = reason.get("code")
    if code in _NO_BID_NAMED:
        return "  " + say_reason(d["reason"], state.edition)
    if code == "no_bid_bank_keeps":
        return _("  no bid for {what}: the deed stays with the Bank (house rules: "
                 "auction_no_bid = bank_keeps)").format(what=what)
    if code == "no_bid_nobody_pays":
        return _("  no bid for {what}, and nobody can pay {amount}: the deed stays with the "
                 "Bank ({rule})").format(what=what, amount=state.edition.money(reason["amount"]),
                                         rule=reason["rule"])
    return _("  no bid for {what}: {reason}").format(what=what,
                                                    reason=say_reason(d["reason"], state.edition))


def _rent_claim_opened(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  {owner} may claim {amount} rent on {space} ({basis}) until {closer} rolls: "
             "`claim {owner}`").format(owner=d["owner"], amount=money(d["amount"]),
                                       space=space_name(state, d["property"]),
                                       basis=say_basis(d["basis"], state.edition), closer=d["closer"])


def _rent_claim_lapsed(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    claim = _("{owner}'s claim on {payer} ({amount}, {space})").format(
        owner=d["owner"], payer=d["payer"], amount=money(d["amount"]),
        space=space_name(state, d["property"]))
    if d["closed_by"] == "debt":
        return None  # the DebtIncurred line that follows says it
    if d["closed_by"] == "time":
        return f"  {claim} lapsed: not asked before the game ended (time is up)"
    if d["closed_by"] == "bankruptcy":
        return _("  {claim} closed: a bankruptcy ended it").format(claim=claim)
    return _("  {claim} lapsed: {player} rolled").format(claim=claim, player=d["closed_by"])


def _rent_claim_refused(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    where = _(" as event {seq}").format(seq=event["seq"]) if "seq" in event else ""
    return _("  late claim recorded{where}: {owner} asked {payer} for {amount} ({space}); "
             "landed at event {landed}, window closed at event {lapsed}").format(
        where=where, owner=d["owner"], payer=d["payer"], amount=money(d["amount"]),
        space=space_name(state, d["property"]), landed=d.get("landed_seq", d["opened_seq"]),
        lapsed=d["lapsed_seq"])


def _rent_not_due(event: dict, d: dict, state: State) -> str | None:
    return _("  no rent on {space}: {reason}").format(space=space_name(state, d["property"]),
                                                     reason=say_reason(d["reason"], state.edition))


def _card_draw_required(event: dict, d: dict, state: State) -> str | None:
    deck = state.edition.decks[d["deck"]]
    return _("  {player} draws from {deck}: `card {key} CARD`").format(
        player=d["player"], deck=deck.title, key=deck.word)


def card_text(state: State, d: dict) -> str:
    """A card's words: the edition's card table's (a fact holds its deck and number)."""
    deck = state.edition.decks.get(d["deck"])
    if deck is None or not 1 <= d["number"] <= len(deck.cards):
        return "?"
    return deck.cards[d["number"] - 1].text


def _card_drawn(event: dict, d: dict, state: State) -> str | None:
    return f"  {state.edition.decks[d['deck']].title} {d['number']}: {card_text(state, d)}"


def _card_misdrawn(event: dict, d: dict, state: State) -> str | None:
    return _("  {deck} {number} turned by mistake ({text}): shown, then under its deck "
             "without effect").format(deck=state.edition.decks[d["deck"]].title,
                                      number=d["number"], text=card_text(state, d))


def _deck_shuffled(event: dict, d: dict, state: State) -> str | None:
    return _("  {deck} shuffled: its order is unknown again").format(
        deck=state.edition.decks[d["deck"]].title)


def _card_choice_required(event: dict, d: dict, state: State) -> str | None:
  # the card's text first: the banker reads out the choice
    deck = state.edition.decks[d["deck"]]
    text = deck.cards[d["number"] - 1].text  # numbered from 1, as every reader takes it
    return _("  {title} {number}: {text}; choose: `card {deck} {number} pay` or `card "
             "{deck} {number} draw`").format(title=deck.title, text=text, deck=deck.word,
                                             number=d["number"])


def _card_throw_required(event: dict, d: dict, state: State) -> str | None:
    return _("  {owner} owns {space}: {player} throws the dice again and owes {multiplier} x "
             "the throw: `roll D1 D2`").format(owner=d["owner"],
                                               space=space_name(state, d["property"]),
                                               player=d["player"],
                                               multiplier=d["multiplier"])


def _card_dice_thrown(event: dict, d: dict, state: State) -> str | None:
    return _("{player} throws {dice} = {total} for the rent").format(
        player=d["player"], dice="+".join(map(str, d["dice"])), total=sum(d["dice"]))


def _jail_card_kept(event: dict, d: dict, state: State) -> str | None:
    return _("  {player} keeps the get-out-of-jail card").format(player=d["player"])


def _jail_card_used(event: dict, d: dict, state: State) -> str | None:
    return _("  {player} uses a get-out-of-jail card; it goes back under its deck").format(
        player=d["player"])


def _sent_to_jail(event: dict, d: dict, state: State) -> str | None:
    return _("  {player} goes to jail: {reason}").format(player=d["player"],
                                                        reason=say_reason(d["reason"], state.edition))


def _jail_roll_failed(event: dict, d: dict, state: State) -> str | None:
    if d["attempt"] >= state.rules.jail_max_attempts:
        # the fine or a card comes next, then "leaves jail": said once, there (a trial read
        # "leaves jail now" and "leaves jail (fine ...)" two lines apart)
        return _("  no doubles on the last try ({attempt}): {player} may stay no longer (the "
                 "fine, or a card)").format(player=d["player"], attempt=d["attempt"])
    return _("  no doubles: {player} stays in jail (try {attempt})").format(
        player=d["player"], attempt=d["attempt"])


def _left_jail(event: dict, d: dict, state: State) -> str | None:
    return _("  {player} leaves jail ({how})").format(player=d["player"], how=say_how(d["how"]))


def _debt_incurred(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  {debtor} cannot pay {amount} to {creditor} ({reason}): in debt until "
             "`pay`").format(debtor=d["debtor"], amount=money(d["amount"]),
                             creditor=bank_or(d["creditor"]),
                             reason=say_reason(d["reason"], state.edition))


def _jail_exit_due(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    # the same words with a card in hand or a debt for the fine: `log` says this fact with the
    # table as it is now, not as it was then
    return _("  {player} failed the last try: first the fine ({fine}) or a "
             "get-out-of-jail card, then the move of {spaces}").format(
        player=d["player"], fine=money(d["fine"]), spaces=d["spaces"])


def _extra_roll_due(event: dict, d: dict, state: State) -> str | None:
    if must_go_bankrupt(state, d["player"]):  # out of the game before the roll he earned
        return _("next: {step}").format(step=say(next_step(state)))
    return _("{player} rolls again (doubles)").format(player=d["player"])


def _event_retracted(event: dict, d: dict, state: State) -> str | None:
    return ngettext("undone: event {seqs} ({reason})", "undone: events {seqs} ({reason})",
                    len(d["seqs"])).format(seqs=", ".join(map(str, d["seqs"])),
                                           reason=say_reason(d["reason"], state.edition))


def _trade_completed(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    def side(g):
        parts = [space_name(state, p) for p in g["properties"]]
        if g["cash"]:
            parts.append(money(g["cash"]))
        if g["jail_cards"]:
            parts.append(ngettext("{n} jail card", "{n} jail cards",
                                  len(g["jail_cards"])).format(n=len(g["jail_cards"])))
        return ", ".join(parts) or _("nothing")
    return _("  trade: {a} gives {a_gives}; {b} gives {b_gives}").format(
        a=d["a"], a_gives=side(d["a_gives"]), b=d["b"], b_gives=side(d["b_gives"]))


def _hotels_broken_up(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return "\n".join(_("  the Bank pays {amount} to {payee}: {reason}").format(
        amount=money(x["amount"]), payee=x["payee"], reason=say_reason(x["reason"], state.edition))
        for x in d["transfers"])


def _auction_voided(event: dict, d: dict, state: State) -> str | None:
    return _("  auction cancelled: {reason}").format(reason=say_reason(d["reason"], state.edition))


def _building_auction_opened(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    return _("  auction for a {kind}: bids from {amount}, `bid PLAYER AMOUNT`, then "
             "`hammer [PROPERTY]`").format(kind=_(BUILDINGS.get(d["kind"], d["kind"])),
                                           amount=money(d["min_bid"]))


def _bankruptcy_declared(event: dict, d: dict, state: State) -> str | None:
    return _("{player} is bankrupt to {creditor} ({reason})").format(
        player=d["player"], creditor=bank_or(d["creditor"]),
        reason=say_reason(d["reason"], state.edition))


def _debt_cancelled(event: dict, d: dict, state: State) -> str | None:
    return _("  {debtor}'s debt to {creditor} is cancelled ({reason})").format(
        debtor=d["debtor"], creditor=bank_or(d["creditor"]),
        reason=say_reason(d["reason"], state.edition))


def _game_ended(event: dict, d: dict, state: State) -> str | None:
    result = (_("{player} wins").format(player=d["winner"]) if d["winner"]
              else _("a tie"))
    return _("game over: {result} ({reason})").format(result=result,
                                                     reason=say_reason(d["reason"], state.edition))


def _time_ran_out(event: dict, d: dict, state: State) -> str | None:
    return _("time is up at {at}: {reason} ({rule})").format(
        at=local_time(d["at"]), reason=say_reason(d["reason"], state.edition), rule=d["rule"])


def _rent_claim_deferred(event: dict, d: dict, state: State) -> str | None:
    money = state.edition.money
    # a roll for doubles is a turn of its own (000 FAQ 11): the rent is paid before it, which
    # a family reading "when Carla's turn is over" did not expect
    return _("  {owner} claims {amount} from {payer} ({space}) while the dice are on the "
             "table: paid when {player}'s turn is over, before any roll for doubles ({rule}; "
             "a roll for doubles is a turn of its own, 000 FAQ 11)").format(
        owner=d["owner"], amount=money(d["amount"]), payer=d["payer"],
        space=space_name(state, d["property"]), player=d["settles_after"], rule=d["rule"])


def _buildings_returned(event: dict, d: dict, state: State) -> str | None:
    return f"  {say_reason(d['reason'], state.edition)}"


def _referee_words(event: dict, d: dict, state: State) -> str | None:
    t = event["type"]
    return REFEREE_WORDS[t](d, state)


def _command_recorded(event: dict, d: dict, state: State) -> str | None:
    return f"> {d['line']}" if d["line"] else None


def _game_started(event: dict, d: dict, state: State) -> str | None:
    return _("new game: {players}; rules {rules}, edition {edition}; {first} rolls "
             "first").format(players=", ".join(d["players"]),
                             rules=say(rules_said(d["rules"]["name"])),
                             edition=d["edition"], first=d["first_player"])

def narrate(event: dict, state: State) -> str | None:
    """One line for an event, or None for bookkeeping the banker need not read."""
    say = SAY.get(event["type"])
    return None if say is None else say(event, event["data"], state)


def _who(account: str) -> str:
    return bank_or(account)


# A ruling's kind, as the log says it (`ruling rent` is `decisione affitto`).
RULING_KINDS = {"rent": NP_("ruling kind", "rent"), "auction": NP_("ruling kind", "auction"),
                "bankruptcy": NP_("ruling kind", "bankruptcy"), "jail": NP_("ruling kind", "jail")}


def say_ruling_kind(kind: str) -> str:
    return pgettext(*RULING_KINDS[kind]) if kind in RULING_KINDS else kind


def say_verdict(verdict, state: State) -> str:
    """A recorded ruling's verdict (its code and parameters) in the user's language, amounts as
    the game's edition prints them; an older row's English, as a reading of stored rows meets
    it, read into its code first."""
    if type(verdict) is str:
        from banco.ledger.records.verdict_prose import verdict_from_prose

        verdict = verdict_from_prose(verdict)
    return say(words(verdict, state.edition.money))


# A referee's facts (ledger/rules/referee.py), in the words of `log`, `replay` and the report.
REFEREE_WORDS = {
    # the verdict's words from its code (cli/words/verdicts.py), in the user's language
    "RulingRecorded": lambda d, st: _("ruling on event {seq} ({kind}) by referee {referee}: "
                                      "{verdict}").format(seq=d["subject_seq"],
                                                          kind=say_ruling_kind(d["kind"]),
                                                          referee=d["referee"],
                                                          verdict=say_verdict(d["verdict"], st)),
    # "to the Bank" is its own sentence: Italian joins the preposition ("alla Banca")
    "CashCorrected": lambda d, st: (
        _("  correction: {payer} pays {amount} to the Bank ({reason})") if d["payee"] == BANK
        else _("  correction: {payer} pays {amount} to {payee} ({reason})")).format(
        payer=_who(d["payer"]), amount=st.edition.money(d["amount"]), payee=_who(d["payee"]),
        reason=say_reason(d["reason"], st.edition)),
    "PositionCorrected": lambda d, st: _("  correction: {player} moved from {origin} to "
                                         "{target}{jail} ({reason})").format(
        player=d["player"], origin=space_name(st, d["from"]), target=space_name(st, d["to"]),
        jail=_(" and out of jail") if d["left_jail"] else "", reason=say_reason(d["reason"], st.edition)),
    "OwnerCorrected": lambda d, st: _("  correction: {space} passes from {origin} to "
                                      "{target}{mortgaged} ({reason})").format(
        space=space_name(st, d["property"]), origin=_who(d["from"]), target=_who(d["to"]),
        mortgaged=_(", mortgaged") if d["mortgaged"] else "", reason=say_reason(d["reason"], st.edition)),
    "SealRecorded": lambda d, st: _("sealed by referee {referee}: event {seq}, head {head}... "
                                    "(key {fingerprint})").format(
        referee=d["referee"], seq=d["seq"], head=d["head"][:12], fingerprint=d["fingerprint"]),
}


_FACES = {"bus": N_("the Bus"), "mr": N_("Mr Monopoly")}


def _either(options: list[str]) -> str:
    if len(options) == 1:
        return options[0]
    return _("{some} or {last}").format(some=", ".join(options[:-1]), last=options[-1])


def _speedy_roll(d: dict, dice: str, extra: str) -> str:
    """`Anna rolls 3+4, Speedy 1 = 8`; a Speedy die that does not count says why."""
    face = d["speedy"]
    shown = _(_FACES[face]) if face in _FACES else face
    total = sum(d["dice"])
    player = d["player"]
    if "speedy_ignored" in d:
        return _("{player} rolls {dice} = {total}{extra}; the Speedy die ({face}) does not "
                 "count: {why}").format(player=player, dice=dice, total=total, extra=extra,
                                        face=shown, why=say_reason(d["speedy_ignored"]))
    if face.isdecimal():
        if d["dice"][0] == d["dice"][1] == int(face):
            return _("{player} rolls {dice}, Speedy die {face}: a triple").format(
                player=player, dice=dice, face=face)
        return _("{player} rolls {dice}, Speedy die {face} = {total}{extra}").format(
            player=player, dice=dice, face=face, total=total + int(face), extra=extra)
    return _("{player} rolls {dice} = {total}, Speedy die: {face}{extra}").format(
        player=player, dice=dice, total=total, face=shown, extra=extra)


# What each fact says, by its type: one function a type (Beancount's printer), none for the
# bookkeeping the banker need not read.
SAY: dict = {
    "TurnEnded": _turn_ended,
    "DiceRolled": _dice_rolled,
    "SpeedyMoveDue": _speedy_move_due,
    "SpeedyMoveChosen": _speedy_move_chosen,
    "TokenMoved": _token_moved,
    **dict.fromkeys(_TRANSFER_TYPES, _transfer_types),
    "PurchaseOffered": _purchase_offered,
    "PropertyDeclined": _property_declined,
    "AuctionOpened": _auction_opened,
    "BidPlaced": _bid_placed,
    "AuctionClosed": _auction_closed,
    "RentClaimOpened": _rent_claim_opened,
    "RentClaimLapsed": _rent_claim_lapsed,
    "RentClaimRefused": _rent_claim_refused,
    "RentNotDue": _rent_not_due,
    "CardDrawRequired": _card_draw_required,
    "CardDrawn": _card_drawn,
    "CardMisdrawn": _card_misdrawn,
    "DeckShuffled": _deck_shuffled,
    "CardChoiceRequired": _card_choice_required,
    "CardThrowRequired": _card_throw_required,
    "CardDiceThrown": _card_dice_thrown,
    "JailCardKept": _jail_card_kept,
    "JailCardUsed": _jail_card_used,
    "SentToJail": _sent_to_jail,
    "JailRollFailed": _jail_roll_failed,
    "LeftJail": _left_jail,
    "DebtIncurred": _debt_incurred,
    "JailExitDue": _jail_exit_due,
    "ExtraRollDue": _extra_roll_due,
    "EventRetracted": _event_retracted,
    "TradeCompleted": _trade_completed,
    "HotelsBrokenUp": _hotels_broken_up,
    "AuctionVoided": _auction_voided,
    "BuildingAuctionOpened": _building_auction_opened,
    "BankruptcyDeclared": _bankruptcy_declared,
    "DebtCancelled": _debt_cancelled,
    "GameEnded": _game_ended,
    "TimeRanOut": _time_ran_out,
    "RentClaimDeferred": _rent_claim_deferred,
    "BuildingsReturned": _buildings_returned,
    **dict.fromkeys(REFEREE_WORDS, _referee_words),
    "CommandRecorded": _command_recorded,
    "GameStarted": _game_started,
}
