"""A phone shows no terminal's look (the last trial: "annulla `carta Imprevisti 14`" on the
undo button, "`riscuoti Carla`" in the answer box): every line a phone's answer names is in
its language's quotes, with no backticks, and `banco` only before a word the phone cannot
run; the command line and the shell keep theirs (cli/words/i18n.py's door)."""

from __future__ import annotations

import phones_tables
import pytest
from phones_tables import auth, keys  # noqa: F401 (a fixture)

from banco.cli.web.permissions import NOT_TABLE
from banco.cli.words import i18n

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
recorded, db, client = phones_tables.recorded, phones_tables.db, phones_tables.client
QUOTES = {"en": ("\u201c", "\u201d"), "it": ("\u00ab", "\u00bb")}
# a line refused with what is allowed, a word only the terminal runs, no such word, a roll
# whose rent may be claimed (Anna on Carla's Piazza Università), a mortgage to take back
LINES = {"en": ("buy", "cards imprevisti", "pippo", "roll 3 4", "mortgage Vicolo Corto"),
         "it": ("compra", "carte imprevisti", "pippo", "tira 3 4", "ipoteca Vicolo Corto")}
HINTS = {"en": ("\u201croll D1 D2\u201d", "\u201ccards\u201d", "\u201cclaim Carla\u201d"),
         "it": ("\u00abtira D1 D2\u00bb", "\u00abcarte\u00bb", "\u00abriscuoti Carla\u00bb")}
# a hint to a word a phone cannot type (`help` lists the words): not said there
UNTYPABLE = {"en": "\u201chelp\u201d", "it": "\u00abaiuto\u00bb"}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phones_answers_name_lines_in_quotes_never_in_backticks(client, keys, lang):  # noqa: F811
    headers = {**auth(keys["banker"]), "Accept-Language": lang}
    said = []
    for line in LINES[lang]:
        r = client.post("/api/commands", json={"line": line}, headers=headers)
        body = r.json()
        said.append(" ".join(str(body.get(k, "")) for k in ("said", "errors", "error",
                                                             "refused", "allowed")))
    text = "\n".join(said)
    assert "`" not in text, text
    for hint in HINTS[lang]:
        assert hint in text, (hint, text)
    assert UNTYPABLE[lang] not in text and "pippo" in text, text
    page = client.get("/banker", headers={"Accept-Language": lang}).text
    assert "undo_changes" in page and "undo `" not in page and "annulla `" not in page


def test_the_door_quotes_a_line_at_a_phone_only():
    said = "run `banco audit`, then `banco new A B` or `roll D1 D2`"
    words = frozenset({"new", "roll"})
    assert i18n.for_door(said) == said  # the command line's
    assert i18n.for_door(said, words) == "run `banco audit`, then `new A B` or `roll D1 D2`"
    with i18n.at_door(words, QUOTES["it"]):  # a phone: `banco` only for the terminal's word
        assert i18n.for_door(said) == ("run \u00abbanco audit\u00bb, then \u00abnew A B\u00bb "
                                       "or \u00abroll D1 D2\u00bb")
        said = i18n.catalog("it").gettext(NOT_TABLE).format(word="carte")
        assert said.startswith("«carte» non è"), said
    assert i18n.catalog("it").gettext(NOT_TABLE).startswith("`{word}` non")


