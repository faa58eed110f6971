"""What the pages offer as buttons beyond the dice (issue 34), and the table's own words in the
page's language.

- `table_choices(state)`: the choices the table waits for that were typed before: the jail's
  (`pay-fine`, `use-card`: 004 §Prigione) and a pay-or-draw card's (`card DECK N pay|draw`);
- `player_extras(state, name, lang)`: what a player's phone needs to record his own acts: the
  card picker and the Speedy die on his turn, his estate pads, the trade builder's view of the
  others (their deeds, never their cash), his debt's one line that can work;
- `localised(doc, state, lang)`: a document's command lines and the rule set's name said in
  the page's language (`tira 3 4`, `classica`), not the English the log keeps; on a screen
  nobody types at (a player's phone, the TV) what the table waits for said in words
  (cli/web/steps.py).
"""

from __future__ import annotations

import shlex

from banco.cli.lines import vocabulary
from banco.cli.web.steps import AUCTION_LOT, in_words, tv_auction
from banco.cli.words.i18n import N_
from banco.ledger.base.text import render
from banco.ledger.board.rule_sets import named


def table_choices(state) -> list[dict]:
    """The choices the table waits for, as lines: [{"choice", "line", "player", "amount"}]."""
    if state.ended:
        return []
    t = state.turn
    player = state.current
    out: list[dict] = []
    in_jail = player.in_jail and t.phase == "roll" and not t.dice
    if (in_jail or t.phase == "jail_exit") and not state.debts:
        out.append({"choice": "pay_fine", "line": "pay-fine", "player": t.player,
                    "amount": state.edition.money(state.rules.jail_fine)})
        if player.jail_cards:
            out.append({"choice": "use_card", "line": "use-card", "player": t.player,
                        "amount": None})
    if t.phase == "choice" and t.card_choice is not None:
        deck, number = t.card_choice
        out += [{"choice": f"card_{word}", "line": f"card {deck} {number} {word}",
                 "player": t.player, "amount": None} for word in ("pay", "draw")]
    return out


def player_extras(state, name: str, lang: str) -> dict:
    """A player's own pads (the view `player:NAME`)."""
    from banco.ledger.table.steps import debt_choice
    from banco.projections.readings.estate_pads import estate
    from banco.projections.readings.screen import card_pick, speedy_roll

    if name not in state.seats:
        return {}
    mine = state.turn.player == name and not state.ended
    players = []
    for p in estate(state)["players"]:
        if p["name"] == name:
            players.append(p)
        else:  # the trade builder's other side: his deeds, not his cash
            players.append({"name": p["name"], "build": [], "sell": [], "mortgage": [],
                            "unmortgage": [], "trade": {**p["trade"], "cash": None}})
    from banco.ledger.board.rule_sets import cited
    from banco.ledger.rules.estate import R_BANKRUPT

    debts = [{"debtor": name, "choice": c, "raise": r, "raise_text": state.edition.money(r),
              "rule": cited(state.rules, "bankrupt", R_BANKRUPT)}
             for c, r in [debt_choice(state, name)]] \
        if any(d.debtor == name for d in state.debts) else []
    from banco.cli.words import i18n

    return {"cards": card_pick(state) if mine else None,
            "speedy": speedy_roll(state) if mine else False,
            "estate": {"players": players}, "debt_pad": debts,
            "choices": [c for c in table_choices(state) if c["player"] == name],
            "auction_next": auction_next(state, name, i18n.catalog(lang))}


# an auction, as a player's phone says it: what he can do (bid, drop out), never the banker's
# `hammer` (the table's own step, `bid PLAYER AMOUNT` or `hammer`, read "offerta o aggiudica"
# on Bruno's phone); who leads has nothing to raise (003 §03)
AUCTION_LEADS = N_("auction for {what}: {name} leads with {amount}. Bid more from this phone, or "
                   "drop out (just do not bid)")
AUCTION_OPEN = N_("auction for {what}: no bid yet, bids from {amount}. Bid from this phone, or "
                  "drop out (just do not bid)")
AUCTION_YOURS = N_("auction for {what}: your bid of {amount} leads. Wait for a higher bid, or for "
                   "the banker to close the auction")
AUCTION_OUT = N_("auction for {what}: you may not bid in it again (000 FAQ 22: the winner who "
                 "could not pay stays out)")


