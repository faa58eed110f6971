"""The table in words: `state` as text and as its stable JSON document, the standings' columns,
the board's 40 spaces and the card decks.  Amounts are printed as the edition prints them."""

from __future__ import annotations

from banco.cli.words.facts import BUILDINGS, bank_or, space_name
from banco.cli.words.i18n import N_, NP_, _, ngettext, pgettext, say
from banco.cli.words.reasons import say_reason
from banco.ledger.board.rule_sets import said as rules_said
from banco.ledger.table.state import State


def _marks(state: State, pos: int) -> str:
    level = state.buildings[pos]
    # short marks in the state's list of deeds, in the table's language ("[2h]" is English)
    mark = pgettext("deed mark", " (M)") if pos in state.mortgaged else ""
    if level == 5:
        mark += pgettext("deed mark", " [hotel]")
    elif level:
        mark += pgettext("deed mark", " [{n}h]").format(n=level)
    return mark


def _turn_document(state: State) -> dict:
    """`turn`: player, phase, doubles; under a rule set with the Speedy die also `speedy`
    (the face that counts for the roll, or null) and `choices` (the Bus's moves in phase
    `move`, else empty)."""
    t = state.turn
    doc = {"player": t.player, "phase": t.phase, "doubles": t.doubles}
    if state.rules.speedy_die:
        doc["speedy"] = t.speedy
        from banco.ledger.table.speedy_die import choices_of

        doc["choices"] = choices_of(t)
    return doc


def _player_document(state: State, p) -> dict:
    """A player; under a rule set with the Speedy die also `passed_go` (he throws it)."""
    doc = {"name": p.name, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
           "jail_turns": p.jail_turns, "jail_cards": len(p.jail_cards), "bankrupt": p.bankrupt}
    if state.rules.speedy_die:
        doc["passed_go"] = p.passed_go
    return doc


def state_document(state: State) -> dict:
    """`banco state --json`: the stable document described in README."""
    space = state.edition.space
    auction = None
    if state.auction:
        a = state.auction
        auction = {"property": space(a.property).name if a.property is not None else None,
                   "kind": a.kind, "min_bid": a.min_bid, "step": a.step,
                   "high_bidder": a.high_bidder, "high_bid": a.high_bid,
                   "queue": [space(p).name for p in state.auction_queue]}
    from banco.ledger.table.decks import deck_views
    from banco.ledger.table.state import dealing_left
    from banco.ledger.table.worth import raisable

    debt = [{"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount, "reason": d.reason,
             "can_raise": raisable(state, d.debtor)} for d in state.debts]
    return {
        "game": state.game_id,
        "seq": state.seq,
        "rules": state.rules.name,
        "edition": state.edition.name,
        "turn": _turn_document(state),
        "players": [_player_document(state, p) for p in state.players],
        "properties": [{"name": s.name, "position": s.position, "owner": state.owners[s.position],
                        "houses": state.buildings[s.position] % 5,
                        "hotel": state.buildings[s.position] == 5,
                        "mortgaged": s.position in state.mortgaged}
                       for s in state.edition.properties],
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "pending": {
            "rent": [{"payer": cl.payer, "owner": cl.owner, "property": space(cl.property).name,
                      "amount": cl.amount, "closes_when": f"{cl.closer} rolls",
                      # claimed while the dice were on the table: paid after that turn (000 FAQ 8)
                      "paid_after_turn_of": cl.settle_after or None}
                     for cl in state.claims],
            # deeds still to deal before the first roll (002, 004 short and timed)
            "deal": [{"player": n, "deeds": k} for n, k in dealing_left(state)],
            "auction": auction,
            "debt": debt[0] if debt else None,
            "debts": debt,
        },
        "decks": deck_views(state),
        "ended": state.ended,
        "winner": state.winner,
        # the agreed time ran out (000 FAQ 6, 002, 004 timed): when, and whether the game ends
        # at once or after the turn in progress; null while the game runs on
        "time_up": ({"at": state.time_up[0], "ends": state.time_up[1]} if state.time_up
                    else None),
        "final": state.final,
    }


WIDTH = 88  # deed lines wrap here: an 80-column terminal stays readable


