"""What the last looks at the pages found on the console and the pads, measured in a real
browser: the Italian banker's page at 1920x1080 scrolled, a group's build levels one under
another (a laptop's banker now sees the whole page, in both languages, at 1280x720 too); a
trade offer withdrawn said "registrato: rifiuta", as if refused; a bankrupt's lifts said one
why four times, and its undo pushed the line field off the screen.  (A bidder who leads: its
checks are in tests/test_phones_notices_browser.py, on the same table.)"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from freezegun import freeze_time
from games import FIXTURES
from phones_helpers import NOW, browser, click, served, table, until
from test_phones_layout_browser import SMALL

from banco.cli.main import cli
from banco.ledger.store import tokens


def upto(folder: Path, fixture: str, last: str) -> str:
    """fixtures/FIXTURE.banco recorded up to its first line `last`, in `folder`: its file."""
    lines = (FIXTURES / f"{fixture}.banco").read_text(encoding="utf-8").splitlines()
    script = folder / f"{fixture}.banco"
    script.write_text("\n".join(lines[:lines.index(last) + 1]) + "\n", encoding="utf-8")
    db = str(folder / f"{fixture}.db")
    with freeze_time("2026-11-29 21:00:00"):
        result = CliRunner().invoke(cli, ["--db", db, "run", "-q", str(script)])
    assert result.exit_code == 0, result.output
    return db


def size(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    until(driver, f"return innerWidth === {width} && innerHeight === {height}")


def opened(driver, url: str, role: str, db: str) -> None:
    driver.get("about:blank")  # /player#t=B after /player#t=A: only a fragment, no new page
    driver.get(url)
    until(driver, f"return document.body.dataset.role === '{role}' && "
                  f"document.body.dataset.seq == '{table(db).seq}'")


# the page's height past the window, and how many rows a group's build levels take
WHOLE = """return {scroll: document.documentElement.scrollHeight - innerHeight,
  levels: [...document.querySelectorAll("#build-pad [data-line^='build ']")].length,
  rows: new Set([...document.querySelectorAll("#build-pad [data-line^='build ']")]
    .map(b => Math.round(b.getBoundingClientRect().top))).size}"""


# the page's height past the window, and what of the board, the players, the open claims and
# the pads lies outside it
KEPT = """const out = s => { const r = document.querySelector(s).getBoundingClientRect();
    return r.height === 0 || r.top < 0 || r.bottom > innerHeight || r.right > innerWidth; };
  return {scroll: document.documentElement.scrollHeight - innerHeight,
          out: ['#board', '#players', '#claims', '#console'].filter(out)}"""


def withdrawn(d) -> None:
    """The banker offers a trade between two paired phones, then takes it back: said
    withdrawn, nothing recorded, not "registrato: rifiuta"."""
    d.find_element("css selector", "#line").send_keys("scambia Anna Bruno --dai 10\n")
    click(d, "[data-answer='withdraw']")
    until(d, "return !!document.querySelector('#outbox li.done') && "
             "!!document.querySelector('.offer.closed')")
    said = d.execute_script("""return {box: document.querySelector('#outbox li.done').textContent,
      offer: document.querySelector('.offer.closed .muted').textContent}""")
    assert said == {"box": "offerta ritirata: nulla registrato",
                    "offer": "ritirato da banchiere: nulla registrato"}, said


# the line field, what is said under it, and the outbox's lines
FIELD = """return {field: document.getElementById('line').value,
  told: document.getElementById('line-told').hidden ? null
    : document.getElementById('line-told').textContent,
  box: [...document.querySelectorAll('#outbox li')].map(l => l.className + ': ' + l.textContent)}"""


def followed(d, base: str, phones: dict) -> None:
    """The banker types a trade between two paired phones (the trial, Italian, 1920x1080): his
    page said "in attesa di Anna, Bruno: scambia ... (non ancora registrato)" after the trade
    was recorded, or declined, with an empty red alert under the field.  Now the line follows
    its offer: who is still awaited, then recorded (the field cleared), or declined or refused
    by the rules when it ran (said under the field, the line kept there to amend)."""
    import httpx

    def answer(who: str, word: str) -> None:
        offer = d.execute_script("return box.find(i => i.state === 'held').offer")
        r = httpx.post(f"{base}/api/offers/{offer}", json={"answer": word},
                       headers={"Authorization": f"Bearer {phones[who]}"})
        assert r.status_code in (200, 202, 422), r.text

    for end, line in (("decline", "scambia Bruno Anna --dai 10 --ricevi 'corso ateneo'"),
                      # Bruno has 1323 M: the rules refuse it once both have accepted
                      ("refused", "scambia Bruno Anna --dai 5000 --ricevi 'corso ateneo'"),
                      ("accept", "scambia Bruno Anna --dai 10 --ricevi 'corso ateneo'")):
        d.find_element("css selector", "#line").clear()
        d.find_element("css selector", "#line").send_keys(line + "\n")
        until(d, "return !!document.querySelector('#outbox li.held')")
        seen = d.execute_script(FIELD)
        assert seen["told"] is None and seen["field"] == line, seen  # no empty alert
        assert seen["box"][-1] == ("held: in attesa di Anna, Bruno: " + line
                                   + " (non ancora registrato)"), seen
        answer("Anna", "accept")
        until(d, "return document.querySelector('#outbox li.held').textContent"
                 ".startsWith('in attesa di Bruno:')")
        before = table(d.db).seq
        answer("Bruno", "accept" if end == "refused" else end)
        until(d, "return !document.querySelector('#outbox li.held')")
        seen = d.execute_script(FIELD)
        if end == "decline":  # nothing recorded: said under the line, kept to amend
            assert table(d.db).seq == before
            assert seen == {"field": line, "told": "rifiutato da Bruno: nulla registrato",
                            "box": seen["box"]}, seen
            assert not any(line in b for b in seen["box"]), seen  # said once, under the field
        elif end == "refused":  # the rules' refusal, with the rule, under the line kept
            assert table(d.db).seq == before and seen["field"] == line, seen
            assert seen["told"].startswith("Bruno ha 1323 M, non 5000"), seen
            assert seen["told"].endswith("(003 §06)"), seen
        else:
            until(d, f"return DOC.seq > {before}")
            assert seen["field"] == "" and seen["told"] is None, seen
            assert seen["box"][-1] == "done: registrato: " + line, seen
    st = table(d.db)
    assert st.owners[[s.name for s in st.edition.spaces].index("Corso Ateneo")] == "Bruno"


def test_a_laptops_banker_sees_the_whole_page_and_a_withdrawn_offer_is_said_withdrawn(tmp_path):
    # Bruno owns the light blues and the dark blues, Dario the browns: each a group to build
    db = upto(tmp_path, "classic-to-the-end", "build 'Viale Monterosa'")
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    phones = {name: tokens.issue(db, "player", 1, NOW, name)[0] for name in ("Anna", "Bruno")}
    d = browser((1920, 1080))
    d.db = db
    try:
        # Italian last: its offers (a trade recorded) come after both languages' measures
        for lang in ("en", "it"):
            with served(db, lang=lang) as (base, _):
                opened(d, f"{base}/banker#t={banker}", "banker", db)
                size(d, 1920, 1080)
                # a group to build on, one to sell from, a player's six deeds to mortgage
                for pick in ("[data-build-group]", "[data-sell-group]", "[data-mortgager='Anna']"):
                    click(d, pick)
                until(d, "return !!document.querySelector(\"[data-line^='mortgage ']\")")
                seen = d.execute_script(WHOLE)
                assert seen["scroll"] == 0 and seen["levels"] == 5, (lang, seen)
                assert seen["rows"] <= 3, (lang, seen)  # five levels, two or three a row
                # at 1280x720 the page does not scroll: the players and the open claims in the
                # board's centre, the pads (three opened) in their own column (the players were
                # under the pads, the page 510 px longer than the window)
                size(d, 1280, 720)
                # the media query's change is heard a frame after the resize
                until(d, "return document.querySelector('aside').parentElement.id === 'board'")
                assert d.execute_script(KEPT) == {"scroll": 0, "out": []}, lang
                size(d, 1920, 1080)
                until(d, "return document.querySelector('aside').parentElement.tagName === 'MAIN'")
                # no text under 12 px, back from 720 lines: a name beside a token was made
                # 11.12 px (fitSquares' steps of 1 px from 15.12)
                assert d.execute_script(SMALL) == [], lang
                if lang == "it":  # an offer taken back, said withdrawn; others followed
                    withdrawn(d)
                    followed(d, base, phones)
    finally:
        d.quit()


def test_a_bankruptcy_says_one_why_on_the_phone_and_its_undo_keeps_the_page_whole(tmp_path):
    """Carla, 2000 M short: her phone said the same why under each of her four lifts; once she
    was bankrupt, the banker's undo listed every deed in seven lines and the page at 1920x1080
    scrolled, the line field off the screen."""
    import httpx

    lines = (FIXTURES / "classic-to-the-end.banco").read_text(encoding="utf-8").splitlines()
    script = tmp_path / "debt.banco"
    script.write_text("\n".join(lines[:lines.index("bankrupt Carla")]) + "\n", encoding="utf-8")
    db = str(tmp_path / "debt.db")
    with freeze_time("2026-11-29 21:00:00"):
        assert CliRunner().invoke(cli, ["--db", db, "run", "-q", str(script)]).exit_code == 0
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    carla = tokens.issue(db, "player", 1, NOW, "Carla")[0]
    d = browser((390, 844))
    try:
        with served(db, lang="it") as (base, _):
            opened(d, f"{base}/player#t={carla}", "player", db)
            whys = d.execute_script("""return {lifts: document.querySelectorAll(
              '#mortgage-pad [data-lift-deed]:disabled').length, whys: [...document
              .querySelectorAll('#mortgage-pad .why')].map(w => w.textContent)}""")
            assert whys["lifts"] == 4 and len(whys["whys"]) == 1, whys
            assert "003 §10" in whys["whys"][0], whys
            said = httpx.post(f"{base}/api/commands", json={"line": "bankrupt Carla"},
                              headers={"Authorization": f"Bearer {banker}"})
            assert said.status_code == 200, said.text
            opened(d, f"{base}/banker#t={banker}", "banker", db)
            size(d, 1920, 1080)
            seen = d.execute_script("""const u = document.querySelector('#undo .clamp');
              return {scroll: document.documentElement.scrollHeight - innerHeight,
                      lines: Math.round(u.getBoundingClientRect().height
                                        / parseFloat(getComputedStyle(u).lineHeight)),
                      whole: document.getElementById('undo').title.includes(
                        'Largo Colombo torna a Carla'), line: document.getElementById('line')
                             .getBoundingClientRect().bottom <= innerHeight}""")
            assert seen == {"scroll": 0, "lines": 3, "whole": True, "line": True}, seen
    finally:
        d.quit()
