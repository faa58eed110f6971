"use strict";
// The board's fitting for banco serve's page (loaded before app.js, which calls fitBoard):
// each square's name, its tokens and the centre's words fitted to the size the page is shown
// at, no text under 12 px.
// a board name breaks between words only (hyphens:auto, with no dictionary, broke
// "Stazion/e Nord"): a word wider than its square makes that name smaller, down to 12 px
// (labels were 8 px at 1280x800), then the word is cut ("Patrimon."; the square's title says
// it whole); found once a name, width and size
const FITTED = new Map();
// the TV is read from the sofa: its names never under what it promises (20 px at 1920x1080,
// its share of a smaller screen: docs/phones-api.md), then cut (12 px read as a blur there)
const least = () => document.body.dataset.role === "viewer" && TV.matches ? 20 * tvScale() : 12;
const PEN = document.createElement("canvas").getContext("2d");
const STRETCH = {"62.5%": "extra-condensed", "75%": "condensed", "87.5%": "semi-condensed"};
function fitLabels(reset) {
  const labels = [...document.querySelectorAll("#board .nm")].filter(e => e.offsetParent);
  labels.forEach(e => { if (e.dataset.full === undefined) e.dataset.full = e.textContent; });
  if (reset) labels.forEach(e => { e.style.fontSize = ""; e.textContent = e.dataset.full; });
  // every name's square and size read before any is changed: one layout, not one a name
  const keyed = labels.map(e => {
    const cs = getComputedStyle(e);
    return [e, [e.dataset.full, e.clientWidth, cs.fontSize, least()].join("|"), cs];
  });
  for (const [e, key, cs] of keyed) {
    if (FITTED.has(key)) continue;
    let size = parseFloat(cs.fontSize);
    const room = e.clientWidth - .5;  // a fraction over still ends in an ellipsis
    const wide = s => {
      PEN.font = `${cs.fontStyle} ${cs.fontWeight} ${s}px ${cs.fontFamily}`;
      PEN.fontStretch = STRETCH[cs.fontStretch] || "normal";  // the TV's condensed names
      const spacing = (parseFloat(cs.letterSpacing) || 0) * s / size;
      return w => PEN.measureText(w).width + spacing * w.length;
    };
    const words = e.dataset.full.split(/\s+/);
    let width = wide(size);
    const widest = () => Math.max(...words.map(width));
    if (widest() > room) {
      size = Math.max(least(), Math.floor(size * room / widest()));
      width = wide(size);
    }
    // still too wide at 12 px: the word cut, a long name's with a dot, a short label bare
    const dot = e.classList.contains("long") ? "." : "";
    const cut = words.map(w => {
      let k = w.length;
      while (k > 1 && width(k < w.length ? w.slice(0, k) + dot : w) > room) k--;
      return k < w.length ? w.slice(0, k) + dot : w;
    });
    FITTED.set(key, [size, cut.join(" ")]);
  }
  for (const [e, key] of keyed) {
    const [size, text] = FITTED.get(key);
    e.style.fontSize = size + "px";
    if (e.textContent !== text) e.textContent = text;
  }
}
// the centre's words shrink together until they fit its box: a long auction sentence in
// Italian pushed the heading and the join line out of it on the TV
function fitCentre() {
  const c = document.getElementById("centre");
  let fit = 1;
  c.style.setProperty("--fit", "1");
  while (c.scrollHeight > c.clientHeight + 1 && fit > 0.4) c.style.setProperty("--fit", (fit -= 0.05).toFixed(2));
}
// a square's tokens on lines under its name, from the right, none over another (stacked, they
// hid one another: "B C Da" on Via! at 390 px, the trial); a name that leaves them no room is
// made smaller, down to 12 px, else the square shows its short label (its title says the name
// whole).  A crowd the square still cannot hold shows the tokens that fit and a count of the
// rest ("+3", its title naming them): a token is never under 12 px, and six do not fit a
// phone's square at that size (the players' list says where each one stands)
function fitSquares() {
  document.querySelectorAll("#board .sq.tight").forEach(s => s.classList.remove("tight"));
  document.querySelectorAll("#board .toks .more").forEach(m => m.remove());
  document.querySelectorAll("#board .toks .tok[hidden]").forEach(k => { k.hidden = false; });
  const rows = [...document.querySelectorAll("#board .toks")].filter(t => t.offsetParent);
  for (const t of rows) {
    const sq = t.closest(".sq"), name = sq.querySelector(".nm.long");
    // a token past the square's edge, either way (a row from the right overflows to the
    // left, which scrollWidth does not count), or the square's content taller than it
    const out = () => {
      const box = sq.getBoundingClientRect();
      return sq.scrollHeight > sq.clientHeight + 1 || [...t.children].filter(k => !k.hidden)
        .map(k => k.getBoundingClientRect()).some(r => r.left < box.left - .5
          || r.right > box.right + .5 || r.bottom > box.bottom + .5);
    };
    if (name && name.offsetParent) {
      let size = parseFloat(getComputedStyle(name).fontSize);
      // never under the least size: a step of 1 px from 12.12 px made 11.12 (1920x1080)
      while (out() && size > least()) name.style.fontSize = (size = Math.max(least(), size - 1)) + "px";
      if (out()) sq.classList.add("tight");
    }
    if (!out()) continue;
    const toks = [...t.children], more = document.createElement("span");
    more.className = "tok more";
    t.append(more);
    for (let shown = toks.length - 2; shown >= 0; shown--) {
      toks.forEach((k, i) => { k.hidden = i >= shown; });
      more.textContent = "+" + (toks.length - shown);
      more.title = toks.slice(shown).map(k => k.title).join(", ");
      if (!out()) break;
    }
  }
}