def deed_groups(state: State, name: str) -> list[str]:
    """A player's deeds by colour group, in board order, each with the group's completeness:
    `marrone 2/2: Vicolo Corto [1h], Vicolo Stretto [2h]`, `stazioni 1/4: Stazione Sud`."""
    import textwrap

    lines = []
    for group, lots in state.edition.groups.items():
        mine = [pos for pos in lots if state.owners[pos] == name]
        if not mine:
            continue
        head = f"{group} {len(mine)}/{len(lots)}: "
        body = ", ".join(space_name(state, pos) + _marks(state, pos) for pos in mine)
        lines.extend(textwrap.wrap(head + body, WIDTH - 4, subsequent_indent=" " * len(head),
                                   break_long_words=False, break_on_hyphens=False))
    return lines


def _where(state: State, p) -> str:
    if p.bankrupt:
        return _("bankrupt")
    if p.in_jail:
        return _("IN JAIL (tries {n})").format(n=p.jail_turns)
    return state.edition.space(p.position).name


PHASES = {"roll": N_("roll"), "buy": N_("buy"), "auction": N_("auction"), "card": N_("card"),
          "choice": N_("choice"), "over": N_("over"), "moving": N_("moving"),
          "throw": N_("throw"), "jail_exit": N_("jail exit"), "move": N_("move"),
          "go": N_("go"), "advance": N_("advance")}


def state_text(state: State) -> str:
    doc = state_document(state)
    money = state.edition.money
    lines = [_("game {game} at event {seq} - rules {rules}, edition {edition}").format(
        game=doc["game"], seq=doc["seq"], rules=say(rules_said(doc["rules"])),
        edition=doc["edition"])]  # the rule set's name as `new` said it (`classiche`)
    if state.ended:
        lines.append(_("game over: {player} wins").format(player=state.winner) if state.winner
                     else _("game over: a tie"))
    else:
        turn = doc["turn"]
        phase = _(PHASES[turn["phase"]]) if turn["phase"] in PHASES else turn["phase"]
        if turn["phase"] == "roll" and state.current.in_jail:
            phase = _("in jail")  # as the shell's prompt says it: a roll for doubles, or a fine
        elif turn["phase"] == "roll" and doc["pending"]["deal"]:
            phase = _("to roll once the deeds are dealt")  # `roll` is refused until then (002)
        lines.append(_("turn: {player} ({phase}{doubles})").format(
            player=turn["player"], phase=phase,
            doubles=(ngettext(", {n} double", ", {n} doubles", turn["doubles"]).format(
                n=turn["doubles"]) if turn["doubles"] else "")))
    lines.append("")
    cash_width = max([8, *(len(money(p.cash)) + 1 for p in state.players)])
    # as wide as the longest name (a wide character takes two columns), 12 at least
    name_width = max([12, *(cell_width(p.name) + 1 for p in state.players)])

    def name_cell(text: str) -> str:
        return text + " " * (name_width - cell_width(text))

    lines.append(f"{name_cell(_('player'))}{_('cash'):>{cash_width}}  {_('where')}")
    # as wide as the longest place in the reader's words, 24 at least: "IN PRIGIONE
    # (tentativi 0)" ran into the jail card's flag after it
    wheres = [_where(state, p) for p in state.players]
    where_width = max([24, *(cell_width(w) + 1 for w in wheres)])
    for p, where in zip(state.players, wheres, strict=True):
        flags = ""
        if p.jail_cards:
            n = len(p.jail_cards)
            flags = ngettext("+{n} get-out-of-jail card", "+{n} get-out-of-jail cards",
                             n).format(n=n)
        lines.append(f"{name_cell(p.name)}{money(p.cash):>{cash_width}}  "
                     f"{where}{' ' * (where_width - cell_width(where))}{flags}".rstrip())
        lines.extend("    " + g for g in deed_groups(state, p.name))
    pend = doc["pending"]
    if pend["rent"] or pend["auction"] or pend["debts"]:
        lines.append("")
    for r in pend["rent"]:
        if r["paid_after_turn_of"]:
            lines.append(_("claimed: {owner} is paid {amount} by {payer} ({space}) when "
                           "{player}'s turn is over").format(
                owner=r["owner"], amount=money(r["amount"]), payer=r["payer"],
                space=r["property"], player=r["paid_after_turn_of"]))
            continue
        lines.append(_("open claim: {owner} may claim {amount} from {payer} ({space}) until "
                       "{closer} rolls").format(owner=r["owner"], amount=money(r["amount"]),
                                                payer=r["payer"], space=r["property"],
                                                closer=r["closes_when"].removesuffix(" rolls")))
    if pend["auction"]:
        a = pend["auction"]
        lead = (_("{player} leads at {amount}").format(player=a["high_bidder"],
                                                       amount=money(a["high_bid"]))
                if a["high_bidder"] else _("no bid yet"))
        what = a["property"] or _("a {kind}").format(kind=_(BUILDINGS.get(a["kind"], a["kind"])))
        lines.append(_("auction: {what} ({lead})").format(what=what, lead=lead)
                     + (_("; then {deeds}").format(deeds=", ".join(a["queue"]))
                        if a["queue"] else ""))
    for d in pend["debts"]:
        lines.append(_("debt: {debtor} owes {amount} to {creditor} ({reason}); can raise "
                       "{can}").format(debtor=d["debtor"], amount=money(d["amount"]),
                                       creditor=bank_or(d["creditor"]),
                                       reason=say_reason(d["reason"], state.edition),
                                       can=money(d["can_raise"])))
    lines.append("")
    lines.append(_("bank: {houses} houses, {hotels} hotels").format(
        houses=doc["bank"]["houses"], hotels=doc["bank"]["hotels"]))
    for d in doc["decks"].values():
        if d["next"]:
            lines.append(_("{deck}: next card {number} ({text})").format(
                deck=d["title"], number=d["next"], text=d["next_text"]))
        else:
            lines.append(_("{deck}: next card unseen, one of {n}").format(
                deck=d["title"], n=len(d["unseen"])))
    return "\n".join(lines)


