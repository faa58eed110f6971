"""`banco token`: pair a phone with the table's server (ledger/store/tokens.py).

    banco token banker            the banker's console
    banco token player Carla      Carla's phone
    banco token referee Rita      Rita's phone, which records as `--referee Rita` only
    banco token referee | viewer  (an unnamed referee's records as any referee)
    banco token --list            the tokens of the game (prefixes only: secrets are not kept)
    banco token --revoke LABEL    refused at once by a running server (the label --list
                                  shows, the whole token or its link)

The link carries the token in its fragment (`#t=...`): a browser never sends a fragment to
the server, so it appears in no request line and no log; the page keeps it and sends it in a
header.
"""

from __future__ import annotations

import json

import click

from banco.cli.session import dump, pass_session
from banco.cli.words.i18n import _
from banco.ledger.base.errors import UsageError


def link(base: str, role: str, secret: str) -> str:
    return f"{base.rstrip('/')}/{'' if role == 'viewer' else role}#t={secret}"


@click.command()
@click.argument("role", required=False, type=click.Choice(["banker", "player", "referee",
                                                           "viewer"]))
@click.argument("name", required=False)
@click.option("--url", "base", default=None, metavar="URL",
              help="The server's address as the phones reach it; default: this machine's "
                   "address on the network, port 8000.")
@click.option("--list", "listing", is_flag=True, help="List the game's tokens.")
@click.option("--revoke", default=None, metavar="TOKEN",
              help="Revoke a token: its label (as --list shows it), the whole token or its "
                   "pairing link.")
@click.option("--json", "as_json", is_flag=True, help="Stable JSON for scripts.")
@pass_session
def token(session, role, name, base, listing, revoke, as_json):
    """Pair a phone with `banco serve`: token banker|player NAME|referee [NAME]|viewer prints a
    link and a QR code holding a new token for this game (a named referee's records as that name
    only); --list and --revoke TOKEN manage them."""
    from banco.ledger.store.open import open_tokens

    # no database, no game: said before the tokens are opened
    if role == "banker":
        game = every_game(session)
    elif role is None and session.game_option is None and not session.book.games():
        game = None  # --list, --revoke on a file whose banker has started no game yet
    else:
        game = session.game()
    keys = open_tokens(session.db)  # a SQLite file's table, or a PostgreSQL database's
    try:
        _token(session, keys, game, role, name, base, listing, revoke, as_json)
    finally:
        keys.close()


def every_game(session) -> int:
    """The game a banker's token is for: the one `--game N` names, else every game of the
    file (EVERY_GAME), one with no game yet included: the banker's page starts the games
    (issue 34).  A missing file is still said (exit 4), before any token is issued."""
    from banco.ledger.store.tokens import EVERY_GAME

    if session.game_option is not None:
        return session.game()
    session.book  # noqa: B018 -- opens the store: a file that is not there is said now
    return EVERY_GAME


def server_address(base: str) -> str:
    """A --url as the phones will open it: http(s)://HOST[:PORT][/PATH], else a usage error
    (`notaurl` printed the link `notaurl/#t=...`, which opens nothing)."""
    from urllib.parse import urlsplit

    from banco.ledger.base.names import shown

    try:
        parts = urlsplit(base.strip())
        parts.port  # noqa: B018 -- raises ValueError for a port that is no number or too big
        fine = (parts.scheme in ("http", "https") and bool(parts.hostname)
                and not (parts.query or parts.fragment or parts.username)
                and not any(c.isspace() for c in base.strip()))
    except ValueError:
        fine = False
    if not fine:
        raise UsageError("--url {url} is not the server's address: give it as the phones open "
                         "it, http://HOST[:PORT]/ (e.g. http://192.168.1.20:8000/, the address "
                         "`banco serve` prints)", url=shown(base, 61))
    return base.strip()


