"""The event types said in the user's language where a fact's English data names them (an
undo's reason, "undo: TradeCompleted, MortgageInterestPaid"): the log's type column and JSON keep
them English (DESIGN.md), and so does the English catalog, which says each as itself."""

from __future__ import annotations

from banco.cli.words.i18n import NP_, pgettext

# marked for the catalogs (msgctxt "event type"), said by pgettext
EVENT_WORDS = frozenset(message for _context, message in (
    NP_("event type", "AuctionClosed"),
    NP_("event type", "AuctionOpened"),
    NP_("event type", "AuctionVoided"),
    NP_("event type", "AuctionWon"),
    NP_("event type", "BankruptcyDeclared"),
    NP_("event type", "BidPlaced"),
    NP_("event type", "BuildingAuctionOpened"),
    NP_("event type", "BuildingSold"),
    NP_("event type", "BuildingsBuilt"),
    NP_("event type", "BuildingsReturned"),
    NP_("event type", "BuildingsSold"),
    NP_("event type", "CardChoiceRequired"),
    NP_("event type", "CardDiceThrown"),
    NP_("event type", "CardDrawRequired"),
    NP_("event type", "CardDrawn"),
    NP_("event type", "CardMisdrawn"),
    NP_("event type", "CardPayment"),
    NP_("event type", "CardThrowRequired"),
    NP_("event type", "CashCorrected"),
    NP_("event type", "CashIssued"),
    NP_("event type", "CommandRecorded"),
    NP_("event type", "DebtCancelled"),
    NP_("event type", "DebtIncurred"),
    NP_("event type", "DebtPaid"),
    NP_("event type", "DebtPaidByBank"),
    NP_("event type", "DebtPaidInKind"),
    NP_("event type", "DeckShuffled"),
    NP_("event type", "DeedsDealt"),
    NP_("event type", "DiceRolled"),
    NP_("event type", "EstateTransferred"),
    NP_("event type", "EventRetracted"),
    NP_("event type", "ExtraRollDue"),
    NP_("event type", "FinePaid"),
    NP_("event type", "GameEnded"),
    NP_("event type", "GameStarted"),
    NP_("event type", "HotelBuilt"),
    NP_("event type", "HotelsBrokenUp"),
    NP_("event type", "HouseBuilt"),
    NP_("event type", "JailCardKept"),
    NP_("event type", "JailCardUsed"),
    NP_("event type", "JailExitDue"),
    NP_("event type", "JailRollFailed"),
    NP_("event type", "LeftJail"),
    NP_("event type", "MortgageInterestPaid"),
    NP_("event type", "MortgageLifted"),
    NP_("event type", "MortgageReverted"),
    NP_("event type", "OwnerCorrected"),
    NP_("event type", "PositionCorrected"),
    NP_("event type", "PropertyBought"),
    NP_("event type", "PropertyDeclined"),
    NP_("event type", "PropertyMortgaged"),
    NP_("event type", "PurchaseOffered"),
    NP_("event type", "RentClaimDeferred"),
    NP_("event type", "RentClaimLapsed"),
    NP_("event type", "RentClaimOpened"),
    NP_("event type", "RentClaimRefused"),
    NP_("event type", "RentNotDue"),
    NP_("event type", "RentPaid"),
    NP_("event type", "RulingRecorded"),
    NP_("event type", "SalaryPaid"),
    NP_("event type", "SealRecorded"),
    NP_("event type", "SentToJail"),
    NP_("event type", "SpeedyMoveChosen"),
    NP_("event type", "SpeedyMoveDue"),
    NP_("event type", "TaxPaid"),
    NP_("event type", "TimeRanOut"),
    NP_("event type", "TokenMoved"),
    NP_("event type", "TradeCompleted"),
    NP_("event type", "TurnEnded"),
))


def say_types(text: str) -> str:
    """`TradeCompleted, MortgageInterestPaid` in the user's words; an unknown type as written."""
    return ", ".join(pgettext("event type", t) if t in EVENT_WORDS else t
                     for t in text.split(", "))
