"""Refusals that say what was meant (a newcomer's trial): the shell's `quit` given to the
library was answered "did you mean audit?"."""

import banco


def test_the_shells_leaving_words_given_to_the_library_are_said_as_the_shells(tmp_path):
    book = banco.open(str(tmp_path / "g.db"), create=True)
    try:
        book.new(["Anna", "Bruno"])
        for word, lang, said in (("quit", "en", "`quit` is the shell's word for leaving "
                                                "`banco shell`"),
                                 ("esci", "it", "`esci` è la parola della shell per uscire")):
            out = book.execute(word, lang=lang)
            assert out.refusal is not None and out.refusal.code == 2 and not out.events
            assert said in out.say(lang) and "did you mean" not in out.say("en")
    finally:
        book.close()


def test_a_bid_not_in_digits_says_what_a_bid_takes(tmp_path):
    """`bid anna 1e9` said "'1e9' is not a valid integer." and no more.  Not read (a bid is
    whole money, typed in digits), but said how, with the line to type."""
    book = banco.open(str(tmp_path / "g.db"), create=True)
    try:
        book.new(["Anna", "Bruno"])
        out = book.execute("bid anna 1e9")
        assert out.refusal is not None and out.refusal.code == 2 and not out.events
        assert ("'1e9' is not a valid integer: a bid is a whole amount in the digits 0-9, e.g. "
                "`bid anna 120`") in out.say("en")
        assert "per esempio `offerta anna 120`" in book.execute("offerta anna 1.5",
                                                               lang="it").say("it")
    finally:
        book.close()


def test_the_deal_and_the_games_end_are_said_in_the_lines_language_without_banco(tmp_path):
    """A trial: Italian lines got "still to deal: Bruno 2" in English (a plain string in the
    rules), and a finished game's refusal offered `banco stato, ...` inside the shell."""
    book = banco.open(str(tmp_path / "g.db"), create=True)
    try:
        game = book.execute("new Anna Bruno --rules timed").game
        out = book.execute("tira 1 2", game=game, lang="it")
        assert "ancora da distribuire: Anna 2, Bruno 2" in out.say("it"), out.say("it")
        assert "still to deal: Anna 2, Bruno 2" in out.say("en")
        for line in ("deal Anna 'vicolo corto' 'vicolo stretto'",
                     "deal Bruno 'via roma' 'corso impero'", "time-up"):
            assert book.execute(line, game=game).refusal is None, line
        out = book.execute("roll 1 2", game=game)
        assert out.refusal is not None and "game is over" in out.say("en")
        assert "`state`, `standings`, `log`, `audit`" in out.say("en")
        assert "`stato`, `classifica`, `registro`, `verifica`" in out.say("it")
        assert "banco" not in out.say("en") + out.say("it")
    finally:
        book.close()


def test_chiedi_as_an_italian_phones_claim_button_says_it_claims(tmp_path):
    """The Italian phone's button says CHIEDI; a family typed `chiedi anna` in the shell and
    was told there is no such command while the claim's window ran out."""
    book = banco.open(str(tmp_path / "g.db"), create=True)
    try:
        game = book.execute("new Anna Bruno Carla").game
        for line in ("roll 1 2", "buy", "roll 2 1"):
            assert book.execute(line, game=game).refusal is None, line
        out = book.execute("chiedi anna", game=game, lang="it")
        assert out.refusal is None, out.say("it")
        assert [e["type"] for e in out.events if e["type"] == "RentPaid"] == ["RentPaid"]
    finally:
        book.close()
