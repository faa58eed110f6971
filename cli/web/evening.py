"""The evening from `banco serve` on, with no terminal (issue 34): the banker's page starts the
games and pairs the phones; a phone may join with the short code the TV shows.

Routes (docs/phones-api.md; a token in `Authorization: Bearer TOKEN`):
- GET  /join                          the page where a phone types the TV's code
- GET  /api/games                     banker: the file's games, the rule sets and editions, the
                                      join code, the phones of the game and the joins waiting
- POST /api/games {"players": [...], "rules": "classic", "edition": "it", "cash": "hidden"}
                                      banker: 201 {"game", "players", "rules", "edition",
                                      "said"}; what `banco new` refuses, 400/422 with its words,
                                      nothing created
- POST /api/games/N/tokens {"role": "player", "player": "Anna"}   (or "viewer", "referee")
                                      banker: 201 {"token", "url", "code", "qr", "player"}: the
                                      token only in the URL's fragment, `code` its prefix (what
                                      --list shows and revoke takes), `qr` an SVG data URL
- POST /api/tokens/PREFIX/revoke      banker: the token refused at once
- GET  /api/join                      anyone (the TV): {"code", "game"}
- GET  /api/join/CODE                 anyone: the game's seats, which have a phone
- POST /api/join {"code", "player"}   a phone asks for a seat: 202 {"request", "key"}; the
                                      code as text (the TV's six digits), the player named
                                      as the commands name him; a seat's second request
                                      replaces its first; a bankrupt player's seat refused
- POST /api/join/ID {"key"}           the phone asks again: {"state": waiting|approved|refused}
                                      and, approved, {"token", "url"} (to the key's holder only)
- POST /api/joins/ID {"answer": "approve"|"refuse"}   banker: a join request answered
Joins and codes live in the server's memory: a restarted server has new ones.
"""

from __future__ import annotations

import asyncio
import secrets
import shlex
import time
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from banco.cli.web.bodies import checked
from banco.cli.words.i18n import N_

NOT_BANKER = N_("only the banker's page starts games and pairs phones")
BAD_GAME = N_("the request needs a JSON object with `players` (two names or more), and may "
              "give `rules` (one of {rules}), `edition` (one of {editions}) and `cash` "
              "(`hidden` or `shown`)")
BAD_SEAT = N_("the request needs a JSON object with `role` (player, viewer or referee) and, "
              "for a player, `player`: one of {players}; a referee's may give `player`, the "
              "referee's name (no player's), which the token then records as only")
NO_SUCH_GAME = N_("no game {game} in this file")
NO_CODE = N_("no game is waiting for phones with the code {code}: read it again from the TV")
NO_JOIN = N_("no request {id} is waiting: ask the banker to pair the phone")
NO_TOKEN = N_("no live token starts with {prefix}")
JOIN_WAIT = 600.0  # seconds a join request waits for the banker
JOINS_WAITING = 12  # requests a game keeps waiting at once: a room of phones, not a flood
TOO_MANY = N_("{count} phones are already waiting for the banker's answer: ask at the table")
BAD_JOIN = N_("the request needs a JSON object with `code`, the TV's six digits as text "
              "(\"029863\", not a number), and `player`: one of {players}")
BAD_ANSWER = N_("the request needs a JSON object with `answer`: `approve` or `refuse`")
# a bankrupt player is out of the game (003 §10; 004 §Fallimento): no phone acts for him
OUT_OF_GAME = N_("{name} is bankrupt and out of the game ({rule}): no phone is paired for "
                 "{name}")


@dataclass
class Join:
    id: str
    key: str  # the asking phone's secret: only it collects the token
    game: int
    player: str
    at: float
    state: str = "waiting"  # waiting | approved | refused
    token: str | None = None
    url: str | None = None


class Evening:
    """The server's join codes (one a game) and the joins waiting for the banker."""

    def __init__(self):
        self.codes: dict[int, str] = {}
        self.joins: dict[str, Join] = {}

    def code(self, game: int) -> str:
        if game not in self.codes:
            taken = set(self.codes.values())
            code = f"{secrets.randbelow(10**6):06d}"
            while code in taken:
                code = f"{secrets.randbelow(10**6):06d}"
            self.codes[game] = code
        return self.codes[game]

    def game_of_code(self, code: str) -> int | None:
        return next((g for g, c in self.codes.items() if c == code.strip()), None)

    def waiting(self, game: int | None) -> list[dict]:
        now = time.monotonic()
        for j in [j for j in self.joins.values() if now - j.at > JOIN_WAIT]:
            del self.joins[j.id]
        return [{"id": j.id, "player": j.player, "game": j.game}
                for j in self.joins.values() if j.state == "waiting" and j.game == game]


