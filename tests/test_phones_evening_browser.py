"""A family evening from phones (issue 34), in real Chromium (Debian's chromium and
chromium-driver through selenium), in Italian: `serve` on a new file; the banker's page starts
the game and pairs two phones by their links, a third joins with the code the TV shows and the
banker approves it; then the players roll, buy, bid, claim, pay the fine, answer a pay-or-draw
card, build, mortgage and trade from their own pages, and the banker only hammers the auction.
One phone tries another's act (403, nothing appended), one drops off the Wi-Fi and comes back
(its CLAIM says it was not sent; a roll sent again with its id is applied once), the TV's
smallest text is measured at 1920x1080, and the audit finds every command applied once.

Screenshots (390x844 and 1920x1080) go to $BANCO_SCREENSHOTS (docs/ for the manual's page),
else to the test's own folder."""

from __future__ import annotations

import os
import re

from phones_helpers import NOW, click, no_page_errors, offline, seq, served, shot, until

from banco.ledger.book import Book
from banco.ledger.store import tokens

PLAYERS = ("Anna", "Bruno", "Carla")


def commands(db: str) -> list[dict]:
    book = Book(db, create=False)
    try:
        return [e for e in book.events(1) if e["type"] == "CommandRecorded"]
    finally:
        book.close()


class Evening:
    """The table: the banker's page, the players' phones and the TV, and the file."""

    def __init__(self, db: str, banker, phones: dict, tv):
        self.db, self.banker, self.phones, self.tv = db, banker, phones, tv

    def synced(self, *pages) -> int:
        """These pages (by default every one) have drawn the table as the file holds it."""
        at = seq(self.db)
        for d in pages or (self.banker, *self.phones.values()):
            until(d, f"return DOC && DOC.seq >= {at}", timeout=15)
        return at

    def doc(self) -> dict:
        self.synced(self.banker)
        return self.banker.execute_script("return DOC")

    def tap(self, who: str, css: str, *, records: bool = True) -> None:
        """`who` taps `css` on his phone (or the banker on his page); it records a command."""
        d = self.banker if who == "banker" else self.phones[who]
        before = self.synced(d)  # the page that taps draws the table it acts on
        click(d, css)
        if records:
            until(d, f"return DOC && DOC.seq > {before}", timeout=15)

    def roll(self, d1: int, d2: int) -> str:
        who = self.doc()["turn"]["player"]
        self.synced(self.phones[who])
        click(self.phones[who], f"[data-die='0'][data-face='{d1}']")
        click(self.phones[who], f"[data-die='1'][data-face='{d2}']")
        self.tap(who, "#roll")
        return who

    def settle(self, buy: bool = True) -> None:
        """What the table waits for after a roll, each from the phone whose act it is: the
        owner's CLAIM, the buy (or decline), a card (one that asks nothing more), a debt."""
        for _ in range(12):
            doc = self.doc()
            turn = doc["turn"]
            if doc["claims"]:
                owner = doc["claims"][0]["owner"]
                self.tap(owner, "#claim")
            elif doc["debts"]:
                debtor = doc["debts"][0]["debtor"]
                self.tap(debtor, "#debt-pad button.go")
            elif turn["phase"] == "buy":
                self.tap(turn["player"], "#buy-pad button.go" if buy else "#buy-pad button:not(.go)")
            elif turn["phase"] == "card":
                self.card(turn["player"])
            elif turn["phase"] == "choice":
                self.tap(turn["player"], "[data-choice='card_pay']")
            else:
                return
        raise AssertionError(f"the table kept waiting: {self.doc()['next']}")

    def card(self, who: str) -> None:
        """A card that asks nothing more of the test (money only), by its text's button."""
        phone = self.phones[who]
        for number in (8, 11, 13, 9, 4, 5, 6, 12, 15, 16, 14):
            css = f"#card-pad button[data-line$=' {number}']"
            if phone.find_elements("css selector", css):
                before = seq(self.db)
                phone.execute_script("delete document.body.dataset.lastStatus")
                click(phone, css)
                until(phone, "return document.body.dataset.lastStatus !== undefined", timeout=15)
                self.synced()
                if seq(self.db) > before:
                    return
        raise AssertionError("no card could be drawn")


def visible_text_sizes(driver) -> list[tuple[float, str, bool]]:
    """Every visible text on the page, with its computed size and whether it is a board
    name."""
    return driver.execute_script("""
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const e = n.parentElement;
        if (!n.textContent.trim() || !e || e.closest('script') || !e.getClientRects().length) continue;
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        out.push([parseFloat(getComputedStyle(e).fontSize), n.textContent.trim().slice(0, 30),
                  !!e.closest('#board .nm')]);
      }
      return out;""")