# a hint to a word that lists something, as the command line and the shell say it, and as a
# phone's page says it: its board, its last commands, or nothing where it has no such place
POINTED = [
    ("no {kind} called {text!r}; `board` lists them",
     {"en": "no space called 'Pippo'; they are on the page's board",
      "it": "nessun nome corrisponde a 'Pippo' (space); sono sul tabellone della pagina"}),
    ("{text!r} is not an event number: `show` takes a seq (`log` lists them)",
     {"en": "'Pippo' is not an event number: \u201cshow\u201d takes a seq (the page's last "
            "commands give their numbers)",
      "it": "'Pippo' non è il numero di un evento: \u00abmostra\u00bb vuole un seq (gli ultimi "
            "comandi della pagina ne danno i numeri)"}),
    ("{title} has cards 1 to {count}, not {words}: `banco cards {deck}` lists them",
     {"en": "Imprevisti has cards 1 to 16, not 17", "it": "Imprevisti ha le carte da 1 a 16, non 17"}),
    ("; `help` lists them", {"en": "", "it": ""}),
]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phones_hint_names_its_page_never_a_word_it_cannot_type(lang):
    """The phones said "«tabellone» li elenca" and "«aiuto» li elenca": words a phone's field
    cannot run.  At the phone's door such a hint names the place on the page that shows the
    same, or goes; the command line keeps it."""
    from banco.cli.web.answers import at_phone

    fill = {"kind": "space", "text": "Pippo", "title": "Imprevisti", "count": 16, "words": "17",
            "deck": "imprevisti"}
    with at_phone(lang) as catalog:
        said = [catalog.gettext(message).format(**fill) for message, _ in POINTED]
    assert said == [words[lang] for _, words in POINTED]
    with i18n.in_language(lang):  # the command line's, as it was
        assert i18n.catalog(lang).gettext(POINTED[0][0]).endswith(
            {"en": "`board` lists them", "it": "`tabellone` li elenca"}[lang])


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_players_auction_hint_says_what_he_can_do_never_the_bankers_hammer(tmp_path, lang):
    """Bruno's phone said "offerta o aggiudica": `aggiudica` is the banker's to type.  His
    words say he may raise or drop out, or that his bid leads (003 §03), on any auction."""
    import banco
    from banco.cli.web.choices import auction_next
    from banco.cli.web.hub import tr

    db = str(tmp_path / "auction.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno", "Carla"], now=phones_tables.NOW)
        said = {}
        for line in ("roll 1 2", "decline", "bid Carla 10"):
            assert b.execute(line, game=1).refusal is None, line
            said[line] = {n: auction_next(b.table(1), n, tr(lang)) for n in ("Bruno", "Carla")}
    hammer = {"en": "hammer", "it": "aggiudica"}[lang]
    assert said["roll 1 2"] == {"Bruno": None, "Carla": None}  # no auction: the table's words
    for words in (*said["decline"].values(), *said["bid Carla 10"].values()):
        assert hammer not in words and "Vicolo Stretto" in words, words
    raise_ = {"en": ("Bid from this phone", "Carla leads with 10 M. Bid more"),
              "it": ("Offri da questo telefono", "Carla è in testa con 10 M. Rilancia")}[lang]
    assert raise_[0] in said["decline"]["Bruno"], said
    assert raise_[1] in said["bid Carla 10"]["Bruno"], said
    assert ("your bid of 10 M leads" if lang == "en" else "la tua offerta di 10 M") \
        in said["bid Carla 10"]["Carla"], said


def test_the_facts_inside_a_pages_words_are_said_in_its_language(tmp_path):
    """A debt's reason and Mr Monopoly's move inside the table's next step came out English on
    the Italian page ("deve 400 M a Bruno (rent on Viale Monterosa)"): the page's document
    is drawn in its language, facts and all."""
    from click.testing import CliRunner
    from freezegun import freeze_time
    from games import FIXTURES

    from banco.cli.main import cli
    from banco.cli.web.hub import render_view

    lines = (FIXTURES / "championship-4p.banco").read_text(encoding="utf-8").splitlines()
    script = tmp_path / "upto.banco"  # Dario owes Bruno the rent, his Mr Monopoly move due
    script.write_text("\n".join(lines[:lines.index("sell 'Corso Raffaello' all") + 1]) + "\n")
    db = str(tmp_path / "game.db")
    with freeze_time("2026-11-29 21:00:00"):
        assert CliRunner().invoke(cli, ["--db", db, "run", "-q", str(script)]).exit_code == 0
    said = render_view(phones_tables.table(db), [], "it", "public", None)["next"]
    assert "affitto su Viale Monterosa" in said and "su Via Accademia" in said, said
    assert "rent on" not in said and "the next free" not in said, said


STEPS = {  # Anna cannot pay the tax (bankrupt, then Bruno rolls); Carla in jail with a card
    "en": ("Anna goes bankrupt; then Bruno rolls",
           "Carla is in jail: pay the fine, use the get-out-of-jail card, roll the dice to try "
           "for doubles", "Carla must choose for Imprevisti 3: pay or draw a card"),
    "it": ("Anna fa bancarotta; poi tira Bruno",
           "Carla è in prigione: pagare la multa, usare la carta «esci gratis di prigione», "
           "tirare i dadi per tentare il doppio",
           "Carla deve scegliere per Imprevisti 3: pagare o pescare una carta")}
