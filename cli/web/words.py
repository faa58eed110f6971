"""The page's words (cli/web/static/page.html and app.js), said in the reader's language: the
page fills the {names}.  Catalog messages like every other (cli/words/locale)."""

from __future__ import annotations

from banco.cli.words.i18n import N_, NP_
from banco.ledger.base.confusables import LOOKALIKE_LETTERS
from banco.ledger.base.text import render
from banco.ledger.board.edition import EDITIONS, load_edition
from banco.ledger.board.rule_sets import NAMES, named

WORDS = {
    # the table, as every page shows it
    "title": N_("banco: the table"),
    "game": N_("game {game}"),
    "event": N_("event {seq}"),
    "cash": N_("cash"),
    "cash_hidden": N_("cash not shown ({rule}: a player need not say how much cash they hold)"),
    "in_jail": N_("in jail"),
    "bankrupt": N_("bankrupt"),
    "jail_cards": N_("get-out-of-jail cards: {n}"),
    "deeds": N_("deeds"),
    "no_deeds": N_("no deeds"),
    "claims": N_("open rent claims"),
    "claim": N_("{owner} may claim {amount} from {payer} for {property}"),
    "until": N_("until {name} rolls"),
    "after_turn": N_("paid after {name}'s turn"),
    "no_claims": N_("no claim open"),
    # who leads an auction has nothing to raise, and no rule takes a bid back: she waits
    "you_lead": N_("your bid leads, {amount}: nothing to raise; wait for a higher bid or the "
                   "hammer ({rule})"),
    "leads": N_("{name} leads: nothing to raise"),
    "debts": N_("debts"),
    "debt": N_("{debtor} owes {creditor} {amount}"),
    # the Bank said by name, not its account's id ("Anna owes bank 100 M", the last trial)
    "debt_bank": N_("{debtor} owes the Bank {amount}"),
    "commands": N_("last commands"),
    "no_line": N_("(no line recorded)"),
    "undone": N_("taken back by an undo"),
    "mortgaged": N_("mortgaged"),
    "offline": N_("connection lost: retrying..."),
    # who holds the page
    "as_banker": N_("banker"),
    "as_player": N_("{name}'s phone"),
    "as_referee": N_("referee"),
    "bad_token": N_("this link's token is not valid any more: ask the banker for a new one"),
    # the banker's pads: each die's row (not "dice 1": one die)
    "die": N_("die {n}"),
    "speedy": N_("Speedy die"),
    # the button says the line it sends, in the word the banker types (`tira 3 4`, not the
    # infinitive the rules' sentences use: "impossibile tirare ora"), as `rifiuta`, `offerta`
    "roll": NP_("the command word", "roll"),
    "buy": N_("buy {property}"),
    "decline": NP_("the command word", "decline"),
    "bid": NP_("the command word", "bid"),
    "hammer": N_("hammer"),
    "pay": N_("{name} pays"),
    "go_bankrupt": N_("{name} goes bankrupt"),
    "must_raise": N_("{name} lacks {amount} in cash: sell buildings or mortgage deeds (below), "
                     "or trade, then pay ({rule})"),
    "claim_for": N_("{owner} claims"),
    "draw": N_("the card drawn"),
    # the line in quotes, not a terminal's backticks: a phone shows no `code`
    "undo": N_("undo “{line}”"),
    "undo_changes": N_("undo “{line}”: {changes}"),
    "hammer_anyway": N_("hammer with no bid"),
    "hammer_to": N_("hammer: to {name}"),
    # Italian "lascia stare", never the undo's word: the two buttons sit near each other
    "cancel": N_("cancel"),
    # the estate pads: build and sell by group and level, mortgages, the trade builder
    "build_h": N_("build: a colour group owned whole, then the level on each lot"),
    "sell_h": N_("sell buildings to the Bank at half price: a group, then the level"),
    "group_of": N_("{group} ({name})"),
    "build_houses": N_("{n} per lot · {cost}"),
    "build_hotel": N_("hotel per lot · {cost}"),
    "sell_down": N_("down to {n} per lot"),
    "sell_all": N_("sell them all"),
    "mortgage_h": N_("mortgages: a player, then a deed"),
    "mortgage_deed": N_("mortgage {property} +{amount}"),
    "lift_deed": N_("lift the mortgage on {property} −{amount}"),
    "trade_open": N_("trade..."),
    "trade_h": N_("trade: who gives, then with whom, then what each side gives"),
    "trade_with": N_("with"),
    "gives": N_("{name} gives"),
    "jail_card": N_("get-out-of-jail card"),
    "lift_now": N_("{property}: lifted at once (mortgage + 10%), not only the 10%"),
    "cash_amount": N_("cash: {amount}"),
    "line": N_("a line, as at the terminal: build, sell, mortgage, trade..."),
    "send": N_("send"),
    "line_referee": N_("a ruling or a correction, as at the terminal: ruling rent 16, correct "
                       "NAME AMOUNT --reason WHY --referee NAME"),
    "pending": N_("not confirmed yet: {line} (sent again when the connection is back)"),
    "done": N_("recorded: {line}"),
    # a line that asks and records nothing (a ruling without --record): not "recorded"
    "asked": N_("answered, nothing recorded: {line}"),
    "refused": N_("refused: {why}"),
    # a player's phone
    "your_cash": N_("your cash"),
    "claim_now": N_("CLAIM {amount} from {payer}"),
    "offer": N_("trade offered: {a} gives {a_gives}; {b} gives {b_gives}"),
    "offer_nothing": N_("nothing"),
    "offer_lift": N_("lifted at once: {deeds}"),
    "waiting_for": N_("waiting for {names}"),
    "accept": N_("accept"),
    "decline_offer": NP_("the command word", "decline"),
}


