"""What the referee reads: `log` (local time, short hash, a description for every event type,
filters, CSV) and `show SEQ` (one event in full, with its command)."""

import csv
import io
import json
import time

import pytest
from freezegun import freeze_time
from helpers import new_table

from banco.cli.words.facts import amount_of, describe, local_time, players_of
from banco.ledger.records.events import EVENT_TYPES, validate
from banco.ledger.records.upcast import upcast


def tr(payer, payee, amount, reason, **more):
    return {"payer": payer, "payee": payee, "amount": amount, "reason": reason, **more}


# One real-looking fact of every type (checked against its schema below).  An event type added
# to ledger/records/events.py without a sample here, and a description in cli/words/facts.py, fails
# test_every_event_type_has_a_description.
SAMPLES = {
    "GameStarted": {"players": ["Anna", "Bruno"], "rules": {"name": "classic"}, "edition": "it",
                    "first_player": "Anna"},
    "CashIssued": tr("bank", "Anna", 1500, "starting cash"),
    "DiceRolled": {"player": "Anna", "dice": [3, 4], "doubles": False, "in_row": 0,
                   "extra_roll": False},
    "TokenMoved": {"player": "Anna", "from": 0, "to": 7, "spaces": 7, "cause": "dice",
                   "passed_go": False},
    "SalaryPaid": tr("bank", "Anna", 200, "passed Via!"),
    "PurchaseOffered": {"player": "Anna", "property": 3, "price": 60},
    "PropertyBought": tr("Anna", "bank", 60, "bought Vicolo Stretto", player="Anna", property=3),
    "PropertyDeclined": {"player": "Anna", "property": 3},
    "AuctionOpened": {"property": 3, "min_bid": 1, "step": 1},
    "BidPlaced": {"player": "Bruno", "property": 3, "amount": 40},
    "AuctionWon": tr("Bruno", "bank", 40, "won Vicolo Stretto at auction", player="Bruno",
                     property=3),
    "AuctionClosed": {"property": 3, "outcome": "sold to Bruno", "reason": "house auctioned for 60 M"},
    "RentClaimOpened": {"owner": "Anna", "payer": "Bruno", "property": 3, "amount": 4,
                        "basis": "unbuilt lot", "closer": "Carla"},
    "RentClaimLapsed": {"owner": "Anna", "payer": "Bruno", "property": 3, "amount": 4,
                        "opened_seq": 9, "closed_by": "debt"},
    "RentPaid": tr("Bruno", "Anna", 4, "rent on Vicolo Stretto", property=3, opened_seq=9),
    "RentClaimRefused": {"owner": "Anna", "payer": "Bruno", "property": 3, "amount": 4,
                         "opened_seq": 9, "lapsed_seq": 12, "closer": "Anna", "rule": "003 §04",
                         "reason": "too late"},
    "RentNotDue": {"payer": "Bruno", "owner": "Anna", "property": 3,
                   "reason": "the lot is mortgaged"},
    "TaxPaid": tr("Anna", "bank", 200, "Tassa Patrimoniale"),
    "CardDrawRequired": {"player": "Anna", "deck": "imprevisti"},
    "CardDrawn": {"player": "Anna", "deck": "imprevisti", "number": 1, "text": "Andate fino al"},
    "CardChoiceRequired": {"player": "Anna", "deck": "probabilita", "number": 3},
    "JailExitDue": {"player": "Anna", "fine": 50, "spaces": 5},
    "CardMisdrawn": {"deck": "probabilita", "number": 5, "text": "Avete vinto il secondo premio"},
    "DeckShuffled": {"deck": "imprevisti"},
    "BuildingsBuilt": {"payer": "Anna", "payee": "bank", "amount": 200, "reason": "built evenly",
                       "player": "Anna", "lots": [{"property": 1, "level": 2},
                                                  {"property": 3, "level": 2}],
                       "bank_houses": -4, "bank_hotels": 0},
    "CommandRecorded": {"line": "roll 1 2", "command": {"kind": "Roll", "fields": {"dice": [1, 2], "player": None}}},
    "CardThrowRequired": {"player": "Anna", "property": 12, "owner": "Bruno", "multiplier": 10,
                          "deck": "imprevisti", "number": 1, "landed_seq": 7},
    "CardDiceThrown": {"player": "Anna", "dice": [5, 6], "property": 12},
    "CardPayment": tr("Anna", "bank", 15, "Imprevisti 14", deck="imprevisti", number=14),
    "JailCardKept": {"player": "Anna", "deck": "probabilita", "number": 11},
    "JailCardUsed": {"player": "Anna", "deck": "probabilita", "number": 11},
    "SentToJail": {"player": "Anna", "reason": "landed on In Prigione!"},
    "JailRollFailed": {"player": "Anna", "attempt": 1},
    "LeftJail": {"player": "Anna", "how": "doubles"},
    "FinePaid": tr("Anna", "bank", 50, "jail fine before rolling"),
    "DebtIncurred": {"debtor": "Bruno", "creditor": "Anna", "amount": 450,
                     "reason": "rent on Vicolo Stretto"},
    "DebtPaid": tr("Bruno", "Anna", 450, "rent on Vicolo Stretto", debt_seq=20),
    "ExtraRollDue": {"player": "Anna", "in_row": 1},
    "TurnEnded": {"player": "Anna", "next": "Bruno"},
    "GameEnded": {"winner": "Anna", "reason": "Bruno went bankrupt"},
    "EventRetracted": {"seqs": [6, 7], "command_id": "c1", "reason": "undo: DiceRolled"},
    "BuildingAuctionOpened": {"kind": "house", "min_bid": 50, "step": 1, "resume": "roll"},
    "HouseBuilt": tr("Anna", "bank", 50, "house 1 on Vicolo Corto", player="Anna", property=1,
                     level=1, bank_houses=-1, bank_hotels=0),
    "HotelBuilt": tr("Anna", "bank", 50, "hotel on Vicolo Corto", player="Anna", property=1,
                     level=5, bank_houses=4, bank_hotels=-1),
    "BuildingSold": tr("bank", "Anna", 25, "house 1 off Vicolo Corto", player="Anna",
                       property=1, level=0, bank_houses=1, bank_hotels=0),
    "PropertyMortgaged": tr("bank", "Anna", 30, "mortgaged Vicolo Corto", player="Anna",
                            property=1),
    "MortgageLifted": tr("Anna", "bank", 33, "lifted Vicolo Corto", player="Anna", property=1),
    "MortgageInterestPaid": tr("Anna", "bank", 3, "10% on Vicolo Corto", player="Anna",
                               property=1),
    "TradeCompleted": {"a": "Anna", "b": "Bruno",
                       "a_gives": {"properties": [1], "cash": 0, "jail_cards": []},
                       "b_gives": {"properties": [], "cash": 100,
                                   "jail_cards": [["imprevisti", 6]]},
                       "transfers": [tr("Bruno", "Anna", 100, "trade")]},
    "EstateTransferred": tr("Bruno", "Anna", 27, "bankruptcy of Bruno", debtor="Bruno",
                            creditor="Anna", properties=[5, 11], jail_cards=[]),
    "BankruptcyDeclared": {"player": "Bruno", "creditor": "Anna", "reason": "owed 130 M"},
    "DebtCancelled": {"debtor": "Carla", "creditor": "Bruno", "amount": 10,
                      "reason": "Bruno went bankrupt", "debt_seq": 30},
    "BuildingsSold": tr("bank", "Anna", 100, "sold the group's houses", player="Anna",
                        properties=[1, 3], bank_houses=4, bank_hotels=0),
    "AuctionVoided": {"player": "Bruno", "property": 3, "amount": 900,
                      "reason": "Bruno cannot pay 900"},
    "HotelsBrokenUp": {"lots": [{"property": 1, "player": "Anna", "level": 2}],
                       "bank_houses": -2, "bank_hotels": 1,
                       "transfers": [tr("bank", "Anna", 50, "hotel on Vicolo Corto broken up")]},
    "SpeedyMoveDue": {"player": "Anna", "move": "bus", "choices": [5, 6, 11]},
    "SpeedyMoveChosen": {"player": "Anna", "move": "mr_monopoly", "to": 13, "spaces": 1,
                         "reason": "to Corso Ateneo, the next free property"},
    # the rule sets beyond classic
    "DeedsDealt": tr("Anna", "bank", 120, "deeds dealt and paid at once", player="Anna",
                     properties=[1, 3]),
    "TimeRanOut": {"at": "2026-04-25T18:30:00.000000Z", "ends": "after_turn",
                   "rule": "000 FAQ 6", "reason": "Anna finishes the turn in progress, then the game ends"},
    "RentClaimDeferred": {"owner": "Anna", "payer": "Bruno", "property": 3, "amount": 4,
                          "opened_seq": 20, "settles_after": "Carla", "rule": "000 FAQ 8"},
    "MortgageReverted": tr("Anna", "bank", 30, "mortgaged during the turn (000 FAQ 32)",
                           player="Anna", property=3),
    "BuildingsReturned": {"player": "Carla", "properties": [1, 3], "bank_houses": 2,
                          "bank_hotels": 0, "reason": "back to the Bank with Carla's estate"},
    "DebtPaidByBank": tr("bank", "Bruno", 140000, "the Bank pays Carla's debt in full",
                         debtor="Carla", debt_seq=40),
    "DebtPaidInKind": tr("Carla", "Bruno", 7000, "rent: 7.000 in cash and Viale Vesuvio",
                         debt_seq=40, deeds=[{"property": 9, "price": 13000}]),
}

