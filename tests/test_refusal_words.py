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