def cell_width(text: str) -> int:
    """The columns a terminal gives `text`: two for a wide character (CJK, most emoji), none
    for a combining mark or a joiner, one for the rest."""
    import unicodedata

    return sum(0 if unicodedata.combining(ch) or unicodedata.category(ch) in ("Me", "Cf")
               else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def columns(rows: list[list[str]], align: str, gaps: list[int] | None = None) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell (the heading included),
    so that a long name or a big amount keeps the table straight.  align: `<` or `>` a
    column; gaps: the spaces after each column but the last (2 each by default)."""
    widths = [max(cell_width(r[i]) for r in rows) for i in range(len(align))]
    gaps = gaps or [2] * (len(align) - 1)
    lines = []
    for r in rows:
        parts = []
        for i, (cell, side) in enumerate(zip(r, align, strict=True)):
            pad = " " * (widths[i] - cell_width(cell))
            parts.append((pad + cell if side == ">" else cell + pad)
                         + (" " * gaps[i] if i < len(gaps) else ""))
        lines.append("".join(parts).rstrip())
    return lines


def standings_text(rows: list[dict], status_of) -> list[str]:
    """`banco standings` as text: rank, player, status, net worth, cash, deeds, and the
    championship's score and points where the rule set keeps them.  status_of: a status as
    said in the user's language."""
    sheet = any(r["score"] is not None for r in rows)
    points = any(r["points"] is not None for r in rows)
    table = [["", _("player"), _("status"), _("net worth"), _("cash"), _("deeds")]
             + ([_("score")] if sheet else []) + ([_("points")] if points else [])]
    for r in rows:
        table.append([f"{r['rank']}.", r["name"], status_of(r["status"]), str(r["net_worth"]),
                      str(r["cash"]), str(r["deeds"])]
                     + ([str(r["score"])] if sheet else [])
                     + (["" if r["points"] is None else str(r["points"])] if points else []))
    align = "><<>>>" + ">" * (sheet + points)
    return columns(table, align, [1] + [2] * (len(align) - 2))


def space_amount(space, rules) -> int | None:
    """The money a non-deed space moves, from the edition (taxes) or the rule set (the salary
    on Via!, the fine to leave jail); None where no fixed amount applies."""
    if space.kind == "tax":
        return space.amount
    if space.kind == "go":
        return rules.go_salary
    if space.kind == "jail":
        return rules.jail_fine
    return None


def board_document(edition, rules) -> list[dict]:
    """`banco board --json`: the 40 spaces.  `amount` was added after the first release: a
    tax's amount, the salary on Via!, the jail fine; null elsewhere."""
    return [{"position": s.position, "name": s.name, "kind": s.kind, "group": s.group,
             "price": s.price, "mortgage": s.mortgage, "house_cost": s.house_cost,
             "rents": list(s.rents), "amount": space_amount(s, rules)} for s in edition.spaces]


# A space's kind, in a context of its own: "go" the space is not "go" the command (gettext's
# pgettext: the same English word, two translations).
KINDS = {"street": NP_("space kind", "street"), "station": NP_("space kind", "station"),
         "utility": NP_("space kind", "utility"), "tax": NP_("space kind", "tax"),
         "go": NP_("space kind", "go"), "jail": NP_("space kind", "jail"),
         "go_to_jail": NP_("space kind", "go to jail"), "card": NP_("space kind", "card"),
         "parking": NP_("space kind", "parking")}


def board_text(edition, rules) -> str:
    cur = edition.currency
    money = edition.money
    spaces = board_document(edition, rules)
    kinds = {s["kind"]: pgettext(*KINDS[s["kind"]]) if s["kind"] in KINDS else s["kind"]
             for s in spaces}
    # as wide as the widest kind in the user's language, and a gap: "go to jail" ran into
    # its details ("go_to_jailstraight to Prigione")
    width = max(len(k) for k in [_("kind"), *kinds.values()]) + 2
    named = max(len(s["name"]) for s in spaces) + 2  # "Bastioni Gran Sasso (classico)"
    lines = [f"{_('pos'):>3}  {_('space'):<{named}}{_('kind'):<{width}}{_('details')}"]
    # every amount with the edition's currency, as every other reading says it (the lire
    # board printed `price 6000` bare, the last trial), the columns as wide as the widest
    price_w = max(len(money(s["price"])) for s in spaces if s["price"])
    mortgage_w = max(len(money(s["mortgage"])) for s in spaces if s["price"])
    for s in spaces:
        if s["price"]:
            rents = ", ".join(money(r) for r in s["rents"])
            if s["kind"] == "utility":  # multipliers of the dice, by utilities owned
                rents = _(" or ").join(_("{n}x dice").format(n=r) for r in s["rents"])
            extra = _("price {price:>3}  mortgage {mortgage:>3}  rents {rents}").format(
                price=money(s["price"]).rjust(price_w),
                mortgage=money(s["mortgage"]).rjust(mortgage_w), rents=rents)
            if s["house_cost"]:
                extra += _("  house {cost}").format(cost=money(s["house_cost"]))
        elif s["kind"] == "tax":
            extra = _("pay {amount} to the Bank").format(amount=money(s["amount"]))
        elif s["kind"] == "go":
            extra = _("salary {amount} on passing or landing").format(amount=money(s["amount"]))
        elif s["kind"] == "jail":
            extra = _("fine {amount} to leave before rolling").format(amount=money(s["amount"]))
        elif s["kind"] == "go_to_jail":
            extra = _("straight to {space}").format(
                space=edition.space(edition.jail_position).name)
        elif s["kind"] == "card":
            deck = edition.space(s["position"]).deck
            extra = (_("draw from {deck}").format(deck=edition.decks[deck].title)
                     if deck in edition.decks else "")
        else:
            extra = ""
        lines.append(f"{s['position']:>3}  {s['name']:<{named}}{kinds[s['kind']]:<{width}}"
                     f"{extra}".rstrip())
    lines.append(_("amounts in {currency}; salary and fine from the rule set {rules}").format(
        currency=cur, rules=say(rules_said(rules.name))))
    return "\n".join(lines)


def cards_document(edition, deck: str | None) -> list[dict]:
    decks = [edition.decks[deck]] if deck else list(edition.decks.values())
    return [{"deck": d.name, "number": card.number, "text": card.text, "effect": dict(card.effect)}
            for d in decks for card in d.cards]
