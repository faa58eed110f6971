"""The banker and what players own: buildings, mortgages, trades, bankruptcy, the auction of
the last buildings.  Each word's click command is made from the one table of words by
cli/banker/adapter.py, as in cli/banker/turn.py; its builder is cli/lines/estate.py's (a trade:
cli/lines/trade.py).  Here: each word's help."""

from __future__ import annotations

from banco.cli.banker.adapter import table_command


@table_command("build")
def build():
    """build PROPERTY [COUNT]: COUNT houses (then a hotel) on PROPERTY, one at a time.
    build GROUP N, build PROPERTY... --to N: evenly up to N houses (or `hotel`) in one fact,
    e.g. `build marrone 4`, `build verde hotel`."""


@table_command("sell")
def sell():
    """sell PROPERTY|GROUP [N|all]: buildings back to the Bank at half price.  N is a level,
    the same after a property or a colour group: down to N houses each (`sell rosa 3`, `sell
    via accademia 1`); no N: one building off the property; `all`: every building of the
    colour group at once.  sell PROPERTY... --to N: those lots evenly down to N."""


@table_command("break-up")
def break_up():
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""


@table_command("mortgage")
def mortgage():
    """Mortgage PROPERTY: the Bank pays its mortgage value."""


@table_command("unmortgage")
def unmortgage():
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""


@table_command("trade")
def trade():
    """A deal between two players: trade A B --give ITEM... --get ITEM... [--lift PROPERTY...].

    --give items go from A to B, --get items from B to A.  An ITEM is a property (no quotes
    needed), a whole amount of cash, or `jail-card` (one card; twice for two).  --lift frees a mortgaged deed received (mortgage + 10%)
    instead of paying only the 10%.
    """


@table_command("bankrupt")
def bankrupt():
    """Declare bankruptcy for a debt that cannot be raised.  --lift: the creditor frees the
    mortgaged deeds named at once (mortgage + 10%) instead of paying only the 10%."""


@table_command("auction-building")
def auction_building():
    """Auction the last houses (hotels) when the Bank has fewer than the players want: each
    says first how many (000 FAQ 30), e.g. `auction-building house --wanted Anna=3 Bruno=2`.
    One building per auction; the next opens while two or more still want one."""