TV_AUCTION = {"en": ("auction for Vicolo Stretto: open, no bid yet",
                     "auction for Vicolo Stretto: Carla leads with 10 M"),
              "it": ("asta per Vicolo Stretto: aperta, nessuna offerta",
                     "asta per Vicolo Stretto: in testa Carla con 10 M")}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_phone_and_the_tv_say_the_next_step_in_words_never_the_bankers_lines(tmp_path, lang):
    """A player's phone read "bancarotta Carla; poi tira Dario" and "paga-multa", the TV
    "offerta o aggiudica" during an auction: the banker's lines, on screens nobody types at.
    There the step is said in words; the banker's page keeps the lines he types."""
    import banco
    from banco.cli.web.hub import render_view, tr
    from banco.cli.web.steps import in_words
    from banco.ledger.base.text import Joined, msg, render

    db = str(tmp_path / "steps.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno", "Carla"], now=phones_tables.NOW)
        for line in ("correct Anna -1450 --reason test --referee Rita", "roll 1 3"):
            assert b.execute(line, game=1).refusal is None, line
    table = phones_tables.table(db)
    views = {v: render_view(table, [], lang, v, None)["next"]
             for v in ("full", "public", "player:Bruno")}
    assert "`" in views["full"], views  # the banker's page: the lines he types
    for view in ("public", "player:Bruno"):
        assert "`" not in views[view] and STEPS[lang][0] in views[view], views
    # the jail's ways and a pay-or-draw card, as ledger/table/steps.py words them
    jail = msg("{player} is in jail: {ways} (try {attempt} of {attempts})", player="Carla",
               ways=Joined([msg("`pay-fine`"), msg("`use-card`"),
                            msg("`roll D1 D2` to try for doubles")], ", "), attempt=1, attempts=3)
    card = msg("{player} must choose for {title} {number}: `card {deck} {number} pay` or "
               "`card {deck} {number} draw`", player="Carla", title="Imprevisti", number=3,
               deck="imprevisti")
    for step, said in ((jail, STEPS[lang][1]), (card, STEPS[lang][2])):
        assert said in in_words(render(step, tr(lang)), tr(lang))
    # the TV during an auction: that it is open, then who leads, in its own words
    db = str(tmp_path / "auction.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno", "Carla"], now=phones_tables.NOW)
        for line, said in (("roll 1 2", None), ("decline", 0), ("bid Carla 10", 1)):
            assert b.execute(line, game=1).refusal is None, line
            tv = render_view(b.table(1), [], lang, "public", None)["next"]
            if said is not None:
                assert tv.startswith(TV_AUCTION[lang][said]) and "`" not in tv, tv
                assert {"en": "hammer", "it": "aggiudica"}[lang] not in tv, tv


# the steps a phone and the TV said with the banker's bare words ("procurati 20 M (vendi,
# ipoteca, scambia)", "muovi 4 o muovi 8"), in English on an Italian page (time up), or with a
# note on the Speedy die's S after the S was gone ("tirare i dadi (S, il dado Speedy: ...)")
WORDED = {
    "en": {"debt": "raise 20 M (sell buildings, mortgage deeds, trade), then Anna pays",
           "speedy": "Anna to roll the dice and the Speedy die",
           "bus": "by one die or both: 4 spaces or 8 spaces (000 FAQ 38)",
           "buy": "Anna must buy or decline Vicolo Stretto",
           "time": "time is up: rent may still be asked (a rent claim: Anna); calling time "
                   "again ends the game"},
    "it": {"debt": "procurati 20 M (vendere edifici, ipotecare contratti, fare scambi), poi "
                   "Anna paga",
           "speedy": "tocca ad Anna: tirare i dadi e il dado Speedy",
           "bus": "di un dado o di entrambi: 4 caselle o 8 caselle (000 FAQ 38)",
           "buy": "Anna deve scegliere: comprare o rifiutare Vicolo Stretto",
           "time": "il tempo è scaduto: si può ancora chiedere l'affitto (una richiesta "
                   "d'affitto: Anna); dichiarare il tempo scaduto di nuovo termina la partita"}}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_step_a_phone_shows_is_in_words_and_no_note_is_left_dangling(tmp_path, lang):
    from helpers import new_table, own, play

    import banco
    from banco.cli.web.hub import render_view, tr
    from banco.cli.web.steps import in_words, on_screen
    from banco.ledger.records import commands as c
    from banco.ledger.table.model import set_player
    from banco.ledger.table.speedy_die import speedy_step

    debt = phones_tables.table(phones_tables.in_debt(str(tmp_path / "debt.db")))
    said = {"debt": render_view(debt, [], lang, "player:Anna", None)["next"]}
    db = str(tmp_path / "speedy.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno"], rules="championship", now=phones_tables.NOW)
        state = b.table(1)
        assert b.execute("roll 1 2", game=1).refusal is None
        offered = b.table(1)
    # Anna has passed Via!: her roll takes the Speedy die, whose note explains an S that the
    # page does not show (its pad has a row for the die); the banker's page keeps the line
    speedy = set_player(state, "Anna", passed_go=True)
    said["speedy"] = render_view(speedy, [], lang, "public", None)["next"]
    banker = render_view(speedy, [], lang, "full", None)["next"]
    assert "(S," not in banker and "`" in banker, banker
    said["buy"] = render_view(offered, [], lang, "player:Anna", None)["next"]
    bus = speedy._replace(turn=speedy.turn._replace(phase="move", dice=(4, 4, "bus")))
    said["bus"] = in_words(on_screen(speedy_step(bus)).render(tr(lang)), tr(lang))
    # time up with a claim still open (ledger/table/steps.py's next_step): it was an f-string,
    # English on an Italian page.  Anna owns Via Accademia; Bruno's card takes him there after
    # time was called (test_time_limit.py's _rent_opened_by_the_last_turn)
    t = own(new_table(("Anna", "Bruno"), rules="championship"), "Anna", "Via Accademia")
    t, _ = play(t, c.Roll((1, 3)), c.Roll((3, 4)), c.TimeUp(phones_tables.NOW),
                c.DrawCard("imprevisti", 5))
    said["time"] = render_view(t, [], lang, "public", None)["next"]
    for key, words in WORDED[lang].items():
        assert words in said[key] and "`" not in said[key] and "(S," not in said[key], said


