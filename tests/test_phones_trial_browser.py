"""What a family met on the phones' evening (the trial after issue 34), in a real browser: a
bidder kept out of a re-run auction is offered no bid pad; the TV's centre keeps its heading
and its join line inside the board at 1920x1080 and 390x844 during a long Italian auction, and
its names break between words only; the set-up offers no phone for a bankrupt player."""

from __future__ import annotations

import os

from click.testing import CliRunner
from phones_helpers import NOW, served, shot, until
from phones_tables import before_time_up

from banco.cli.main import cli
from banco.ledger.store import tokens

# each element of the TV's centre inside the centre's box; each word of a board name on one
# line (a Range over a word broken by a hyphen or mid-word has two rectangles)
LAYOUT = """
  const c = document.getElementById('centre').getBoundingClientRect();
  const out = [...document.getElementById('centre').children].filter(e => e.offsetParent
    && e.textContent.trim()).map(e => [e.id, e.getBoundingClientRect()])
    .filter(([, r]) => r.top < c.top - 1 || r.bottom > c.bottom + 1).map(([id]) => id);
  const broken = [];
  for (const e of document.querySelectorAll('#board .nm')) {
    if (!e.offsetParent) continue;
    const text = e.firstChild;
    if (e.scrollWidth > e.clientWidth) broken.push(e.textContent + ' (clipped)');
    for (const m of text.textContent.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
      if (r.getClientRects().length > 1) broken.push(m[0]);
    }
  }
  return {out, broken, heading: document.getElementById('heading').textContent};"""


def test_an_excluded_bidder_has_no_pad_and_the_tv_keeps_its_centre_whole(tmp_path):
    db = str(tmp_path / "auction.db")
    runner = CliRunner()
    for line in ("new Anna Bruno Carla Dario --rules championship --edition it", "roll 1 2",
                 "decline", "bid Anna 5000", "hammer"):  # Anna cannot pay: a new auction
        assert runner.invoke(cli, ["--db", db, *line.split()]).exit_code == 0, line
    anna = tokens.issue(db, "player", 1, NOW, "Anna")[0]
    bruno = tokens.issue(db, "player", 1, NOW, "Bruno")[0]
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    out = os.environ.get("BANCO_SCREENSHOTS") or str(tmp_path)
    with served(db, lang="it") as (base, page):
        for name, secret in (("anna", anna), ("bruno", bruno), ("banker", banker)):
            d = page()
            d.get(f"{base}/{'banker' if name == 'banker' else 'player'}#t={secret}")
            until(d, "return document.body.dataset.role !== 'viewer' && "
                     "!!document.body.dataset.seq")
            bidders = d.execute_script("""return document.getElementById('auction-pad').hidden
              ? null : [...document.querySelectorAll('[data-bidder]')].map(b => b.textContent)""")
            expected = {"anna": None, "bruno": ["Bruno"], "banker": ["Bruno", "Carla", "Dario"]}
            assert bidders == expected[name], (name, bidders)
        tv = page((1920, 1080))
        tv.get(base + "/")
        until(tv, "return document.getElementById('joinline').textContent !== ''")
        for width, height in ((1920, 1080), (390, 844)):
            seen = shot(tv, os.path.join(out, f"trial-tv-{width}.png"), width, height)
            assert seen["scroll"] <= 0, seen
            layout = tv.execute_script(LAYOUT)
            assert layout["out"] == [] and layout["broken"] == [], (width, layout)


def test_the_set_up_offers_no_phone_for_a_bankrupt_player(tmp_path):
    db = before_time_up(tmp_path)
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    with served(db) as (base, page):
        b = page()
        b.get(f"{base}/banker#t={banker}")
        until(b, "return !!document.getElementById('setup-toggle')")
        b.execute_script("document.getElementById('setup-toggle').click()")
        until(b, "return document.querySelectorAll('.seat-row').length === 4")
        pairs = b.execute_script("""return [...document.querySelectorAll('.seat-row')].map(r =>
          [r.dataset.seat, !!r.querySelector('[data-pair]')])""")
        assert pairs == [["Anna", True], ["Bruno", True], ["Carla", True], ["Dario", False]]
