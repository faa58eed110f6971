"""A referee's rulings, reasoned from the log alone: rent claims, auctions, bankruptcies, jail.

Each ruling is a pure function of a game's events and the seq it is asked about.  It gathers
the facts that bear on the question (with their seqs, so anyone can check them with `banco show
SEQ`), the rule set's parameters that decide it and the rulebook sections that say so, and ends
in a verdict.  Events an undo took back are left out of the reasoning and named as such.

One module a kind of ruling (rent_claims, auctions, bankruptcies, jail_stays), each reading the
log through ruling_log.py; KINDS names them for `banco ruling KIND`.
"""

from __future__ import annotations

from banco.projections.referee.auctions import auction
from banco.projections.referee.bankruptcies import bankruptcy
from banco.projections.referee.jail_stays import jail
from banco.projections.referee.rent_claims import rent

KINDS = {"rent": rent, "auction": auction, "bankruptcy": bankruptcy, "jail": jail}
