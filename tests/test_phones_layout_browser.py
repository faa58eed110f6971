"""The pages as a family sees them, measured in a real browser (the faults a trial found, in
Italian): the banker's line field's hint is cut nowhere at 390 px; a die's six faces keep one
row; at 1920x1080 the banker's and a player's board is no taller than the window and the pads
are beside it, in view; a token never covers its square's name (one, two on every square, on
the TV and on a phone); a player's mortgage pad goes straight to his own deeds; no text is
under 12 px on any page at 390x844, 1280x800 or 1920x1080 (the board's names were 8 px)."""

from __future__ import annotations

from games import record
from phones_helpers import NOW, served, until

from banco.ledger.store import tokens

# every measure as a box: a text's own rectangles (a Range's), an element's bounding box
MEASURE = """
  const box = e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
  const out = {width: innerWidth, height: innerHeight,
               scroll: document.documentElement.scrollWidth - innerWidth};
  const line = document.getElementById('line');
  if (line && line.offsetParent) {
    const cs = getComputedStyle(line), pen = document.createElement('canvas').getContext('2d');
    pen.font = cs.font;
    out.placeholder = pen.measureText(line.placeholder).width;
    out.field = line.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const hint = document.getElementById('line-hint');
    out.hint = {...box(hint), text: hint.textContent, cut: hint.scrollWidth > hint.clientWidth};
  }
  out.faces = [0, 1].map(d => [...document.querySelectorAll(`[data-die='${d}']`)].map(box));
  out.board = box(document.getElementById('board'));
  const roll = document.getElementById('roll-pad');
  out.roll = roll.offsetParent ? box(roll) : null;
  return out;"""

# squares whose name a token covers: with the table's own tokens, then with one and with two
# players' tokens on every square (as the server would send them)
COVERED = """
  const over = (a, b) => a.left < b.right - .5 && b.left < a.right - .5
                         && a.top < b.bottom - .5 && b.top < a.bottom - .5;
  const covered = () => [...document.querySelectorAll('#board .sq')].filter(sq => {
    const name = [...sq.querySelectorAll('.nm')].find(n => n.offsetParent);
    const range = document.createRange();
    range.selectNodeContents(name);
    const words = [...range.getClientRects()], box = sq.getBoundingClientRect();
    return [...sq.querySelectorAll('.tok')].map(t => t.getBoundingClientRect()).some(t =>
      words.some(w => over(t, w)) || t.bottom > box.bottom + .5 || t.right > box.right + .5);
  }).map(sq => sq.dataset.pos);
  const out = {table: covered()};
  for (const n of [1, 2]) {
    const who = DOC.players.slice(0, n).map(p => ({name: p.name, colour: p.colour}));
    drawBoard({...DOC, board: DOC.board.map(s => ({...s, tokens: who}))});
    fitBoard(true);
    out[n] = covered();
  }
  render(DOC);
  return out;"""


# every text shown smaller than 12 px: its element and size
SMALL = """
  const small = [];
  for (const e of document.querySelectorAll('body *')) {
    if (!e.getClientRects().length) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (own && px < 12) small.push((e.id || e.className || e.tagName) + ' ' + px);
  }
  return small;"""