# A referee's facts (ledger/rules/referee.py).
SAMPLES.update({
    "RulingRecorded": {"kind": "rent", "subject_seq": 9, "verdict": "too late",
                       "text": "rent ruling on event 9", "referee": "Rita"},
    "CashCorrected": tr("bank", "Anna", 50, "referee Rita: change miscounted", player="Anna",
                        referee="Rita"),
    "PositionCorrected": {"player": "Anna", "from": 3, "to": 5, "left_jail": False,
                          "reason": "referee Rita: token knocked over", "referee": "Rita"},
    "OwnerCorrected": {"property": 1, "from": "bank", "to": "Anna", "mortgaged": False,
                       "reason": "referee Rita: bought, not recorded", "referee": "Rita"},
    "SealRecorded": {"seq": 57, "head": "3b" * 32, "public_key": "5d" * 32,
                     "fingerprint": "0123456789abcdef", "signature": "9f" * 64,
                     "referee": "Rita"},
})
# The samples are written as an older banco recorded them (reasons in English sentences): the
# facts of today are what the upcasters read them as (ledger/records/upcast.py).
SAMPLES = {t: upcast(t, 1, d) for t, d in SAMPLES.items()}


def sample(type_, seq=10):
    return {"seq": seq, "type": type_, "data": SAMPLES[type_],
            "recorded_at": "2026-11-30T06:12:03.000000Z", "hash": "ab" * 32}