def auction_next(state, name: str, catalog) -> str | None:
    """What the table waits for during an auction, in a player's words (None: no auction)."""
    a = state.auction
    if a is None or state.ended:
        return None
    what = (state.edition.space(a.property).name if a.kind == "deed"
            else catalog.gettext(AUCTION_LOT[a.kind]))
    if name in a.excluded:
        return catalog.gettext(AUCTION_OUT).format(what=what)
    if a.high_bidder == name:
        return catalog.gettext(AUCTION_YOURS).format(what=what, amount=state.edition.money(a.high_bid))
    if a.high_bidder:
        return catalog.gettext(AUCTION_LEADS).format(what=what, name=a.high_bidder,
                                                     amount=state.edition.money(a.high_bid))
    return catalog.gettext(AUCTION_OPEN).format(what=what, amount=state.edition.money(a.min_bid))


def line_words(lang: str) -> dict:
    """The command words in `lang` by the words of the other language (`roll`: `tira` for an
    Italian page, `tira`: `roll` for an English one), for the page to say a line as its reader
    types it, whichever language the banker typed it in: the first Italian alias of each, its
    options and values."""
    from banco.cli.lines.vocabulary import (
        ALIASES,
        FORMER,
        ITALIAN_OPTIONS,
        OPTION_ALIASES,
        VALUE_ALIASES,
    )

    if lang != "it":  # an English page: `tira 1 2 --giocatore Carla` is `roll 1 2 --player`
        return {**ALIASES, **OPTION_ALIASES, **VALUE_ALIASES,
                **{it: en for en, it in ITALIAN_OPTIONS.items()},
                **{it: en for en, it in RULING_KINDS_IT.items()}}
    said: dict[str, str] = {}
    for table in (ALIASES, OPTION_ALIASES, VALUE_ALIASES):
        for word, english in table.items():
            if word not in FORMER:  # read, never said
                said.setdefault(english, word)
    return said


# the ruling kinds as `decisione` takes them (cli/referee/commands.py's `ruling` group)
RULING_KINDS_IT = {"rent": "affitto", "auction": "asta", "bankruptcy": "bancarotta",
                   "jail": "prigione"}


def option_in(word: str, words: dict, lang: str = "it") -> str:
    """An option as it is typed in `lang` (`--record` is `--registra`, `--referee=Rita` is
    `--arbitro=Rita` in Italian; the other way in English): a command's own option words,
    then click's options."""
    name, eq, value = word.partition("=")
    said = words.get(name) or (vocabulary.ITALIAN_OPTIONS.get(name, name) if lang == "it"
                               else name)
    return said + eq + value


def line_in(line: str | None, lang: str) -> str | None:
    """A recorded line in `lang`'s words (`decline` is `rifiuta`); names stay as typed."""
    words = line_words(lang)
    if not line or not words:
        return line
    try:
        parts = shlex.split(line)
    except ValueError:  # a quote left open, as a comment's apostrophe leaves it (`advance #
        # to Piazza Dante, Bruno's`): its command word said alone, the rest as typed
        word, space, rest = line.partition(" ")
        return words.get(word, word) + space + rest
    if not parts:
        return line
    out = [words.get(parts[0], parts[0])]
    # a ruling's kind is a word of its own (`decisione affitto 142`: `decisione rent 142`
    # was half Italian)
    ruling = vocabulary.english_word(parts[0]) == "ruling"
    kind = (RULING_KINDS_IT if lang == "it" else words) if ruling else {}
    values = (("pay", "draw", "house", "hotel", "jail-card") if lang == "it"
              else tuple(vocabulary.VALUE_ALIASES))
    out += [option_in(w, words, lang) if w.startswith("--") else
            words.get(w, w) if w in values else
            kind.get(w, w) if i == 0 else w
            for i, w in enumerate(parts[1:])]
    return shlex.join(out).replace("'", '"') if any(" " in w for w in out) else " ".join(out)


def rule_set_name(rules, tr) -> str:
    """A rule set's name standing alone on the pages (the TV's line, the set-up's choice), from
    the rule sets' one table (ledger/board/rule_sets.py's named): no word of the pages' own."""
    return render(named(rules.name), tr)


def localised(doc: dict, state, lang: str, catalog, view: str = "full") -> dict:
    """The document with its lines and the rule set's name in the page's language, and the
    auction's rule (the leader's phone cites it: nothing to raise, 003 §03); on a player's
    phone and the TV (`view` not "full") what the table waits for said in words."""
    if view != "full" and doc.get("next"):
        doc = {**doc, "next": tv_auction(state, catalog)
               if view == "public" and state.auction is not None and not state.ended
               else in_words(doc["next"], catalog)}
    if doc.get("auction"):
        from banco.ledger.board.rule_sets import cited
        from banco.ledger.rules.auction import R_AUCTION

        doc = {**doc, "auction": {**doc["auction"],
                                  "rule": cited(state.rules, "auction", R_AUCTION)}}
    doc = {**doc, "rules_text": doc.get("rules") if lang == "en"
           else rule_set_name(state.rules, catalog)}
    if doc.get("edition"):  # "Monopoly, edizione italiana" headed an English page
        doc["edition"] = state.edition.title_in(lang)
    if doc.get("commands"):
        doc["commands"] = [{**c, "line": line_in(c["line"], lang)} for c in doc["commands"]]
    if doc.get("undo"):
        doc["undo"] = {**doc["undo"], "line": line_in(doc["undo"]["line"], lang)}
    return doc