def visible(text: str) -> str:
    """A code as the page typed it, each character that prints as nothing (a zero-width space
    pasted with it) shown as its escape, as the CLI's `{name!r}` echoes it: "838603" said
    raw read as the TV's own code, refused."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def bankrupt_rule() -> str:
    from banco.ledger.rules.estate import R_BANKRUPT

    return R_BANKRUPT


def named(text: str, names: list[str]) -> str | None:
    """The seat `text` names, as the commands resolve a name (case, accents, a unique
    prefix: `dario` is Dario), or None."""
    from banco.ledger.base.errors import BancoError
    from banco.ledger.base.names import resolve

    try:
        return resolve(text, names, "player")
    except BancoError:
        return None


def referee_named(text: str, names: list[str]) -> str | None:
    """A referee's name as `--referee` takes it, or None: no name, or a player's."""
    from banco.ledger.base.errors import BancoError
    from banco.ledger.base.names import fold
    from banco.ledger.rules.referee import referee_name

    try:
        name = referee_name(text)
    except BancoError:
        return None
    return None if fold(name) in {fold(n) for n in names} else name


def pairing_url(base: str, role: str, secret: str) -> str:
    """The link that pairs a phone: the token in the fragment, which no browser sends
    (cli/web/tokens_cli.py's link, the same address)."""
    return f"{base.rstrip('/')}/{'' if role == 'viewer' else role}#t={secret}"


def qr_uri(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_data_uri(scale=4, border=2)


def evening_routes(hub, page) -> list[Route]:
    """The routes."""
    evening = hub.evening = Evening()

    async def banker(request: Request):
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        if token is None or token.role != "banker":
            return hub.refuse(request, 403, NOT_BANKER)
        return token

    async def banker_body(request: Request, kind: str):
        """A banker's request's checked body (cli/web/bodies.py's schema `kind`), or the
        response that refuses it: not the banker's page, or a body no schema takes."""
        token = await banker(request)
        if isinstance(token, Response):
            return token
        return await checked(hub, request, kind)

    def games_now() -> list[dict]:
        from banco.ledger.book import Book

        book = Book(hub.db, create=False)
        try:
            return book.games()
        finally:
            book.close()

    def current(token) -> int | None:
        game = hub.game_of(token)
        table = hub.table(game)
        return table.state.game_id if table.state is not None else game

    def seats(game: int | None) -> list[dict]:
        """The players of a game and the live phones each holds (by prefix)."""
        if game is None:
            return []
        table = hub.table(game)
        names = list(table.state.seats) if table.state is not None else []
        out = {p.name for p in table.state.players if p.bankrupt} if table.state else set()
        tokens = [t for t in hub.keyring.listed(game) if t.revoked_at is None
                  and t.game == game]
        return [{"player": n, "bankrupt": n in out,
                 "phones": [t.prefix for t in tokens if t.role == "player" and t.player == n]}
                for n in names] + [{"player": None, "role": t.role, "referee": t.player, "phones": [t.prefix]}
                                   for t in tokens if t.role in ("viewer", "referee")]

    async def games(request: Request) -> Response:
        token = await banker(request)
        if isinstance(token, Response):
            return token
        from banco.ledger.board.edition import EDITIONS
        from banco.ledger.board.rule_sets import BUILTIN

        listed = await asyncio.get_running_loop().run_in_executor(None, games_now)
        game = current(token)
        return JSONResponse({
            "games": [{"game": g["game_id"], "players": g.get("players"), "rules":
                       g.get("rules"), "edition": g.get("edition"), "ended": g.get("ended")}
                      for g in listed],
            "game": game, "rules": list(BUILTIN), "editions": list(EDITIONS),
            "code": evening.code(game) if game is not None else None,
            "seats": seats(game), "joins": evening.waiting(game),
            "cash": "shown" if hub.show_cash else "hidden" if hub.show_cash is False
            else None})

    async def start_game(request: Request) -> Response:
        body = await banker_body(request, "game")
        if isinstance(body, Response):
            return body
        from banco.ledger.board.edition import EDITIONS
        from banco.ledger.board.rule_sets import BUILTIN

        ok = (isinstance(body, dict) and isinstance(body.get("players"), list)
              and all(isinstance(p, str) for p in body["players"])
              and body.get("rules", "classic") in BUILTIN
              and body.get("edition") in (None, *EDITIONS)
              and body.get("cash") in (None, "hidden", "shown"))
        if not ok:
            # a rule set by its name only: a phone names no file on the server
            return hub.refuse(request, 400, BAD_GAME, rules=", ".join(BUILTIN),
                              editions=", ".join(EDITIONS))
        words = ["new", "--rules", body.get("rules", "classic")]
        if body.get("edition"):
            words += ["--edition", body["edition"]]
        line = shlex.join([*words, "--", *(p.strip() for p in body["players"])])
        lang = hub.language(request)
        status, said, game = await asyncio.get_running_loop().run_in_executor(
            hub.writer, new_game, hub, line, lang)
        if status != 201:
            return JSONResponse(said, status)
        if body.get("cash") is not None:  # the evening's choice: the TV hides or shows cash
            hub.show_cash = body["cash"] == "shown"
            for table in hub.tables.values():
                table.show_cash = hub.show_cash
        for key, table in list(hub.tables.items()):
            if key is None or key == game:
                table.nudge()
        hub.changed(None)
        table = hub.table(game)
        return JSONResponse({"game": game, "players": list(table.state.seats)
                             if table.state else body["players"],
                             "rules": body.get("rules", "classic"),
                             "edition": body.get("edition") or (table.state.rules.edition
                                                                if table.state else None),
                             "said": said["said"], "code": evening.code(game)}, 201)

    def issue(request: Request, game: int, role: str, player: str | None) -> dict:
        from banco.ledger.store.canonical import now_text

        secret, row = hub.keyring.issue(role, game, now_text(), player)
        url = pairing_url(str(request.base_url), role, secret)
        return {"token": secret, "url": url, "code": row.prefix, "qr": qr_uri(url),
                "role": role, "player": player, "game": game}

    async def pair(request: Request) -> Response:
        body = await banker_body(request, "seat")
        if isinstance(body, Response):
            return body
        try:
            game = int(request.path_params["game"])
        except ValueError:
            game = -1
        table = hub.table(game) if game in {g["game_id"] for g in games_now()} else None
        if table is None or table.state is None:
            return hub.refuse(request, 404, NO_SUCH_GAME, game=request.path_params["game"])
        names = list(table.state.seats)
        role = body.get("role") if isinstance(body, dict) else None
        given = body.get("player") if isinstance(body, dict) else None
        player = (named(given, names) if role == "player" and isinstance(given, str) else
                  # a referee's name binds the token: it records as that name only (as
                  # `token referee NAME`); no player's name
                  referee_named(given, names) if role == "referee" and isinstance(given, str)
                  else None)
        if not ((role == "player" and player in names) or (role == "viewer" and given is None)
                or (role == "referee" and (given is None or player is not None))):
            return hub.refuse(request, 400, BAD_SEAT, players=", ".join(names))
        if role == "player" and table.state.player(player).bankrupt:
            return hub.refuse(request, 422, OUT_OF_GAME, name=player, rule=bankrupt_rule())
        return JSONResponse(issue(request, game, role, player), 201)

    async def revoke(request: Request) -> Response:
        token = await banker(request)
        if isinstance(token, Response):
            return token
        from banco.ledger.store.canonical import now_text

        prefix = request.path_params["prefix"]
        gone = hub.keyring.revoke(prefix, now_text()) if len(prefix) >= 4 else []
        if not gone:
            return hub.refuse(request, 404, NO_TOKEN, prefix=prefix)
        return JSONResponse({"revoked": [{"code": t.prefix, "role": t.role,
                                          "player": t.player} for t in gone]})

    async def join_code(request: Request) -> Response:
        game = current(None)
        return JSONResponse({"code": evening.code(game) if game is not None else None,
                             "game": game})

    async def join_seats(request: Request) -> Response:
        game = evening.game_of_code(request.path_params["code"])
        if game is None:
            return hub.refuse(request, 404, NO_CODE,
                              code=visible(request.path_params["code"][:12]))
        return JSONResponse({"game": game, "seats": [
            {"player": s["player"], "paired": bool(s["phones"])} for s in seats(game)
            if s["player"] is not None and not s["bankrupt"]]})

    async def ask(request: Request) -> Response:
        body = await checked(hub, request, "join")
        if isinstance(body, Response):
            return body
        code = body.get("code") if isinstance(body, dict) else None
        player = body.get("player") if isinstance(body, dict) else None
        if not isinstance(code, str) or not isinstance(player, str):
            # a code is text: 029863 as a number would be 29863, another code
            game = evening.game_of_code(code) if isinstance(code, str) else None
            return hub.refuse(request, 400, BAD_JOIN, players=", ".join(
                s["player"] for s in seats(game) if s["player"] and not s["bankrupt"])
                if game is not None else "…")
        game = evening.game_of_code(code)
        if game is None:
            return hub.refuse(request, 404, NO_CODE, code=visible(code[:12]))
        listed = [s for s in seats(game) if s["player"] is not None]
        player = named(player, [s["player"] for s in listed])
        if player is None:
            return hub.refuse(request, 400, BAD_JOIN, players=", ".join(
                s["player"] for s in listed if not s["bankrupt"]))
        if any(s["player"] == player and s["bankrupt"] for s in listed):
            return hub.refuse(request, 422, OUT_OF_GAME, name=player, rule=bankrupt_rule())
        # one request a seat: a repeat (a phone asking again, another phone) replaces it, so
        # the banker answers one card, not eleven; the first key collects nothing any more
        for old in [j for j in evening.joins.values()
                    if j.game == game and j.player == player and j.state == "waiting"]:
            del evening.joins[old.id]
        waiting = evening.waiting(game)
        if len(waiting) >= JOINS_WAITING:
            return hub.refuse(request, 429, TOO_MANY, count=len(waiting))
        join = Join(secrets.token_hex(4), secrets.token_urlsafe(16), game, player,
                    time.monotonic())
        evening.joins[join.id] = join
        hub.changed(game)
        return JSONResponse({"request": join.id, "key": join.key, "player": player}, 202)

    async def asked(request: Request) -> Response:
        body = await checked(hub, request, "join_key")
        if isinstance(body, Response):
            return body
        join = evening.joins.get(request.path_params["id"])
        key = body.get("key") if isinstance(body, dict) else None
        if join is None or not isinstance(key, str) or not secrets.compare_digest(
                key, join.key):
            return hub.refuse(request, 404, NO_JOIN, id=request.path_params["id"][:12])
        said = {"state": join.state, "player": join.player, "game": join.game}
        if join.state == "approved":
            said.update(token=join.token, url=join.url)
            del evening.joins[join.id]  # collected once
        return JSONResponse(said)

    async def approve(request: Request) -> Response:
        body = await banker_body(request, "approval")
        if isinstance(body, Response):
            return body
        join = evening.joins.get(request.path_params["id"])
        word = body.get("answer") if isinstance(body, dict) else None
        if join is None or join.state != "waiting":
            return hub.refuse(request, 404, NO_JOIN, id=request.path_params["id"][:12])
        if word not in ("approve", "refuse"):
            return hub.refuse(request, 400, BAD_ANSWER)
        if word == "refuse":
            join.state = "refused"
        else:
            issued = issue(request, join.game, "player", join.player)
            join.state, join.token, join.url = "approved", issued["token"], issued["url"]
        return JSONResponse({"request": join.id, "state": join.state, "player": join.player})

    return [
        Route("/join", page, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/games", start_game, methods=["POST"]),
        Route("/api/games/{game}/tokens", pair, methods=["POST"]),
        Route("/api/tokens/{prefix}/revoke", revoke, methods=["POST"]),
        Route("/api/join", join_code, methods=["GET"]),
        Route("/api/join", ask, methods=["POST"]),
        Route("/api/join/{code}", join_seats, methods=["GET"]),
        Route("/api/join/{id}", asked, methods=["POST"]),
        Route("/api/joins/{id}", approve, methods=["POST"]),
    ]


def new_game(hub, line: str, lang: str) -> tuple[int, dict, int | None]:
    """`new` as the terminal runs it (its checks, its words), through the server's library on
    the writer thread: the status (201, or 400/422 with `banco new`'s own error and nothing
    created), the answer in `lang` and the game's number."""
    from banco.cli.web.answers import said
    from banco.cli.web.hub import tr

    outcome = hub.library().execute(line, actor="banker", lang=lang)
    body = said(outcome, lang)
    if outcome.refusal is None and outcome.game is not None:
        return 201, body, outcome.game
    body["error"] = outcome.refusal.error.render(tr(lang))
    return (422 if body["code"] == 1 else 400), body, None