def test_the_samples_are_real_facts():
    for type_, data in SAMPLES.items():
        validate(type_, data)


@pytest.mark.parametrize("type_", EVENT_TYPES)
def test_every_event_type_has_a_description(type_):
    assert type_ in SAMPLES, f"add a sample of {type_} to SAMPLES and a description to cli/words/facts.py"
    text = describe(sample(type_), new_table())
    assert text and text.strip() and text != f"({type_})", f"{type_} has no description"
    assert "\n" not in text  # one line each in `log`


def test_descriptions_name_properties_not_positions():
    table = new_table()
    assert "Vicolo Stretto" in describe(sample("RentClaimLapsed"), table)
    assert "became a debt" in describe(sample("RentClaimLapsed"), table)
    assert describe(sample("AuctionClosed"), table) == (
        "auction closed (Vicolo Stretto): sold to Bruno, house auctioned for 60 M")
    bankrupt = dict(sample("RentClaimLapsed"), data={**SAMPLES["RentClaimLapsed"],
                                                     "closed_by": "bankruptcy"})
    assert "a bankruptcy ended it" in describe(bankrupt, table)  # not "bankruptcy rolled"


def test_players_and_amount_of_an_event():
    assert players_of(sample("TradeCompleted")) == ["Anna", "Bruno"]
    assert players_of(sample("CashIssued")) == ["Anna"]  # the Bank is not a player
    assert players_of(sample("TurnEnded")) == ["Anna", "Bruno"]
    assert players_of(sample("RentClaimOpened")) == ["Bruno", "Anna"]  # payer first; not the closer
    assert amount_of(sample("HotelsBrokenUp")) == 50 and amount_of(sample("DiceRolled")) is None