# the evening from phones (issue 34): set-up, joins, choices, claims, trades, the TV
WORDS.update({
    "choice_pay_fine": N_("{name} pays the fine ({amount})"),
    "choice_use_card": N_("{name} uses the get-out-of-jail card"),
    "choice_card_pay": N_("{name} pays"),
    "choice_card_draw": N_("{name} draws a card"),
    "confirm": N_("sure? tap again: {what}"),
    "claim_offline": N_("NOT CONNECTED: claim aloud"),
    "claim_unsent": N_("the claim was NOT sent (this phone has lost the table): claim aloud, "
                       "at the table, now"),
    "claim_late": N_("the table received the claim at {at}: {why}"),
    "held": N_("waiting for {names}: {line} (not recorded yet)"),
    "offer_declined": N_("declined by {name}: nothing recorded"),
    "offer_withdrawn": N_("withdrawn by {name}: nothing recorded"),
    # the outbox's line for an answer that records nothing
    "withdrawn": N_("offer withdrawn: nothing recorded"),
    "declined": N_("offer declined: nothing recorded"),
    "offer_done": N_("recorded"),
    # a held line whose offer ended unrecorded: "declined by Bruno: nothing recorded (trade ...)"
    "held_over": N_("{what} ({line})"),
    "accepted_by": N_("{name} accepted"),
    "accept_for": N_("{name} agreed aloud: accept"),
    "withdraw": N_("withdraw the offer"),
    "setup_h": N_("games and phones"),
    "setup_new": N_("a new game"),
    "setup_next": N_("the last game is over: the next one starts here"),
    "seat_n": N_("player {n}"),
    "setup_rules": N_("rules"),
    "setup_edition": N_("edition"),
    "edition_default": N_("the rules' own"),
    "setup_hidden": N_("cash hidden on the TV"),
    "setup_start": N_("start the game"),
    "setup_phones": N_("game {game}: the players' phones"),
    "pair": N_("pair a phone"),
    "pair_again": N_("pair again"),
    "revoke": N_("revoke {code}"),
    "join_at": N_("a phone joins at {url} with the code {code}"),
    "join_asks": N_("{name}'s phone asks to join"),
    "approve": N_("approve"),
    "refuse": N_("refuse"),
    "join_h": N_("join the table"),
    "join_code": N_("the code on the TV"),
    "join_find": N_("find the game"),
    "join_seat": N_("which player are you?"),
    "join_waiting": N_("waiting for the banker to approve {name}'s phone..."),
    "join_refused": N_("the banker refused: ask at the table"),
    "happened_roll": N_("{name} rolled {total}"),
    "rent_due": N_("{owner} may ask {payer} for {amount}"),
    "no_game": N_("no game yet: the banker starts one from the banker's page"),
    "mortgage_own": N_("mortgages: a deed to mortgage or to lift"),
    # a server that cannot record (the log's chain broken: a 423, code 3) or cannot check the
    # phones' links (started without the tokens' key): what happened and who does what
    "chain_broken": N_("The game's record is damaged, so banco records nothing more: what you "
                       "tap now is not kept. Go on with pen and paper, and ask the banker or "
                       "the referee to run “banco audit” on the computer that runs banco: it "
                       "says what is wrong and where."),
    # a typed line holding a character that prints as nothing (a zero-width space pasted
    # from a chat): refused before it is sent, the line shown with the character visible
    "line_hidden": N_("not sent: the line holds a character that does not show ({code}): "
                      "{line}. Type it again without it"),
    "chain_short": N_("the game's record is damaged: nothing recorded"),
    "no_key": N_("This server has no key for the phones' links, so it cannot be sure nobody "
                 "changed the list of paired phones in the game's file. You can play on; the "
                 "referee or the banker should run “banco audit” where the key is kept, to "
                 "check it."),
})
RULE_SETS = tuple(NAMES)  # the built-in rule sets, named from their one table


def words(tr) -> dict:
    from banco.cli.web.choices import line_words

    said = {k: tr.pgettext(*v) if isinstance(v, tuple) else tr.gettext(v)
            for k, v in WORDS.items()}
    said.update({"rules_" + r: render(named(r), tr) for r in RULE_SETS})
    lang = (tr.info() or {}).get("language", "en")
    said["line_words"] = line_words(lang)
    # the set-up's choice of board by its title in the page's language, not its key (`it-lire`)
    said["editions"] = {e: load_edition(e).title_in(lang) for e in EDITIONS}
    said["lookalikes"] = LOOKALIKE_LETTERS  # the CLI's confusables (evening.js's visible)
    return said
