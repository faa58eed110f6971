"""A mortgage lifted says its figures one way, from the facts: `unmortgage` said `50 M + 5 M
interest` where a trade's --lift said `50 M + 10%` (a trial).  The freed deed's reason records
the mortgage; the interest is the fact's amount less it."""


def test_a_lift_on_receiving_says_the_interest_as_unmortgage_does(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "3")  # Anna: Bastioni Gran Sasso (mortgage 50), doubles
    banco("buy")
    banco("mortgage", "bastioni", "gran", "sasso")
    out = banco("--lang", "it", "trade", "Anna", "Bruno", "--give", "bastioni", "gran", "sasso",
                "--get", "100", "--lift", "bastioni", "gran", "sasso").output
    assert ("Bruno paga 55 M alla Banca: tolta l'ipoteca su Bastioni Gran Sasso ricevendola: "
            "50 M + 5 M di interessi") in out, out
    assert "freed Bastioni Gran Sasso on receiving it: 50 M + 5 M interest" in banco(
        "statement", "Bruno").output
    assert "50 M + 5 M interest" in banco("log").output
    banco("mortgage", "bastioni", "gran", "sasso", "--player", "Bruno")
    out = banco("unmortgage", "bastioni", "gran", "sasso", "--player", "Bruno").output
    assert "lifted the mortgage on Bastioni Gran Sasso: 50 M + 5 M interest" in out, out
