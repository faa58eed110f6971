"""Crowded squares, in a real browser (the trial of issue 34's evening): four to six players
on one square at 390x844, 1280x720 and 1920x1080.  Each token drawn lies inside its square,
over no other token and not over the square's name; a crowd the square cannot hold shows a
count of the rest ("+3"), so every player is drawn or counted."""

from __future__ import annotations

import os

from phones_helpers import NOW, served, until

import banco

# every square given the first n players (as the server would send them), fitted, measured:
# the squares where a token leaves its square, lies over another or over the name, or where
# the tokens drawn and counted are not n
CROWD = """
  const over = (a, b) => a.left < b.right - .5 && b.left < a.right - .5
                         && a.top < b.bottom - .5 && b.top < a.bottom - .5;
  const faults = {}, counted = {};
  for (const n of [4, 5, 6]) {
    const who = DOC.players.slice(0, n).map(p => ({name: p.name, colour: p.colour}));
    drawBoard({...DOC, board: DOC.board.map(s => ({...s, tokens: who}))});
    fitBoard(true);
    for (const sq of document.querySelectorAll('#board .sq')) {
      const box = sq.getBoundingClientRect();
      const name = [...sq.querySelectorAll('.nm')].find(e => e.offsetParent);
      // the name's own box: its glyphs' boxes pass it by a pixel at a line-height of 1.05
      const named = name.getBoundingClientRect();
      const shown = [...sq.querySelectorAll('.tok')].filter(k => k.offsetParent);
      const boxes = shown.map(k => k.getBoundingClientRect());
      const more = sq.querySelector('.tok.more');
      const total = shown.length - (more ? 1 : 0) + (more ? Number(more.textContent.slice(1)) : 0);
      const bad = boxes.some((r, i) => r.left < box.left - .5 || r.right > box.right + .5
          || r.top < box.top - .5 || r.bottom > box.bottom + .5
          || over(r, named) || boxes.slice(i + 1).some(o => over(r, o)))
        || total !== n;
      if (bad) (faults[n] = faults[n] || []).push(sq.dataset.pos);
      if (more) counted[n] = (counted[n] || 0) + 1;
    }
  }
  render(DOC);
  return {faults, counted};"""


def size(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    until(driver, f"return innerWidth === {width} && innerHeight === {height}")


def test_a_crowd_on_one_square_is_drawn_apart_inside_it_or_counted(tmp_path):
    db = str(tmp_path / "crowd.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"], now=NOW)
    out = os.environ.get("BANCO_SCREENSHOTS")
    with served(db, lang="it") as (base, page):
        d = page()
        d.get(base + "/")
        until(d, "return !!document.body.dataset.seq && document.body.dataset.role === 'viewer'")
        for width, height in ((390, 844), (1280, 720), (1920, 1080)):
            size(d, width, height)
            seen = d.execute_script(CROWD)
            assert seen["faults"] == {}, (width, seen)
            if out:  # the six on Via! as a family sees them (the final screenshots)
                d.save_screenshot(os.path.join(out, f"pages2-crowd-it-{width}.png"))
