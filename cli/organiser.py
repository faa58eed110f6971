"""The organiser's words: the games in a file, statements, deed histories, standings."""

from __future__ import annotations

import sys

import click

from .session import dump, json_option, pass_session, player_name, property_position, property_words


@click.command()
@json_option
@pass_session
def games(session, as_json):
    """The games in this database: number, start, players, rules, whether finished."""
    rows = session.book.games()
    doc = [{"game": g["game_id"], "started_at": g["started_at"], "players": g["players"],
            "rules": g["rules"], "edition": g["edition"], "ended": g["ended"],
            "uuid": g["uuid"], "events": g["events"]} for g in rows]
    if as_json:
        dump(doc)
        return
    if not doc:
        click.echo("no games yet: `banco new PLAYER PLAYER ...`")
        return
    from cli.render import local_time

    click.echo(f"{'game':>4}  {'started':<25}  {'rules':<9}{'state':<12}players")
    for g in doc:
        state = "finished" if g["ended"] else "in progress"
        click.echo(f"{g['game']:>4}  {local_time(g['started_at'])}  {g['rules'] or '?':<9}{state:<12}"
                   f"{', '.join(g['players'])}")


@click.command()
@click.argument("account")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="CSV for a spreadsheet.")
@pass_session
def statement(session, account, as_json, as_csv):
    """A bank statement: every transfer of ACCOUNT (a player or `bank`), with running balance."""
    from projections.accounts import statement as build

    game = session.game()
    state = session.book.state(game)
    name = "bank" if account.lower() in ("bank", "banca") else player_name(state, account)
    rows = build(session.book.events(game), name)
    if as_json:
        dump(rows)
    elif as_csv:
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=["seq", "type", "counterparty", "amount",
                                                        "reason", "balance"])
        writer.writeheader()
        writer.writerows(rows)
    else:
        click.echo(f"{'event':>5}  {'amount':>7}  {'balance':>7}  {'from/to':<10} reason")
        for r in rows:
            click.echo(f"{r['seq']:>5}  {r['amount']:>+7}  {r['balance']:>7}  "
                       f"{r['counterparty']:<10} {r['reason']}")
        if name != "bank":
            click.echo(f"cash now: {state.player(name).cash}")


@click.command()
@property_words
@json_option
@pass_session
def history(session, words, as_json):
    """The story of one deed: owners, auctions, trades, mortgages, buildings."""
    from projections.accounts import history as build

    game = session.game()
    pos = property_position(session.book.state(game), " ".join(words))
    rows = build(session.book.events(game), pos)
    if as_json:
        dump(rows)
        return
    if not rows:
        click.echo("nothing has happened to it yet: it is with the Bank")
        return
    click.echo(f"{'event':>5}  {'owner':<10} what happened")
    for r in rows:
        click.echo(f"{r['seq']:>5}  {r['owner'] or 'Bank':<10} {r['note']}")


@click.command()
@json_option
@pass_session
def standings(session, as_json):
    """Who leads: players in play by net worth (the championship's score sheet, ties broken on
    unmortgaged property), then the bankrupt, last out first; with the tournament points once
    a championship game is over."""
    from projections.accounts import standings as build

    rows = build(session.state())
    if as_json:
        dump(rows)
        return
    # The championship's score sheet and points (000 §PUNTEGGIO) where the rule set keeps them.
    sheet = any(r["score"] is not None for r in rows)
    points = any(r["points"] is not None for r in rows)
    head = f"{'':>3} {'player':<12}{'status':<10}{'net worth':>9}{'cash':>7}{'deeds':>6}"
    head += (f"{'score':>7}" if sheet else "") + (f"{'points':>7}" if points else "")
    click.echo(head)
    for r in rows:
        line = (f"{r['rank']:>2}. {r['name']:<12}{r['status']:<10}{r['net_worth']:>9}"
                f"{r['cash']:>7}{r['deeds']:>6}")
        if sheet:
            line += f"{r['score']:>7}"
        if points:
            line += f"{'' if r['points'] is None else r['points']:>7}"
        click.echo(line)