def size(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    until(driver, f"return innerWidth === {width} && innerHeight === {height}")


def inside(box: dict, seen: dict) -> bool:
    return (box["top"] >= 0 and box["bottom"] <= seen["height"] and box["left"] >= 0
            and box["right"] <= seen["width"])


def test_the_pages_fit_a_phone_and_a_wide_screen_and_tokens_leave_names_seen(tmp_path):
    db = record(str(tmp_path / "game.db"), "classic-4p")  # Anna to roll; she holds deeds
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    anna = tokens.issue(db, "player", 1, NOW, "Anna")[0]
    with served(db, lang="it") as (base, page):
        d = page()  # one browser, page after page: a browser's start is most of the cost
        for path, who in ((f"/banker#t={banker}", "banker"), (f"/player#t={anna}", "player")):
            d.get(base + path)
            until(d, f"return document.body.dataset.role === '{who}' && "
                     "!document.getElementById('roll-pad').hidden")
            size(d, 1280, 800)
            assert d.execute_script(SMALL) == [], who
            size(d, 390, 844)
            assert d.execute_script(SMALL) == [], who
            seen = d.execute_script(MEASURE)
            assert seen["scroll"] <= 0, (who, seen)
            # a die's six faces on one row, each inside the window
            for faces in seen["faces"]:
                assert len(faces) == 6 and len({round(f["top"]) for f in faces}) == 1, (who, faces)
                assert all(inside(f, seen) for f in faces), (who, faces)
            if who == "banker":  # the line field: its hint whole, nothing cut in the field
                assert seen["placeholder"] <= seen["field"], seen
                assert seen["hint"]["text"] and not seen["hint"]["cut"], seen["hint"]
                assert seen["hint"]["left"] >= 0 and seen["hint"]["right"] <= 390, seen["hint"]
            else:  # a token never covers its square's name on a phone
                assert d.execute_script(COVERED) == {"table": [], "1": [], "2": []}
                # Anna's phone acts for Anna: her mortgage pad lists her deeds, no choice of
                # a player
                pad = d.execute_script("""const p = document.getElementById('mortgage-pad');
                  return {chips: p.querySelectorAll('[data-mortgager]').length,
                          label: p.querySelector('.label').textContent,
                          deeds: p.querySelectorAll("[data-line^='mortgage ']").length};""")
                assert pad["chips"] == 0 and pad["deeds"] > 0, pad
                assert "giocatore" not in pad["label"], pad  # not "a player, then a deed"
            # a wide screen: the board no taller than the window, the pads in view beside it
            size(d, 1920, 1080)
            seen = d.execute_script(MEASURE)
            assert seen["scroll"] <= 0, (who, seen)
            assert d.execute_script(SMALL) == [], who
            assert inside(seen["board"], seen), (who, seen["board"])
            assert seen["roll"] and inside(seen["roll"], seen), (who, seen["roll"])
        # the TV: a token never covers its square's name
        d.get(base + "/")
        until(d, "return !!document.body.dataset.seq && document.body.dataset.role === 'viewer'")
        for width, height in ((390, 844), (1280, 800), (1920, 1080)):
            size(d, width, height)
            assert d.execute_script(SMALL) == [], width
        assert d.execute_script(COVERED) == {"table": [], "1": [], "2": []}


# a token of which less than a third is seen: under the tokens after it, or cut by its square
HIDDEN = """
  const hidden = [];
  for (const row of document.querySelectorAll('#board .toks')) {
    const sq = row.closest('.sq').getBoundingClientRect();
    const ks = [...row.children].filter(k => k.classList.contains('tok'));
    ks.forEach((k, i) => {
      const a = k.getBoundingClientRect();
      let left = Math.max(a.left, sq.left), right = Math.min(a.right, sq.right);
      const top = Math.max(a.top, sq.top), bottom = Math.min(a.bottom, sq.bottom);
      for (const over of ks.slice(i + 1)) {  // a later token is drawn over it
        const b = over.getBoundingClientRect();
        if (b.top < bottom && b.bottom > top && b.left < right && b.right > left) right = Math.min(right, b.left);
      }
      if ((right - left) * (bottom - top) < a.width * a.height / 3) hidden.push(k.textContent);
    });
  }
  return hidden;"""


def test_two_tokens_on_a_built_square_are_both_seen_on_a_phone(tmp_path):
    """Bruno and Carla on Viale Vesuvio, a house on it, at 390 px: Carla's token lay wholly
    over Bruno's (the last look at the merged pages, its viewport narrowed by a scrollbar: Bruno
    gone from the board)."""
    import banco

    db = str(tmp_path / "two.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno", "Carla"], now=NOW)
        for line in ("roll 1 2", "buy", "roll 2 3", "buy", "roll 3 3", "buy", "roll 2 1", "buy",
                     "roll 2 3", "buy", "trade Anna Carla --give 'viale monterosa' --get 150",
                     "build azzurro 1", "roll 1 3"):
            assert b.execute(line, game=1).refusal is None, line
    with served(db, lang="it") as (base, page):
        d = page()
        d.get(base + "/")
        until(d, "return document.querySelectorAll('#board .toks .tok').length === 3")
        size(d, 360, 800)  # a common phone's width, narrower than the 390 of the others
        shared = d.execute_script("return [...document.querySelectorAll('#board .toks')]"
                                  ".filter(r => r.querySelectorAll('.tok').length === 2).length")
        assert shared == 1
        assert d.execute_script(HIDDEN) == []