# what the TV's centre says just happened, fact by fact (the words: cli/web/words.py)
HAPPENED = {
    "PropertyBought": N_("{player} bought {space} for {amount}"),
    "AuctionWon": N_("{player} won {space} at auction for {amount}"),
    "RentPaid": N_("{payer} paid {payee} {amount} of rent"),
    "SentToJail": N_("{player} goes to jail"),
    "FinePaid": N_("{payer} paid the fine, {amount}"),
    "PropertyMortgaged": N_("{player} mortgaged {space}"),
    "TradeCompleted": N_("{a} and {b} traded"),
}
ROLLED = N_("{player} rolled {dice}: to {space}")
# doubles said as the terminal says them (cli/words/fact_lines.py): "Bruno rolled 1+1" left
# the room to guess why Bruno rolled again
DOUBLES, DOUBLES_IN_ROW = N_(" (doubles)"), N_(" (doubles, {n} in a row)")


def happened(state, tail: list[dict], catalog) -> list[str]:
    """The last roll (who, the dice, where to) and the last command's headline facts, said in
    the page's language: what a room three metres away wants to know."""
    undone = max((e["seq"] for e in tail if e["type"] == "EventRetracted"), default=0)
    out = []
    roll = next((e for e in reversed(tail) if e["type"] == "DiceRolled"
                 and e["seq"] > undone), None)
    if roll is not None:
        moved = next((e for e in tail if e["type"] == "TokenMoved" and e["seq"] > roll["seq"]
                      and e["data"]["player"] == roll["data"]["player"]), None)
        space = state.edition.space(moved["data"]["to"]).name if moved else "?"
        d = roll["data"]
        extra = (catalog.gettext(DOUBLES_IN_ROW).format(n=d["in_row"])
                 if d.get("doubles") and d.get("in_row") else
                 catalog.gettext(DOUBLES) if d.get("doubles") else "")
        out.append(catalog.gettext(ROLLED).format(
            player=d["player"], space=space,
            dice="+".join(str(x) for x in d["dice"]) + extra))
    last = max((e["seq"] for e in tail if e["type"] == "CommandRecorded"), default=0)
    for e in tail:
        if e["seq"] < last or e["seq"] <= undone or e["type"] not in HAPPENED:
            continue
        d = e["data"]
        out.append(catalog.gettext(HAPPENED[e["type"]]).format(
            player=d.get("player", ""), payer=d.get("payer", ""), payee=d.get("payee", ""),
            a=d.get("a", ""), b=d.get("b", ""),
            space=state.edition.space(d["property"]).name if "property" in d else "",
            amount=state.edition.money(d["amount"]) if "amount" in d else ""))
    return out


def lifts_said(pads: dict, state, catalog) -> dict:
    """The estate pads with each lift out of reach said as the rules refuse it (a button the
    player can press only to be refused looked live: Bruno, 16 M, was offered a 77 M lift, the
    trial): `why`, the rules' own refusal (004 §Impegno: the cost; 003 §10: a debt first),
    decided on this table, never worked out by the page."""
    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.base.text import cited
    from banco.ledger.records.commands import Unmortgage
    from banco.ledger.rules.decide import decide

    where = {state.edition.space(pos).name: pos for pos in state.mortgaged}
    players = []
    for p in pads["players"]:
        lifts = []
        for d in p["unmortgage"]:
            if not d["affordable"] and d["name"] in where:
                try:
                    decide(state, Unmortgage(where[d["name"]], p["name"]))
                except RuleViolation as refusal:
                    d = {**d, "why": cited(refusal.text.render(catalog), refusal.rule)}
            lifts.append(d)
        players.append({**p, "unmortgage": lifts})
    return {**pads, "players": players}


def groups_named(pads: dict, state, lang: str) -> dict:
    """The estate pads with each colour group's name in the page's language (`name`): an
    English page read the Italian board's "marrone"; its key (`group`) stays the line's."""
    def named_(groups: list[dict]) -> list[dict]:
        return [{**g, "name": state.edition.group_name(g["group"], lang)} for g in groups]

    return {**pads, "players": [{**p, "build": named_(p["build"]), "sell": named_(p["sell"])}
                                for p in pads["players"]]}