def test_local_time_honours_tz(rome, monkeypatch):
    assert local_time("2026-11-30T06:12:03.123456Z") == "2026-11-30 07:12:03+01:00"
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    assert local_time("2026-11-30T06:12:03.123456Z") == "2026-11-30 01:12:03-05:00"


@pytest.fixture
def played(banco):
    with freeze_time("2026-11-30 06:12:03"):
        banco("new", "Anna", "Bruno", "Carla")
        banco("roll", "1", "2")  # Anna: Vicolo Stretto (events 6-9, 6 the command)
        banco("buy")  # 10-12
        banco("roll", "2", "1")  # Bruno lands on it: 13-17
    with freeze_time("2026-11-30 06:20:00"):
        banco("claim", "anna")  # 18-19
        banco("roll", "3", "4")  # Carla: Imprevisti 20-23
        banco("undo")  # 24-25
    return banco


def test_log_shows_local_time_short_hash_and_descriptions(played, rome):
    out = played("log").output.splitlines()
    assert out[0].split() == ["seq", "time", "hash", "type", "what", "happened"]
    events = json.loads(played("log", "--json").output)
    line14 = next(x for x in out if x.startswith("   19"))
    assert "2026-11-30 07:20:00+01:00" in line14 and events[18]["hash"][:12] in line14
    assert events[18]["hash"] not in line14  # the short hash, not the whole of it
    assert "Bruno pays 4 M to Anna: rent on Vicolo Stretto" in line14
    assert any(x.startswith("   21x") for x in out)  # Carla's roll, taken back
    assert "2026-11-30 07:12:03+01:00" in out[1]


def test_log_filters(played):
    def seqs(*args):
        return [int(x.split()[0].rstrip("x")) for x in played("log", *args).output.splitlines()[1:]
                if x[:5].strip().isdigit()]

    assert seqs("--from", "14", "--to", "16") == [14, 15, 16]
    assert seqs("--type", "rentpaid") == [19]
    assert seqs("--type", "RENTPAID,tokenmoved") == [8, 15, 19, 22]
    assert seqs("--type", "rentpaid", "--type", "TurnEnded") == [12, 17, 19]
    assert seqs("--type", "rentclaim") == [16]  # a prefix: every RentClaim... type
    assert seqs("--player", "bru", "--type", "rent") == [16, 19]
    assert seqs("--player", "carla") == [2, 5, 17, 21, 22, 23]
    assert seqs("--player", "carla", "--tail", "2") == [22, 23]
    # the Bank is no player, but its movements are asked for: starting cash, the purchase
    assert seqs("--player", "bank") == [3, 4, 5, 11]
    assert seqs("--player", "la banca", "--player", "bru", "--type", "rent,cash") == [3, 4, 5, 16, 19]
    r = played("log", "--type", "RentPayed", code=2)
    assert "no event type called 'RentPayed': did you mean 'RentPaid'" in r.output
    r = played("log", "--player", "Dario", code=2)
    assert "no player called 'Dario'" in r.output
    assert "no event of game 1 matches" in played("log", "--from", "99").output
    filtered = json.loads(played("log", "--json", "--type", "rentpaid").output)
    assert [(e["seq"], e["type"], e["data"]["amount"]) for e in filtered] == [(19, "RentPaid", 4)]
    assert set(filtered[0]) == {"seq", "type", "data", "recorded_at", "hash"}


