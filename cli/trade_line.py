"""The trade's line now lives with the parser (cli/lines/trade.py); kept for its readers
(cli/web/offers.py)."""

from banco.cli.lines.trade import JAIL_CARD, JAIL_CARD_WORD, parse_trade, trade_items  # noqa: F401
