"""Every refusal says what is allowed instead, and what it says is allowed is: the command it
names, decided on the same table, is accepted (a newcomer found refusals with no `allowed:`
line, and `bankrupt` suggesting `bankrupt PLAYER`, which was refused too)."""

import re

import pytest
from helpers import (
    POS,
    Bankrupt,
    Build,
    Items,
    PayDebt,
    Sell,
    Trade,
    Unmortgage,
    build,
    cash,
    mortgage,
    new_table,
    owe,
    own,
    play,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.names import resolve
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import next_step

BROWN = ("Vicolo Corto", "Vicolo Stretto")
GREEN = ("Via Roma", "Corso Impero", "Largo Augusto")


def refused(state, cmd, match: str) -> str:
    """The refusal's allowed line (asserted not empty)."""
    with pytest.raises(RuleViolation, match=match) as info:
        decide(state, cmd)
    assert info.value.allowed, f"no allowed line for {cmd}"
    return info.value.allowed


def suggested(state, allowed: str) -> list:
    """The commands an allowed line names in backquotes (`sell X`, `unmortgage X`)."""
    names = [s.name for s in state.edition.properties]
    out = []
    for word, rest in re.findall(r"`(sell|unmortgage|build) ([^`]+)`", allowed):
        pos = POS[resolve(rest, names, "property")]
        out.append({"sell": c.Sell, "unmortgage": c.Unmortgage, "build": c.Build}[word](pos))
    return out


def test_pay_and_bankrupt_with_no_debt_say_what_the_table_waits_for():
    state = new_table()
    waits = str(next_step(state))
    assert refused(state, PayDebt(), "there is no debt to settle") == waits
    assert refused(state, PayDebt("Bruno"), "Bruno owes nothing") == waits
    assert refused(state, Bankrupt("Dario"), "Dario owes nothing") == waits
    # no longer `bankrupt PLAYER`, which would be refused as well
    assert refused(state, Bankrupt(), "nobody is in debt") == waits


def test_bankrupt_with_two_debtors_names_each_and_each_is_a_command_that_decides():
    # two debtors who cannot pay: `bankrupt` alone asks who, naming the commands
    state = cash(cash(new_table(), "Carla", 0), "Dario", 0)
    state = owe(owe(state, "Carla", "Anna", 5000), "Dario", "Bruno", 5000)
    allowed = refused(state, Bankrupt(), r"say who: Carla and Dario owe money")
    assert allowed == "`bankrupt Carla` or `bankrupt Dario`"
    for name in ("Carla", "Dario"):
        assert decide(state, Bankrupt(name))  # accepted: the bankruptcy is recorded


def test_a_refusal_for_want_of_a_debt_names_the_debt_there_is():
    state = owe(new_table(), "Carla", "Anna", 50)
    allowed = refused(state, Bankrupt("Dario"), "Dario owes nothing")
    assert "`pay Carla`" in allowed
    play(state, PayDebt("Carla"))  # and it is accepted
    assert "`pay Carla`" in refused(state, PayDebt("Bruno"), "Bruno owes nothing")


def test_unmortgage_of_a_deed_not_mortgaged_names_the_ones_that_are():
    state = mortgage(own(new_table(), "Anna", *BROWN, "Via Roma"), "Vicolo Corto", "Via Roma")
    allowed = refused(state, Unmortgage(POS["Vicolo Stretto"]), "is not mortgaged")
    assert allowed == "`unmortgage Vicolo Corto`, `unmortgage Via Roma`"
    for cmd in suggested(state, allowed):
        play(state, cmd)
    # what the cash cannot free is not offered
    poor = cash(state, "Anna", 40)  # Vicolo Corto: 30 + 10% = 33; Via Roma 200 + 20 = 220
    assert refused(poor, Unmortgage(POS["Vicolo Stretto"]), "is not mortgaged") == \
        "`unmortgage Vicolo Corto`"
    nothing = own(new_table(), "Anna", *BROWN)
    assert refused(nothing, Unmortgage(POS["Vicolo Stretto"]), "is not mortgaged") == \
        str(next_step(nothing))


def test_sell_with_nothing_to_sell_names_the_lots_a_building_can_come_from():
    state = build(build(own(new_table(), "Anna", *BROWN), "Vicolo Corto", 2), "Vicolo Stretto", 1)
    allowed = refused(state, Sell(POS["Vicolo Stretto"], 0), "sell at least one building")
    assert allowed == "`sell Vicolo Corto`"  # evenly: from the lot with the most
    for cmd in suggested(state, allowed):
        play(state, cmd)
    # a hotel that cannot break into houses (the Bank has none) is not offered
    hotels = build(build(own(new_table(), "Anna", *BROWN, *GREEN), "Vicolo Corto", 1),
                   "Vicolo Stretto", 1)
    for lot in GREEN:
        hotels = build(hotels, lot, 5)
    hotels = hotels._replace(bank_houses=0)
    assert refused(hotels, Sell(POS["Vicolo Stretto"], 0), "sell at least one building") == \
        "`sell Vicolo Corto`, `sell Vicolo Stretto`"


def test_a_sale_where_no_building_stands_says_what_raises_cash_on_the_deed():
    # it said what the table waits for (`Anna to roll`), or nothing (`sell marrone all`):
    # the Bank buys back buildings, never deeds (004 §Proprietà in vendita)
    bare = own(new_table(), "Anna", *BROWN)
    said = ("the Bank buys back buildings, never deeds (004 §Proprietà in vendita): for cash, "
            "`mortgage Vicolo Corto` (004 §Impegno), or sell it to a player in a `trade`")
    for cmd, match in ((Sell(POS["Vicolo Corto"], 1), "has no buildings to sell"),
                       (Sell(POS["Vicolo Corto"], whole_group=True), "no buildings on the group"),
                       (c.SellTo((POS["Vicolo Corto"], POS["Vicolo Stretto"]), 0),
                        "nothing to sell")):
        assert refused(bare, cmd, match) == said
    play(bare, c.Mortgage(POS["Vicolo Corto"]))  # what it names is accepted
    mortgaged = mortgage(bare, "Vicolo Corto")
    assert "sold only to a player, in a `trade`" in refused(
        mortgaged, Sell(POS["Vicolo Corto"], 1), "has no buildings to sell")


def test_build_zero_says_build_one_where_one_may_be_built():
    state = own(new_table(), "Anna", *BROWN)
    allowed = refused(state, Build(POS["Vicolo Corto"], 0), "build at least one building")
    assert allowed == "`build Vicolo Corto`"
    play(state, *suggested(state, allowed))
    # where no building may go, that refusal is the one said
    half = own(new_table(), "Anna", "Vicolo Corto")
    refused(half, Build(POS["Vicolo Corto"], 0), "does not own the whole group")
    uneven = build(state, "Vicolo Stretto", 1)
    assert refused(uneven, Build(POS["Vicolo Stretto"], 0), "uneven building") == \
        "build on Vicolo Corto first"


def test_a_build_on_a_hotel_names_the_lots_that_may_take_one_more():
    # `build` on a hotel said no allowed line at all (004 §Alberghi: one hotel a lot)
    state = own(new_table(), "Anna", *BROWN, *GREEN)
    for lot in BROWN:
        state = build(state, lot, 5)
    for lot in GREEN:
        state = build(state, lot, 1)
    state = build(state, "Via Roma", 2)
    allowed = refused(state, Build(POS["Vicolo Corto"]), "already has a hotel")
    assert allowed == "`build Corso Impero`, `build Largo Augusto`"  # evenly
    for cmd in suggested(state, allowed):
        play(state, cmd)
    full = own(new_table(), "Anna", *BROWN)
    for lot in BROWN:
        full = build(full, lot, 5)
    said = ("no more building on Vicolo Corto: a hotel is a lot's last (004 §Alberghi), and "
            "no other lot of Anna's may take one now")
    assert refused(full, Build(POS["Vicolo Corto"]), "already has a hotel") == said
    assert refused(full, c.BuildTo((POS["Vicolo Corto"], POS["Vicolo Stretto"]), 5),
                   "nothing to build") == said


def test_a_jail_card_not_held_is_refused_with_the_trade_without_it():
    state = own(new_table(), "Anna", "Vicolo Corto")
    give = Items((POS["Vicolo Corto"],), 0, 1)
    allowed = refused(state, Trade("Anna", "Bruno", give, Items((), 50, 0)),
                      "Anna holds 0 get-out-of-jail card")
    assert allowed == "the trade without `jail-card` from Anna"
    play(state, Trade("Anna", "Bruno", give._replace(jail_cards=0), Items((), 50, 0)))


def test_a_bankrupt_owner_s_claim_says_what_the_table_waits_for():
    state = new_table()
    i = state.index["Carla"]
    state = state._replace(players=state.players[:i] + (state.players[i]._replace(
        bankrupt=True),) + state.players[i + 1:])
    assert refused(state, c.Claim("Carla"), "Carla is bankrupt and out of the game") == \
        str(next_step(state))
