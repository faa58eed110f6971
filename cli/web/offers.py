"""Trades waiting for the players' phones (`banco serve`).

A trade is one command, `trade A B --give ... --get ...`, recorded by the banker.  When a side
of it holds a player's token (a paired phone), the server does not run the banker's line at
once: it holds the typed Trade the line was read as (cli/library.py's Line: a line that does
not read as one is refused at once, never held), shows that trade on that player's phone, and
records that very command, with the banker's id and expect, once every paired side has
accepted (never the words read again: what runs is what was consented to); a decline drops
it.
A side with no phone agrees aloud, as at a table without phones.  Offers live in the server's
memory only: nothing is recorded until the trade is, and a restarted server has none.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from starlette.responses import JSONResponse

from banco.cli.web.permissions import offer_parties
from banco.cli.words.i18n import N_
from banco.ledger.store.tokens import EVERY_GAME

CLOSED_SHOWN = 120.0  # seconds an answered offer stays on the phones, said as it ended
NO_OFFER = N_("no trade offer {offer} is waiting")
BAD_ANSWER = N_("the request needs a JSON object with `answer`: `accept` or `decline`")
NOT_YOURS = N_("this trade is not {player}'s to answer")


@dataclass
class Offer:
    id: str
    game: int
    line: str  # the line as typed, for the phones to show beside the trade
    a: str
    b: str
    waiting: set[str]
    command_id: str | None
    expect: int | None
    sides: dict = field(default_factory=dict)  # what each gives, for the phones to word it
    accepted: set[str] = field(default_factory=set)
    by: str | None = None  # the player who offered it from his phone, else the banker
    declined_by: str | None = None
    done: bool = False  # recorded
    refused: dict | None = None  # refused when it ran: why, by language (the pages' words)
    read: object = None  # the line as read (cli/library.py's Line): its Trade is what runs

    def public(self) -> dict:
        return {"id": self.id, "line": self.line, "between": [self.a, self.b],
                "waiting": sorted(self.waiting), "accepted": sorted(self.accepted),
                "by": self.by, **self.sides}


def sides(state, trade) -> dict:
    """A trade's sides as a phone words them ("Anna gives Vicolo Stretto; Bruno gives 100 M"),
    not as the banker typed them: names and amounts as the edition prints them."""
    space, money = state.edition.space, state.edition.money

    def side(items) -> dict:
        return {"deeds": [space(p).name for p in items.properties], "cash": items.cash,
                "cash_text": money(items.cash) if items.cash else None,
                "jail_cards": items.jail_cards}
    return {"a_gives": side(trade.a_gives), "b_gives": side(trade.b_gives),
            "lift": [space(p).name for p in trade.lift]}


class Offers:
    def __init__(self, hub):
        self.hub = hub
        self.pending: dict[str, Offer] = {}
        self.done: dict[str, tuple[int, dict]] = {}  # answered: the answer, for a retry
        self.revision = 0
        # answered offers, said on the phones for a while (they vanished with no word, and the
        # banker's page said a recorded trade was still waiting)
        self.closed: dict[str, tuple[float, Offer]] = {}

    def _changed(self, game: int) -> None:
        self.revision += 1
        self.hub.changed(game)
        self.hub.changed(None)

    def hold(self, token, game: int, read, command_id: str | None, expect: int | None,
             table) -> dict | None:
        """Hold a trade read from a banker's or a side's line (`read`, a cli/library.py Line
        whose command is a Trade) for the paired sides' answers: the offer, or None when no
        side has a phone (the trade runs at once, as at the terminal)."""
        if token.role not in ("banker", "player") or table.state is None:
            return None
        trade = read.command
        a, b = trade.a, trade.b
        paired = self.hub.keyring.paired(game) & {a, b}
        by = token.player if token.role == "player" else None
        if by is not None:
            # a side offering from his phone (cli/web/acts.py checks it is his, on the typed
            # trade, when it runs): the other side answers on his phone, or aloud to the
            # banker, who then accepts for him
            if by not in (trade.a, trade.b):
                return None  # run, and refused there as another's act
            other = trade.b if by == trade.a else trade.a
            paired = {other} if other in paired else {"banker"}
        if not paired or a == b:
            return None
        offer = Offer(secrets.token_hex(4), game, read.text, a, b, set(paired), command_id,
                      expect, sides(table.state, trade), by=by, read=read)
        if by is not None:
            offer.accepted.add(by)
        self.pending[offer.id] = offer
        self._changed(game)
        return offer.public()

    def seen_by(self, token, game: int | None, lang: str = "en") -> list[dict]:
        if token is None or token.role == "viewer":
            return []
        now = time.monotonic()
        for key in [k for k, (at, _) in self.closed.items() if now - at > CLOSED_SHOWN]:
            del self.closed[key]
        offers = [*self.pending.values(), *(o for _, o in self.closed.values())]
        return [{**o.public(), "declined_by": o.declined_by, "done": o.done,
                 "refused": (o.refused or {}).get(lang) if o.refused else None} for o in offers
                if o.game == game and (token.role != "player" or token.player in (o.a, o.b))]

    async def answer(self, request, token, offer_id: str, word: str):
        from banco.cli.web.hub import log

        hub = self.hub
        if offer_id in self.done:
            status, body = self.done[offer_id]
            return JSONResponse({**body, "replayed": True}, status)
        offer = self.pending.get(offer_id)
        if offer is None or token is None or token.game not in (offer.game, EVERY_GAME):
            return hub.refuse(request, 404, NO_OFFER, offer=offer_id)
        # the banker may withdraw his own offer; only a side accepts it
        # the banker accepts for a side without a phone, who agreed aloud
        banker = token.role == "banker" and (word == "decline" or "banker" in offer.waiting)
        if not (offer_parties(token.role, token.player, offer.a, offer.b) or banker):
            log(f"403 {token.role} {token.player or ''}: answer {word} to {offer.line!r}")
            return hub.refuse(request, 403, NOT_YOURS, player=token.player or token.role)
        if word == "decline":
            del self.pending[offer_id]
            offer.declined_by = token.player or token.role
            self.closed[offer_id] = (time.monotonic(), offer)
            self.done[offer_id] = (200, {"offer": {**offer.public(), "declined_by":
                                                   token.player or token.role}})
            self._changed(offer.game)
            return JSONResponse(self.done[offer_id][1], 200)
        who = token.player if token.role == "player" else "banker"
        if who in offer.accepted:  # the offerer's own accept: he already offered it
            return JSONResponse({"offer": offer.public()}, 202)
        offer.waiting.discard(who)
        offer.accepted.add(who)
        if offer.waiting:
            self._changed(offer.game)
            return JSONResponse({"offer": offer.public()}, 202)
        del self.pending[offer_id]
        # the trade as read and shown, not its words read again; a refusal said in every
        # language, for each page that follows the offer to say it in its own
        from banco.cli.words.i18n import LANGUAGES

        status, body = await hub.write(offer.game, offer.read, hub.language(request),
                                       offer.command_id, offer.expect,
                                       ("player", offer.by) if offer.by else None, False,
                                       tuple(LANGUAGES))
        refused = body.pop("refused_in", None)
        if status == 503:  # the database away: nothing recorded, the offer waits for a retry
            from banco.cli.web.hub import TRY_AGAIN

            offer.waiting.add(token.player)
            offer.accepted.discard(token.player)
            self.pending[offer_id] = offer
            return JSONResponse({**body, "offer": offer.public()}, status, headers=TRY_AGAIN)
        offer.done, offer.refused = status == 200, refused if status != 200 else None
        self.closed[offer_id] = (time.monotonic(), offer)
        self.done[offer_id] = (status, {**body, "offer": offer.public()})
        self._changed(offer.game)
        return JSONResponse(self.done[offer_id][1], status)
