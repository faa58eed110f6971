"""The banker and what players own: buildings, mortgages, trades, bankruptcy, the auction of
the last buildings.  Thin click adapters over the parser's builders (cli/lines/estate.py,
cli/lines/trade.py), as cli/banker/turn.py."""

from __future__ import annotations

import click

from cli.lines import estate as lines
from cli.lines.trade import trade as trade_line
from cli.session import parsed as run
from cli.session import pass_session, player_option, property_words, records


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
@records
def build(session, words, player):
    """build PROPERTY [COUNT]: COUNT houses (then a hotel) on PROPERTY, one at a time.
    build GROUP N, build PROPERTY... --to N: evenly up to N houses (or `hotel`) in one fact,
    e.g. `build marrone 4`, `build verde hotel`."""
    run(session, lines.build, words=words, player=player)


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
@records
def sell(session, words, player):
    """sell PROPERTY|GROUP [N|all]: buildings back to the Bank at half price.  N is a level,
    the same after a property or a colour group: down to N houses each (`sell rosa 3`, `sell
    via accademia 1`); no N: one building off the property; `all`: every building of the
    colour group at once.  sell PROPERTY... --to N: those lots evenly down to N."""
    run(session, lines.sell, words=words, player=player)


@click.command("break-up")
@click.argument("words", nargs=-1, required=True, metavar="PROPERTY...")
@pass_session
@records
def break_up(session, words):
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""
    run(session, lines.break_up, words=words)


@click.command()
@property_words
@player_option
@pass_session
@records
def mortgage(session, words, player):
    """Mortgage PROPERTY: the Bank pays its mortgage value."""
    run(session, lines.mortgage, words=words, player=player)


@click.command()
@property_words
@player_option
@pass_session
@records
def unmortgage(session, words, player):
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""
    run(session, lines.unmortgage, words=words, player=player)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
@pass_session
@records
def trade(session, words):
    """A deal between two players: trade A B --give ITEM... --get ITEM... [--lift PROPERTY...].

    --give items go from A to B, --get items from B to A.  An ITEM is a property (no quotes
    needed), a whole amount of cash, or `jail-card` (one card; twice for two).  --lift frees a mortgaged deed received (mortgage + 10%)
    instead of paying only the 10%.
    """
    run(session, trade_line, words=words)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[DEBTOR] [--lift PROPERTY...]")
@pass_session
@records
def bankrupt(session, words):
    """Declare bankruptcy for a debt that cannot be raised.  --lift: the creditor frees the
    mortgaged deeds named at once (mortgage + 10%) instead of paying only the 10%."""
    run(session, lines.bankrupt, words=words)


@click.command("auction-building", context_settings={"ignore_unknown_options": True})
@click.argument("kind", type=click.Choice(["house", "hotel", "casa", "albergo"]))
@click.argument("wanted", nargs=-1, type=click.UNPROCESSED, metavar="--wanted NAME=N...")
@pass_session
@records
def auction_building(session, kind, wanted):
    """Auction the last houses (hotels) when the Bank has fewer than the players want: each
    says first how many (000 FAQ 30), e.g. `auction-building house --wanted Anna=3 Bruno=2`.
    One building per auction; the next opens while two or more still want one."""
    run(session, lines.auction_building, kind=kind, wanted=wanted)
