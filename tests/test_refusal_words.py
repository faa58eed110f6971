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
