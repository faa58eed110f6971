"""What a server that cannot be trusted to record says on the pages, and what a player's phone
says during an auction, measured in a real browser (the last look at the pages, in Italian):

- a player's auction hint said "offerta o aggiudica", the banker's command: it says what he can
  do (raise from his phone, or drop out), on his pads and on the board's centre; a bidder who
  leads was offered "+1" against herself (003 §03: a bid raises another's): she waits;
- a server started without the tokens' key said so only in its terminal: the banker's page
  says it at its top, with who checks it (`banco audit`), in a person's words (it carried the
  terminal's backticks and the key's file path), a player's page does not;
- a zero-width space typed into a line was sent and echoed raw: it is refused at once, shown
  as its code, as a Cyrillic look-alike inside a Latin word is on the page's echoes;
- a write refused because the log's chain is broken (code 3) was said as the shell's
  terminal text and nothing else: the page says what happened and who runs `banco audit`,
  switches its pads off and keeps nothing waiting to be sent again."""

from __future__ import annotations

import os
import sqlite3

from forge import drop_triggers
from phones_helpers import NOW, browser, click, served, table, until
from test_phones_console_browser import opened, upto

from banco.ledger.store import tokens


def plain_tokens(db: str) -> dict:
    """The banker's, Bruno's and Dario's tokens, written as a banco from before the tokens' key did:
    hashed plain, no key beside the file (the server then cannot check its history)."""
    conn = sqlite3.connect(db, isolation_level=None)
    for sql in tokens.DDL:
        conn.execute(sql)
    secrets, prev = {}, tokens.GENESIS
    for id_, role, player in ((1, "banker", None), (2, "player", "Bruno"), (3, "player", "Dario")):
        secrets[player or role] = secret = f"bt_{(player or role).lower():x<32}"
        fields = ("issue", tokens.digest(secret), secret[3:11], role, player, 1, NOW)
        prev_, prev = prev, tokens.entry_hash(prev, id_, *fields)
        conn.execute(f"INSERT INTO tokens ({tokens.COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                     (id_, *fields, prev_, prev))
    conn.close()
    return secrets


def break_chain(db: str) -> None:
    """Anna's starting cash made 9943 (event 3), its hash left as it was."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '1500', '9943') WHERE seq=3")
    conn.commit()
    conn.close()


SAID = """const text = id => { const e = document.getElementById(id);
    return e && !e.hidden ? e.textContent.replace(/\u00a0/g, ' ') : null; };
  return {next: text('next-b'), centre: text('next'), unkeyed: text('unkeyed'),
          broken: text('broken')}"""


def test_a_phone_says_its_auction_and_a_server_that_cannot_record_says_so(tmp_path):
    out = os.environ.get("BANCO_SCREENSHOTS")
    db = upto(tmp_path, "classic-4p", "bid Dario 10")  # Dario leads Vicolo Corto, 10 M
    keys = plain_tokens(db)
    d = browser((390, 844))
    try:
        with served(db, lang="it") as (base, _):
            # who leads has nothing to raise (003 §03: a bid raises another's): he waits
            opened(d, f"{base}/player#t={keys['Dario']}", "player", db)
            pad = d.execute_script("""return {steps: document.querySelectorAll(
              '#auction-pad [data-step]').length, lead: (document.getElementById('auction-lead')
              || {}).textContent}""")
            assert pad["steps"] == 0, pad
            assert "10 M" in pad["lead"] and "003 §03" in pad["lead"], pad
            assert "la tua offerta di 10 M" in d.execute_script(SAID)["next"]
            # another's phone raises him: her steps from his bid
            opened(d, f"{base}/player#t={keys['Bruno']}", "player", db)
            steps = d.execute_script("""return [...document.querySelectorAll(
              '#auction-pad [data-step]')].map(b => b.dataset.line)""")
            assert steps[0] == "bid Bruno 11", steps
            said = d.execute_script(SAID)
            for where in ("next", "centre"):  # his words, not the banker's `aggiudica`
                assert "aggiudica" not in said[where] and "Rilancia" in said[where], said
                assert "Dario è in testa con 10 M" in said[where], said
            assert said["unkeyed"] is None, said  # the key is the banker's business
            # Italian's euphonic d, as the server says it: "CHIEDI 28 M a Anna" was
            assert d.execute_script("""return [say('claim_now', {amount: '28 M', payer: 'Anna'}),
              say('rent_due', {owner: 'Bruno', payer: 'Elena', amount: '4 M'}),
              say('claim_now', {amount: '28 M', payer: 'Elena'})]""") == [
                "CHIEDI 28 M ad Anna", "Bruno può chiedere 4 M a Elena", "CHIEDI 28 M a Elena"]
            # an amount on one line in the big step (the TV broke "80 M" as "80" and "M")
            assert d.execute_script("return nextText({next: 'con 80 M e 20.000 £; M Anna'})") == (
                "con 80\u00a0M e 20.000\u00a0£; M Anna")
            if out:
                d.save_screenshot(os.path.join(out, "notices-auction-it-player-390.png"))
            opened(d, f"{base}/banker#t={keys['banker']}", "banker", db)
            until(d, "return !document.getElementById('unkeyed').hidden")
            # the banker's pad bids for the others: Dario's name is off
            off = d.execute_script("""return [...document.querySelectorAll('[data-bidder]')]
              .filter(b => b.disabled).map(b => b.dataset.bidder)""")
            assert off == ["Dario"], off
            said = d.execute_script(SAID)
            assert said["unkeyed"].startswith("Questo server non ha la chiave"), said
            assert "«banco verifica»" in said["unkeyed"] and "arbitro" in said["unkeyed"], said
            # a person's words only: the terminal's (backticks, the key's file path) stay there
            assert "`" not in said["unkeyed"] and "token-key" not in said["unkeyed"], said
            me = d.execute_async_script("""const done = arguments[0];
              fetch('/api/me', {headers: {Authorization: 'Bearer ' + localStorage.getItem(
                'banco.token')}}).then(r => r.json()).then(done)""")
            assert me["notices"] and not any("`" in n for n in me["notices"]), me
            assert said["broken"] is None, said
            if out:
                d.save_screenshot(os.path.join(out, "notices-unkeyed-it-banker-390.png"))
            before = table(db).seq
            # a zero-width space typed (pasted) into a line: refused at once, shown visibly,
            # nothing sent; the page's echoes show it and a Cyrillic look-alike in a Latin word
            # as their codes (a Russian name's own letters stay)
            d.find_element("css selector", "#line").send_keys("paga An\u200bna\n")
            until(d, "return !document.getElementById('line-told').hidden")
            told = d.find_element("css selector", "#line-told").text
            assert told.startswith("non inviata") and "(U+200B)" in told, told
            assert "An\\u200bna" in told and "\u200b" not in told, told
            assert d.execute_script("return document.querySelectorAll('#outbox li').length") == 0
            assert d.execute_script("return ['An\u200bna', '\u0410nna', '\u041e\u043b\u0435"
                                    "\u0433'].map(visible)") == [
                "An\\u200bna", "\\u0410nna", "\u041e\u043b\u0435\u0433"]
            break_chain(db)
            d.execute_script("document.getElementById('auction-pad').scrollIntoView()")
            click(d, "[data-bidder='Bruno']")
            click(d, "[data-step='10']")
            until(d, "return document.body.dataset.broken !== undefined")
            seen = d.execute_script("""return {broken: document.getElementById('broken')
                .firstChild.textContent, detail: document.querySelector('#broken .detail')
                .textContent, status: document.body.dataset.lastStatus,
              pending: JSON.parse(localStorage.getItem('banco.outbox')).length
                + document.querySelectorAll('#outbox li.pending').length,
              refused: [...document.querySelectorAll('#outbox li.refused')].map(l => l.textContent),
              live: [...document.querySelectorAll('#pads button, #pads input')]
                .filter(e => e.offsetParent && !e.disabled).map(e => e.textContent)}""")
            if out:
                d.execute_script("scrollTo(0, 0)")
                d.save_screenshot(os.path.join(out, "notices-broken-it-banker-390.png"))
            assert table(db).seq == before  # nothing recorded
            assert seen["status"] == "423", seen  # locked, not a server's fault (500)
            assert seen["broken"].startswith("Il registro della partita è danneggiato"), seen
            assert "«banco verifica»" in seen["broken"] and "banchiere" in seen["broken"], seen
            assert "event 3" in seen["detail"] or "evento 3" in seen["detail"], seen
            assert seen["pending"] == 0 and seen["live"] == [], seen  # never sent again
            assert seen["refused"] == ["rifiutato: registro della partita danneggiato: "
                                       "nulla registrato"], seen
    finally:
        d.quit()