@pytest.mark.parametrize("edition, lang, name", [("it", "en", "brown"), ("it", "it", "marrone"),
                                                 ("us", "it", "marrone"), ("us", "en", "brown")])
def test_a_colour_group_is_named_in_the_pages_language_and_sent_as_its_key(edition, lang, name):
    """An English page offered "marrone (Anna)" to build on: the Italian board's data.  The
    group is said in the page's language; the line the button sends keeps the board's key."""
    from helpers import new_table

    from banco.cli.web.hub import render_view

    t = new_table(("Anna", "Bruno"), edition=edition)
    key = t.edition.space(1).group  # the first street's: brown, Vicolo Corto's
    t = t._replace(owners=tuple("Anna" if p in t.edition.groups[key] else o
                                for p, o in enumerate(t.owners)))
    for view in ("full", "player:Anna"):
        pads = render_view(t, [], lang, view, None)["estate"]["players"]
        (group,) = next(p for p in pads if p["name"] == "Anna")["build"]
        assert (group["group"], group["name"]) == (key, name), group


def test_the_phones_document_shows_next_as_the_server_says_it(tmp_path):
    """docs/phones-api.md's example of `next` for the banker, a player's phone and the TV (it
    has no live block: the server's answers are checked here)."""
    from pathlib import Path

    from banco.cli.web.hub import render_view

    doc = (Path(__file__).resolve().parents[1] / "docs" / "phones-api.md").read_text("utf-8")
    t = phones_tables.table(phones_tables.in_debt(str(tmp_path / "debt.db")))
    said = {(lang, view): render_view(t, [], lang, view, None)["next"]
            for lang, view in (("en", "full"), ("en", "player:Anna"), ("en", "public"),
                               ("it", "player:Anna"))}
    assert said[("en", "player:Anna")] == said[("en", "public")], said
    for (lang, view), text in said.items():
        shown = f"`` {text} ``" if "`" in text else f"| {text} |"
        assert shown in doc, (lang, view, text)


def test_a_recorded_line_with_an_open_quote_still_has_its_command_word_in_the_pages_language():
    """A transcript's comment kept in its line (`advance # to Piazza Dante, Bruno's: ...`)
    left a quote open: the whole line stayed English on an Italian page."""
    from banco.cli.web.choices import line_in

    line = "advance # to Piazza Dante, Bruno's: the nearest where rent is owed"
    assert line_in(line, "it") == "avanza # to Piazza Dante, Bruno's: the nearest where rent is owed"
    assert line_in("avanza # l'ultima", "en") == "advance # l'ultima"


@pytest.mark.parametrize("edition, lang, title", [
    ("it", "en", "Monopoly, Italian edition"), ("it", "it", "Monopoly, edizione italiana"),
    ("us", "it", "Monopoly, edizione statunitense"), ("us", "en", "Monopoly, US edition")])
def test_the_boards_title_is_in_the_pages_language(edition, lang, title):
    """"Monopoly, edizione italiana" headed an English page: the Italian edition's data."""
    from helpers import new_table

    from banco.cli.web.hub import render_view

    t = new_table(("Anna", "Bruno"), edition=edition)
    for view in ("full", "public", "player:Anna"):
        assert render_view(t, [], lang, view, None)["edition"] == title