def test_a_family_evening_from_the_phones(tmp_path):
    from banco.cli.web.serve import create_file

    db = str(tmp_path / "sera.db")
    out = os.environ.get("BANCO_SCREENSHOTS") or str(tmp_path)
    assert create_file(db)  # `banco serve` on a new file
    key = tokens.issue(db, "banker", tokens.EVERY_GAME, NOW)[0]  # the link serve prints
    with served(db, lang="it") as (base, page):
        banker = page()
        tv = page((1920, 1080))
        drivers = [banker, tv]
        banker.get(f"{base}/banker#t={key}")
        tv.get(base + "/")
        # --- the set-up, from the banker's page only -----------------------------------------
        until(banker, "return !!document.getElementById('setup-start')")
        # the boards by their titles, in the page's language (their keys: "it-lire", "us")
        boards = banker.execute_script("""return [...document.querySelectorAll(
          '#setup-edition option')].map(o => o.textContent)""")
        assert "Monopoly, edizione italiana" in boards and "it-lire" not in boards, boards
        assert "Monopoly, edizione statunitense" in boards, boards
        for i, name in enumerate(PLAYERS):
            banker.find_element("css selector", f"#setup input[name='p{i}']").send_keys(name)
        shot_setup = os.path.join(out, "phones-evening-setup-390.png")
        # the cash checkbox on its words' line (as a 44 px field it sat above them)
        line = banker.execute_script("""const box = document.getElementById('setup-hidden'),
          words = document.createRange();
          words.selectNodeContents(box.parentNode);
          words.setStartAfter(box);
          const b = box.getBoundingClientRect(), w = words.getClientRects()[0];
          return [b.top + b.height / 2, w.top, w.bottom];""")
        assert line[1] <= line[0] <= line[2], line
        # the six seats in equal columns at 390 and at 1920 px (there five sat on a row and
        # the sixth stretched alone under them)
        for width, rows in ((1920, 2), (390, 3)):
            banker.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": 1080, "deviceScaleFactor": 1, "mobile": width < 600})
            until(banker, f"return innerWidth === {width}")
            seats = banker.execute_script("""return [...document.querySelectorAll(
              '#setup input.seat')].map(e => [Math.round(e.getBoundingClientRect().width),
                                              Math.round(e.getBoundingClientRect().top)])""")
            assert len({w for w, _ in seats}) == 1 and len({t for _, t in seats}) == rows, seats
        banker.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        click(banker, "#setup-start")
        until(banker, "return !!document.querySelector(\"[data-pair='Anna']\")", timeout=15)
        assert [g["players"] for g in banker.execute_script("return SETUP.games")] == [
            list(PLAYERS)]
        phones = {}
        for name in ("Anna", "Bruno"):  # paired by the link (its QR on the banker's page)
            click(banker, f"[data-pair='{name}']")
            until(banker, f"return !!document.querySelector(\"[data-link='{name}']\")")
            link = banker.find_element("css selector", f"[data-link='{name}']").get_attribute(
                "href")
            assert re.search(r"/player#t=bt_", link), link
            phones[name] = page()
            drivers.append(phones[name])
            phones[name].get(link)
        shot(banker, shot_setup, 390, 844)
        # Carla joins with the code the TV shows, and the banker approves her phone
        until(tv, "return /\\d{6}/.test(document.getElementById('joinline').textContent)")
        code = re.search(r"\d{6}", tv.find_element("css selector", "#joinline").text).group()
        carla = phones["Carla"] = page()
        drivers.append(carla)
        carla.get(base + "/join")
        carla.find_element("css selector", "#join-code").send_keys(code)
        click(carla, "#join-find")
        until(carla, "return !!document.querySelector(\"#join-seats [data-seat='Carla']\")")
        # the question apart from the button above it (it sat tight under it)
        gap = carla.execute_script("""return document.getElementById('join-told')
          .getBoundingClientRect().top - document.getElementById('join-find')
          .getBoundingClientRect().bottom""")
        assert gap >= 8, gap
        click(carla, "#join-seats [data-seat='Carla']")
        click(banker, "[data-approve='Carla']")
        until(carla, "return location.pathname === '/player' && DOC && DOC.player === 'Carla'",
              timeout=15)
        for name, d in phones.items():
            until(d, f"return document.body.dataset.role === 'player' && DOC.player === '{name}'")
            assert "#t=" not in d.current_url
        table = Evening(db, banker, phones, tv)
        # --- the first round: a deed bought by each, an auction -------------------------------
        assert table.roll(2, 4) == "Anna"  # Bastioni Gran Sasso: her turn, on her phone
        table.synced()
        shot(phones["Anna"], os.path.join(out, "phones-evening-player-390.png"), 390, 844)
        table.settle()
        assert table.roll(3, 5) == "Bruno"  # Viale Monterosa
        table.settle()
        assert table.roll(4, 5) == "Carla"  # Viale Vesuvio: she declines, it is auctioned
        table.tap("Carla", "#buy-pad button:not(.go)")
        # Bruno's phone bids for Bruno only; his pad starts with nobody else to choose
        assert phones["Bruno"].execute_script(
            "return [...document.querySelectorAll('#auction-pad [data-bidder]')]"
            ".map(b => b.dataset.bidder)") == ["Bruno"]
        table.tap("Bruno", "#auction-pad [data-step='10']")
        # another's act from Bruno's phone: refused by the server, nothing appended
        before = seq(db)
        phones["Bruno"].execute_script("send('offerta Anna 500', false)")
        until(phones["Bruno"], "return document.body.dataset.lastStatus === '403'")
        assert seq(db) == before
        table.tap("Anna", "#auction-pad [data-step='50']")
        # the banker's pad starts with no bidder chosen; the hammer is his
        assert banker.execute_script("return BIDDER") is None
        table.tap("banker", "#hammer")
        # --- a trade offered from Anna's phone, answered on Bruno's ---------------------------
        table.synced()
        click(phones["Anna"], "#trade-open")
        click(phones["Anna"], "[data-trade-b='Bruno']")
        click(phones["Anna"], "[data-side='b'][data-deed='Viale Monterosa']")
        click(phones["Anna"], "[data-side='a'][data-add='100']")
        before = seq(db)
        click(phones["Anna"], "#trade-send")
        until(phones["Anna"], "return !!document.querySelector('#outbox li.held')")
        assert seq(db) == before  # held for Bruno, not recorded
        until(phones["Bruno"], "return !!document.querySelector(\"[data-answer='accept']\")")
        table.tap("Bruno", "[data-answer='accept']")
        # his outbox says the answer in his words (the trial's "registrato: accept")
        until(phones["Bruno"], "return !!document.querySelector('#outbox li.done')")
        said = phones["Bruno"].find_elements("css selector", "#outbox li.done")[-1].text
        assert said.startswith("registrato: accetta"), said
        # and Anna's line, held for him, follows it: recorded (it stayed "in attesa di Bruno")
        until(phones["Anna"], "return !document.querySelector('#outbox li.held')")
        said = phones["Anna"].find_elements("css selector", "#outbox li.done")[-1].text
        assert said.startswith("registrato: scambia Anna Bruno"), said
        # --- the banker's trade, accepted by Anna, declined by Bruno: each page says it -------
        before = seq(db)
        banker.execute_script("send(arguments[0], undefined, true)", "scambia Anna Bruno --dai 10")
        until(phones["Anna"], "return !!document.querySelector(\"[data-answer='accept']\")")
        click(phones["Anna"], "[data-answer='accept']")
        until(phones["Anna"], "return !!document.querySelector('#outbox li.held')")
        # her answer in her words ("in attesa di Bruno: accept", the trial)
        said = phones["Anna"].find_element("css selector", "#outbox li.held").text
        assert said == "in attesa di Bruno: accetta (non ancora registrato)", said
        # as while it is sent, or sent again: each answer by its button's word
        said = phones["Anna"].execute_script(
            "return ['accept', 'decline'].map(w => lineOf({line: w, answer: w}))")
        assert said == ["accetta", "rifiuta"], said
        until(banker, "return !!document.querySelector('#outbox li.held') && document."
                      "querySelector('#outbox li.held').textContent.startsWith('in attesa di Bruno:')")
        until(phones["Bruno"], "return !!document.querySelector(\"[data-answer='decline']\")")
        click(phones["Bruno"], "[data-answer='decline']")
        for d in (banker, phones["Anna"]):
            until(d, "return !document.querySelector('#outbox li.held')")
        said = phones["Anna"].find_elements("css selector", "#outbox li.closed")[-1].text
        assert said == "rifiutato da Bruno: nulla registrato (accetta)", said
        assert banker.find_element("css selector", "#line-told").text == (
            "rifiutato da Bruno: nulla registrato")
        assert seq(db) == before
        # --- Anna builds on her light blues, then three doubles take her to jail --------------
        table.tap("Anna", "#build-pad button[data-line^='build ']")
        assert table.roll(1, 1) == "Anna"
        table.settle()
        # she rolls again, said as the terminal says it ("tocca ad Anna: tirare i dadi" was a
        # turn's start), and the TV says her roll was doubles
        table.synced(phones["Anna"])
        said = phones["Anna"].find_element("css selector", "#next-b").text
        assert said == "Anna tira di nuovo (doppio): tirare i dadi", said
        until(tv, f"return document.body.dataset.seq == '{seq(db)}'")
        said = tv.find_element("css selector", "#happened .fact").text
        assert said.startswith("Anna ha tirato 1+1 (doppio"), said
        table.roll(2, 2)
        table.settle()
        table.roll(3, 3)  # the third double: to jail
        table.settle()
        assert table.doc()["players"][0]["in_jail"]
        assert table.roll(3, 4) == "Bruno"  # Stazione Ovest
        table.settle()
        table.tap("Bruno", "#mortgage-pad button[data-line^='mortgage ']")
        assert table.roll(1, 3) == "Carla"  # Corso Ateneo
        table.settle()
        # --- Anna pays the fine from her phone, lands on Carla's Corso Ateneo -----------------
        table.tap("Anna", "[data-choice='pay_fine']")
        table.roll(1, 2)
        offline(carla)
        until(carla, "return !!document.getElementById('claim')")
        before = seq(db)
        click(carla, "#claim")  # offline: said at once, not queued
        until(carla, "return !!document.getElementById('claim-told')")
        assert "NON" in carla.find_element("css selector", "#claim-told").text.upper()
        assert seq(db) == before
        offline(carla, False)
        table.tap("Carla", "#claim")  # back: claimed in time
        # a stream gone silent (a Wi-Fi that ends no connection) is noticed and joined again
        carla.execute_script("heard = 0")
        until(carla, "return document.body.dataset.silent === '1'", timeout=10)
        until(carla, "return ONLINE && !!stream", timeout=10)
        # --- Bruno's phone drops as he rolls: sent again with its id, applied once -----------
        bruno = phones["Bruno"]
        offline(bruno)
        before = seq(db)
        click(bruno, "[data-die='0'][data-face='2']")
        click(bruno, "[data-die='1'][data-face='3']")
        click(bruno, "#roll")
        until(bruno, "return !!document.querySelector('#outbox li.pending')")
        offline(bruno, False)
        until(bruno, f"return DOC && DOC.seq > {before}", timeout=20)
        table.settle()
        # Carla's pay-or-draw card, answered by a button
        assert table.roll(1, 3) == "Carla"  # Probabilità
        table.tap("Carla", "#card-pad button[data-line$=' 11']")
        table.tap("Carla", "[data-choice='card_pay']")
        table.settle()
        # --- the rest of the evening: each rolls from his own phone --------------------------
        dice = [(1, 2), (2, 4), (3, 5), (1, 4), (2, 5), (3, 6), (1, 3), (4, 6), (2, 3), (1, 5),
                (4, 5), (2, 6), (3, 4), (1, 6), (3, 5), (2, 4)]
        i = 0
        while len(commands(db)) < 62:
            table.roll(*dice[i % len(dice)])
            table.settle(buy=i % 3 != 2)  # now and then a deed is declined: an auction
            if table.doc()["auction"]:
                table.tap("banker", "#hammer", records=False)  # no bid: his warning first
                click(banker, "#hammer-confirm, [data-hammer-to]")
                until(banker, "return !DOC.auction", timeout=15)
                table.settle()
            i += 1
        # --- nothing applied twice, every act in its player's name -----------------------------
        from click.testing import CliRunner

        from banco.cli.main import cli

        audit = CliRunner().invoke(cli, ["--db", db, "audit"])
        assert audit.exit_code == 0, audit.output
        rows = commands(db)
        ids = [r["command_id"] for r in rows]
        assert len(ids) == len(set(ids)) and len(rows) >= 60
        actors = {r["actor"] for r in rows}
        assert set(PLAYERS) <= actors
        banker_lines = [r["data"]["line"] for r in rows if r["actor"] == "banker"]
        assert all(line.startswith(("new ", "hammer")) for line in banker_lines), banker_lines
        # --- the TV, for a sofa: nothing under 20 px at 1920x1080; still read on a phone ------
        until(tv, f"return document.body.dataset.seq == '{seq(db)}'")
        seen = shot(tv, os.path.join(out, "phones-evening-tv-1920.png"), 1920, 1080)
        assert seen["scroll"] <= 0, seen
        sizes = visible_text_sizes(tv)
        # board names too: the board takes the screen's width (a square one made seven
        # Italian names 13-17 px, the fourth trial)
        assert sizes and min(s for s, _, _ in sizes) >= 20, sorted(sizes)[:5]
        seen = shot(tv, os.path.join(out, "phones-evening-tv-390.png"), 390, 844)
        assert seen["scroll"] <= 0 and seen["small"] == 0, seen
        shot(banker, os.path.join(out, "phones-evening-banker-390.png"), 390, 844)
        # the pages' own words in Italian: no English echo of a line
        text = " ".join(d.find_element("css selector", "body").text for d in drivers)
        for english in ("registrato: decline", "registrato: bid", "annulla `roll",
                        "· classic ·", "recorded:"):
            assert english not in text, english
        words = re.findall(r"\b(roll|buy|decline|bid|hammer|recorded|waiting|banker|player|"
                           r"mortgage|trade|claim|pays?|rent|game|rules|undo|jail)\b", text)
        assert words == [], sorted(set(words))
        no_page_errors(drivers)