def _token(session, keys, game, role, name, base, listing, revoke, as_json) -> None:
    from banco.ledger.base.names import resolve
    from banco.ledger.store.tokens import EVERY_GAME

    if base is not None:
        base = server_address(base)  # before anything is recorded
    if revoke is not None:
        gone = _revoke(keys, revoke, session.now())
        if as_json:
            dump([{"prefix": t.prefix, "role": t.role, "player": t.player, "game": t.game}
                  for t in gone])
            return
        for t in gone:
            click.echo(_("revoked {prefix} ({role})").format(prefix=t.prefix,
                                                            role=_describe(t)))
        return
    if listing:
        from banco.ledger.store import serve_tokens

        rows = keys.listed(game)
        # which live tokens a `banco serve` issued itself (revoked when it stops)
        serves = {s.prefix: s for s in serve_tokens.served(session.db)}
        if as_json:
            dump([{"prefix": t.prefix, "role": t.role, "player": t.player, "game": t.game,
                   "created_at": t.created_at, "revoked_at": t.revoked_at,
                   "serve": _serve_doc(None if t.revoked_at else serves.get(t.prefix))}
                  for t in rows])
            return
        for t in rows:
            state = (_("revoked {at}").format(at=t.revoked_at) if t.revoked_at
                     else _("live"))
            mine = None if t.revoked_at else serves.get(t.prefix)
            by = "" if mine is None else "  " + (
                _("banco serve's (pid {pid})") if mine.running() else
                _("banco serve's (pid {pid}, no longer running: revoked when serve next "
                  "starts)")).format(pid=mine.pid)
            click.echo(f"{t.prefix}  {_describe(t)}  {t.created_at}  {state}{by}")
        if not rows and game is None:  # a file whose banker has started no game yet
            click.echo(_("no token yet"))
        elif not rows:
            click.echo(_("no token for game {game}").format(game=game))
        return
    if role is None:
        raise UsageError("say whose token: banker, player NAME, referee or viewer (or --list, "
                         "--revoke TOKEN)")
    if (role == "player" and name is None) or (role not in ("player", "referee")
                                               and name is not None):
        raise UsageError("a player's token names the player: `token player NAME`; a "
                         "referee's may name the referee (`token referee NAME`: it records "
                         "as that name only); no other role takes a name")
    if role == "referee" and name is not None:
        from banco.cli.referees import referee_of

        # checked as `--referee` is: a name, no player of the game, spelt as recorded
        player = referee_of(session.book.store, game, name)
    else:
        player = resolve(name, list(session.state().seats), "player") if name else None
    secret, row = keys.issue(role, game, session.now(), player)
    if base is None:
        from banco.cli.web.serve import lan_address

        base = f"http://{lan_address()}:8000/"
    url = link(base, role, secret)
    if as_json:
        click.echo(json.dumps({"role": role, "player": player,
                               "game": None if game == EVERY_GAME else game, "token": secret,
                               "url": url}, ensure_ascii=False))
        return
    from banco.cli.web.serve import qr_text

    if game == EVERY_GAME:
        from banco.ledger.store.postgres_connection import is_postgres_url

        # a PostgreSQL database is no file: said as what it is
        every = (_("{role}'s link for every game of the database (token {prefix}; shown once):")
                 if is_postgres_url(session.db) else
                 _("{role}'s link for every game of the file (token {prefix}; shown once):"))
        click.echo(every.format(role=_describe(row), prefix=row.prefix))
    else:
        click.echo(_("{role}'s link for game {game} (token {prefix}; shown once):").format(
            role=_describe(row), game=game, prefix=row.prefix))
    click.echo(url)
    click.echo(qr_text(url), nl=False)


def _revoke(keys, given: str, now: str) -> list:
    """Revoke the one live token `given` names: the whole token (`bt_...`), its pairing link,
    or its label (`--list`'s 8 characters, `bt_` before them or not).  A shorter prefix, or a
    label two tokens share, is refused with the tokens it names: `--revoke -G` revoked the
    banker's own token, one letter naming any token that began so."""
    from urllib.parse import parse_qs, urlsplit

    from banco.ledger.store.tokens import PREFIX, PREFIX_CHARS, digest

    text = given.strip()
    if "#" in text or "://" in text:  # a pairing link: the token is its fragment's `t`
        text = (parse_qs(urlsplit(text).fragment).get("t") or [""])[0].strip()
    label = text.removeprefix(PREFIX)
    if not label:
        raise UsageError("--revoke needs a token: its label (`banco token --list` shows them), "
                         "the whole token or its pairing link")
    live = [t for t in keys.listed() if not t.revoked_at]
    if len(label) > PREFIX_CHARS:
        # the whole token, revoked by its digest: a typo after the label revokes nothing
        named = [t for t in live if t.prefix == label[:PREFIX_CHARS]]
        gone = keys.revoke(named[0].prefix, now, digest(PREFIX + label)) if named else []
    else:
        named = [t for t in live if t.prefix.startswith(label)]
        if not named and text.startswith(PREFIX) and len(text) == PREFIX_CHARS:
            # a label whose own letters begin `bt_` (one token in 262,144), typed as listed:
            # the prefix taken off above was the label's (a CI run met one)
            label, named = text, [t for t in live if t.prefix == text]
        if len(named) > 1 or (named and len(label) < PREFIX_CHARS):
            raise UsageError("{token} is not one token's label: it begins {tokens}; give the "
                             "whole label (as `banco token --list` shows it), the whole token "
                             "or its pairing link; nothing was revoked", token=text,
                             tokens=", ".join(f"{t.prefix} ({_describe(t)}, {_games(t)})"
                                              for t in named))
        gone = keys.revoke(named[0].prefix, now) if named else []
    if not gone:
        raise UsageError("no live token is {token} (`banco token --list` shows the live ones; "
                         "nothing was revoked)", token=shown_token(text))
    return gone


def shown_token(text: str) -> str:
    """A token as an error names it: its label and an ellipsis, never the whole secret (the
    terminal's scrollback is no place for it)."""
    from banco.ledger.store.tokens import PREFIX, PREFIX_CHARS

    cut = len(PREFIX) + PREFIX_CHARS if text.startswith(PREFIX) else PREFIX_CHARS
    return text if len(text) <= cut else text[:cut] + "…"


def _serve_doc(served) -> dict | None:
    return None if served is None else {"pid": served.pid, "host": served.host,
                                        "running": served.running()}


def _games(t) -> str:
    """The game a token is for: a banker's bound to none is for every game (no game is 0)."""
    from banco.ledger.store.tokens import EVERY_GAME

    return _("every game") if t.game == EVERY_GAME else _("game {game}").format(game=t.game)


def _describe(t) -> str:
    return (_("player {name}").format(name=t.player) if t.role == "player"
            else _("referee {name}").format(name=t.player) if t.player
            else {"banker": _("banker"), "referee": _("referee"), "viewer": _("viewer")}[t.role])