def test_log_reads_only_the_stretch_it_shows(played, monkeypatch):
    # `log --tail 3` of a 300,000-event game took 4.6 s and 655 MB: it loaded the whole log
    from banco.ledger.book import Book
    from banco.ledger.store.bulk import RawRows

    whole = [x for x in played("log").output.splitlines()[1:] if x[:5].strip().isdigit()]
    reads: list[tuple] = []
    fetch = RawRows.fetch  # `log` reads the rows as stored (cli/referee/log_text.py)

    def spy(self, first, last):
        reads.append((first, last))
        return fetch(self, first, last)

    monkeypatch.setattr(RawRows, "fetch", spy)
    monkeypatch.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
    tail = [x for x in played("log", "--tail", "3").output.splitlines()[1:]
            if x[:5].strip().isdigit()]
    assert tail == whole[-3:] and reads == [(23, 25)]
    assert "Invalid value for '--tail'" in played("log", "--tail", "-1", code=2).output


def test_log_csv(played, rome):
    rows = list(csv.DictReader(io.StringIO(played("log", "--csv").output)))
    assert list(rows[0]) == ["seq", "time", "type", "players", "amount", "description", "hash",
                             "taken_back_at"]
    full = json.loads(played("log", "--json").output)
    assert len(rows) == len(full) == 25
    rent = rows[18]
    assert rent["seq"] == "19" and rent["type"] == "RentPaid" and rent["amount"] == "4"
    assert rent["players"] == "Bruno;Anna" and rent["time"] == "2026-11-30T07:20:00+01:00"
    assert rent["hash"] == full[18]["hash"] and rent["taken_back_at"] == ""
    assert rows[20]["taken_back_at"] == "25" and rows[20]["type"] == "DiceRolled"
    assert rows[1]["players"] == "Anna;Bruno;Carla" and rows[1]["amount"] == ""


def test_show_one_event_with_its_command(played, rome):
    full = json.loads(played("log", "--json").output)
    out = played("show", "15").output
    assert out.startswith("event 15 of game 1: TokenMoved\n  Bruno moves to Vicolo Stretto (3)")
    assert "time       2026-11-30 07:12:03+01:00  (recorded 2026-11-30T06:12:03.000000Z)" in out
    assert f"hash       {full[14]['hash']}" in out
    assert f"prev hash  {full[13]['hash']}" in out and "actor      banker" in out
    assert "  from: 0 (Via!)\n" in out and "  to: 3 (Vicolo Stretto)\n" in out
    assert "recorded by the same command with 4 other events:" in out
    assert ">   15  TokenMoved" in out and "    16  RentClaimOpened" in out
    assert "    17  TurnEnded" in out and "   18  " not in out  # no event 18 listed
    assert "taken back" not in out


def test_show_says_when_an_undo_took_it_back(played):
    out = played("show", "22").output
    assert "taken back at event 25 (an undo)" in out
    doc = json.loads(played("show", "22", "--json").output)
    assert doc["taken_back_at"] == 25 and doc["command"] == [20, 21, 22, 23]
    assert doc["event"]["type"] == "TokenMoved" and doc["event"]["prev_hash"]
    claim = played("show", "19").output  # the claim: its CommandRecorded and the payment
    assert "recorded by the same command with 1 other event:" in claim and "> claim anna" in claim
    r = played("show", "99", code=2)
    assert "game 1 has events 1 to 25; there is no event 99" in r.output
