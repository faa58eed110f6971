"use strict";
// banco serve's page: the TV's screen, the banker's console, a player's phone.  The server
// decides who may do what; this page only draws the table and sends lines.  Every text goes
// in through textContent (never innerHTML), and the token travels in a header only.
const W = JSON.parse(document.getElementById("words").textContent);
const LANG = document.documentElement.lang;
const DIE = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
const KEY = "banco.token", OUTBOX = "banco.outbox";

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "style") for (const [p, x] of Object.entries(v)) e.style.setProperty(p, x);
    else if (k === "onclick") e.addEventListener("click", v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}
function button(text, line, cls, attrs) {
  return el("button", {type: "button", class: cls || "", "data-line": line || "", ...(attrs || {}),
                       onclick: () => line && send(line)}, text);
}

// --- the token: from the pairing link's fragment (never sent to the server), then kept ----
let TOKEN = null;
(function pair() {
  const m = location.hash.match(/^#t=([A-Za-z0-9_-]+)$/);
  if (m) {
    TOKEN = m[1];
    localStorage.setItem(KEY, TOKEN);
    history.replaceState(null, "", location.pathname);  // out of the address bar and history
  } else if (location.pathname !== "/") {
    TOKEN = localStorage.getItem(KEY);
  }
})();
function headers(extra) {
  const h = {"Accept-Language": LANG, ...(extra || {})};
  if (TOKEN) h.Authorization = "Bearer " + TOKEN;
  return h;
}

// --- the board and the lists, as every page shows them ------------------------------------
function cell(p) {  // the grid cell of a board position: Via! bottom right, then clockwise
  if (p <= 10) return [11, 11 - p];
  if (p <= 20) return [21 - p, 1];
  if (p <= 30) return [1, p - 19];
  return [p - 29, 11];
}
function short(name) {  // a phone's label: the name's last word, four letters
  const words = name.split(/\s+/).filter(w => w.length > 1 || /\w/.test(w));
  const w = words.length ? words[words.length - 1] : name;
  return w.length <= 4 ? w : w.slice(0, 4);
}
// a token's label: the shortest start of the name that no other player's name begins with
// (Anna and Andrea are "Ann" and "And", not two "A"s told apart by colour only), two letters
// at least, four at most (then the initials of its words: "Maria Rossi" is "MR")
let LABELS = {};
function tokenLabels(names) {
  const low = names.map(n => n.toLowerCase());
  LABELS = {};
  names.forEach((n, i) => {
    const others = low.filter((_, j) => j !== i);
    let label = null;
    for (let k = Math.min(2, n.length); k <= Math.min(4, n.length) && !label; k++)
      if (!others.some(o => o.startsWith(low[i].slice(0, k)))) label = n.slice(0, k);
    LABELS[n] = label || n.split(/\s+/).map(w => w[0]).join("").slice(0, 4);
  });
}
function token(t) {
  return el("span", {class: "tok", title: t.name, style: {background: t.colour}},
            LABELS[t.name] || t.name.slice(0, 2));
}
function drawBoard(doc) {
  const board = document.getElementById("board");
  board.querySelectorAll(".sq").forEach(n => n.remove());
  tokenLabels(doc.players.map(p => p.name));
  // the two jail corners both read "Prig": the one that sends there says so with an arrow
  const jail = doc.board.find(s => s.kind === "jail");
  for (const s of doc.board) {
    const [r, c] = cell(s.position);
    const cls = ["sq"];
    if (s.owner) cls.push("owned");
    if (s.mortgaged) cls.push("mortgaged");
    const sq = el("div", {class: cls.join(" "), "data-pos": s.position,
                          style: {"grid-row": r, "grid-column": c,
                                  "--owner": s.owner_colour || "transparent"},
                          title: s.owner ? s.name + " \u2013 " + s.owner : s.name});
    if (s.band) sq.append(el("div", {class: "band", style: {background: s.band}}));
    const label = s.kind === "go_to_jail" && jail ? "\u2192" + short(jail.name) : short(s.name);
    sq.append(el("div", {class: "nm long"}, s.name), el("div", {class: "nm short"}, label));
    const bld = el("div", {class: "bld"});
    if (s.hotel) bld.append(el("span", {class: "hotel"}));
    for (let i = 0; i < s.houses; i++) bld.append(el("span", {class: "house"}));
    sq.append(el("div", {class: "foot"}, bld, s.tokens.length ? el("div", {class: "toks"}, ...s.tokens.map(token)) : null));
    board.append(sq);
  }
}
function drawPlayers(doc) {
  const note = document.getElementById("cashnote");
  note.hidden = doc.cash_shown;
  note.textContent = doc.cash_shown ? "" : say("cash_hidden", {rule: doc.cash_rule || ""});
  document.getElementById("players").replaceChildren(...doc.players.map(p => {
    const cls = ["player"];
    if (p.turn) cls.push("turn");
    if (p.bankrupt) cls.push("out");
    const tags = [];
    if (p.in_jail) tags.push(el("span", {class: "tag"}, W.in_jail));
    if (p.bankrupt) tags.push(el("span", {class: "tag"}, W.bankrupt));
    const deeds = p.deeds.length ? p.deeds.map(d => el("span", {
      class: "deed" + (d.mortgaged ? " m" : ""), style: {"--g": d.colour},
      title: d.mortgaged ? W.mortgaged : ""},
      d.name + (d.hotel ? " \u25A0" : d.houses ? " " + "\u25AA".repeat(d.houses) : "")))
      : [el("span", {class: "muted"}, W.no_deeds)];
    return el("div", {class: cls.join(" "), "data-player": p.name, style: {"--c": p.colour}},
      el("div", {class: "top"},
         el("span", {}, el("span", {class: "name"}, p.name), ...tags),
         el("span", {class: "cash", title: W.cash}, p.cash_text === null ? "\u2022\u2022\u2022" : p.cash_text)),
      el("div", {class: "muted"}, p.space,
         // the count on its words' line ("1" alone under them in the 360 px column)
         p.jail_cards ? " \u00B7 " + say("jail_cards", {n: p.jail_cards}).replace(/ (?=\S+$)/, "\u00a0") : ""),
      el("div", {class: "deeds"}, ...deeds),
      // the TV's crowded centre shows these instead (tv.js's fitAside)
      el("div", {class: "swatches"}, ...p.deeds.map(d => el("span", {
        class: "sw" + (d.mortgaged ? " m" : ""), style: {"--g": d.colour}, title: d.name}))));
  }));
}
function debtText(d) {  // the Bank's account is "bank": said as the Bank, in the reader's words
  return say(d.creditor === "bank" ? "debt_bank" : "debt",
             {debtor: d.debtor, creditor: d.creditor, amount: d.amount_text});
}
function claimText(c) {
  return c.after_turn_of ? say("after_turn", {name: c.after_turn_of}) : say("until", {name: c.until});
}
// a line breaks between its words, never at a word's hyphen: "--" was left at a line's end at
// 390 px, "arbitro" under it
function unbroken(line) {
  return line.split(" ").flatMap((w, i) => [...(i ? [" "] : []),
    w.includes("-") ? el("span", {class: "nobr"}, w) : w]);
}
function drawLists(doc) {
  document.getElementById("claims").replaceChildren(...(doc.claims.length ? doc.claims.map(c =>
      el("li", {}, say("claim", {owner: c.owner, amount: c.amount_text, payer: c.payer,
                                 property: c.property}), " ", el("span", {class: "until"}, claimText(c))))
    : [el("li", {class: "muted none"}, W.no_claims)]));
  document.getElementById("debts-s").hidden = !doc.debts.length;
  document.getElementById("debts").replaceChildren(...doc.debts.map(d => el("li", {}, debtText(d))));
  document.getElementById("commands").replaceChildren(...doc.commands.map(c => el("li",
    c.undone ? {class: "undone", title: W.undone} : {},
    el("span", {class: "seq"}, "#" + c.seq), ...(c.line === null ? [W.no_line] : unbroken(c.line)))));
}
function drawCentre(doc) {
  document.getElementById("heading").textContent = doc.edition;
  document.getElementById("next").textContent = nextText(doc);
  document.getElementById("dice").textContent = doc.turn.dice.filter(d => d >= 1 && d <= 6)
    .map(d => DIE[d]).join(" ");
  // the auction and who leads are the step's words above, on every page (cli/web/steps.py,
  // choices.py's auction_next): a box under them said it again
  document.getElementById("meta").textContent =
    say("game", {game: doc.game}) + " \u00B7 " + (doc.rules_text || doc.rules) + " \u00B7 " + say("event", {seq: doc.seq});
  // what just happened, for a room three metres away: the move, the rent due and to whom, a
  // debt (the dice and the auction are drawn above)
  const last = doc.claims[doc.claims.length - 1];
  document.getElementById("happened").replaceChildren(
    ...(doc.happened || []).map(t => el("div", {class: "fact"}, whole(t))),
    ...(last ? [el("div", {class: "rent"}, say("rent_due", {owner: last.owner, payer: last.payer, amount: last.amount_text}))] : []),
    ...doc.debts.map(d => el("div", {class: "owed"}, debtText(d))));
}

// --- the pads ------------------------------------------------------------------------------
let DOC = null, DICE = [], BIDDER = null, AUCTION = null;
const SPEEDY = ["1", "2", "3", "bus", "mr"];
function pad(id, show, ...kids) {
  const box = document.getElementById(id);
  box.hidden = !show;
  box.replaceChildren(...(show ? kids : []));
}
function drawRoll(doc) {
  const faces = doc.speedy ? 3 : 2;
  const rows = [];
  for (let d = 0; d < faces; d++) {
    const values = d < 2 ? ["1", "2", "3", "4", "5", "6"] : SPEEDY;
    rows.push(el("span", {class: "label"}, d < 2 ? say("die", {n: d + 1}) : W.speedy),
      ...values.map(v => el("button", {type: "button", class: DICE[d] === v ? "on" : "",
        "data-die": d, "data-face": v, onclick: () => { DICE[d] = v; drawPads(DOC); }},
        d < 2 ? DIE[+v] + " " + v : v)));
  }
  const ready = DICE.slice(0, faces).filter(Boolean).length === faces;
  const line = "roll " + DICE.slice(0, faces).join(" ");
  const go = button(W.roll + (ready ? " " + DICE.slice(0, faces).join(" ") : ""), ready ? line : "",
                    "go", {id: "roll"});
  go.disabled = !ready;
  go.addEventListener("click", () => { DICE = []; });
  // a die's faces share one row (style.css), the roll button under them: at 390 px the
  // sixth face wrapped to a line of its own
  return [...rows, el("span", {class: "break"}), go];
}
function drawPads(doc) { padsOf(doc); switchedOff(); }
function padsOf(doc) {
  const role = doc.role;
  document.getElementById("pads").hidden = role === "viewer";
  document.body.dataset.role = role;
  const who = document.getElementById("who");
  who.hidden = role === "viewer";
  who.textContent = role === "player" ? say("as_player", {name: doc.player}) : W["as_" + role] || "";
  // a player's phone: his CLAIM while he may claim, and the trades offered to him
  const mine = role === "player" ? doc.claims.filter(c => c.owner === doc.player) : [];
  // a CLAIM on a phone that has lost the table is not queued (the rules would refuse it
  // late, as evidence against her): the button says at once it was not sent (claimPad)
  pad("claim-pad", mine.length > 0 || !!CLAIM_TOLD, ...claimPad(doc, mine));
  drawOffers(doc);
  const banker = role === "banker";
  // a player with a paired phone records his own acts (the server checks each is his);
  // `serve --banker-only` leaves him his claims and his answers to trades
  const acts = banker || (role === "player" && doc.acts !== false);
  const turn = banker || doc.turn.player === doc.player;
  document.getElementById("banker-pad").hidden = !acts;
  // the line field: the banker's table actions, the referee's rulings and corrections (the
  // server takes from each only its own words)
  document.getElementById("line-pad").hidden = !(banker || role === "referee");
  // the hint above the field, where it wraps: as a placeholder it was cut at 390 px
  document.getElementById("line-hint").textContent = role === "referee" ? W.line_referee : W.line;
  if (!acts) return;
  document.getElementById("next-b").textContent = nextText(doc);
  const phase = doc.turn.phase, debts = doc.debts.length > 0, over = doc.ended;
  pad("roll-pad", turn && !over && !debts && (phase === "roll" || phase === "throw"), ...drawRoll(doc));
  const offered = doc.board.find(s => s.position === (doc.players.find(p => p.turn) || {}).position);
  pad("buy-pad", turn && phase === "buy", button(say("buy", {property: offered ? offered.name : ""}), "buy", "go"),
      button(W.decline, "decline", ""));
  // the jail's choices and a pay-or-draw card's: buttons, not words to type
  pad("choice-pad", (doc.choices || []).length > 0, ...(doc.choices || []).map(c =>
    button(say("choice_" + c.choice, {name: c.player, amount: c.amount || ""}), c.line,
           c.choice === "pay_fine" || c.choice === "card_pay" ? "go" : "", {"data-choice": c.choice})));
  const a = doc.auction;
  // a new auction starts with no bidder chosen, and a bid sent leaves none chosen: one tap
  // never bids for someone who did not
  const lot = a ? [a.property, a.kind, a.min_bid].join("/") : null;
  if (lot !== AUCTION) { AUCTION = lot; BIDDER = null; }
  if (a && !banker) BIDDER = doc.player;  // a phone bids for its own player only
  // a winner who could not pay is kept out of the re-run auction (000 FAQ 22): no pad offers
  // him a bid the rules refuse
  const out = a ? a.excluded || [] : [];
  if (a && (banker || !out.includes(doc.player))) {
    const bidders = (banker ? doc.players.filter(p => !p.bankrupt).map(p => p.name) : [doc.player])
      .filter(n => !out.includes(n));
    // who leads has nothing to raise: a bid raises another's (003 §03: the banker closes
    // the auction when no one will raise), and no rule lets a bid be taken back; her phone
    // says she waits, the banker's pad bids for the others only
    const leads = a.high_bidder;
    if (!bidders.includes(BIDDER) || (banker && BIDDER === leads)) BIDDER = null;
    if (!banker && leads === doc.player) {
      pad("auction-pad", true, el("span", {class: "label"}, W.bid), el("div", {class: "warning",
        id: "auction-lead"}, say("you_lead", {amount: a.high_bid_text, rule: a.rule || ""})));
      return drawRest(doc, banker);
    }
    const base = a.high_bidder ? a.high_bid : a.min_bid - 1;
    pad("auction-pad", true, el("span", {class: "label"}, W.bid),
      ...bidders.map(n => {
        const chosen = el("button", {type: "button", class: BIDDER === n ? "on" : "",
          "data-bidder": n, onclick: () => { BIDDER = n; drawPads(DOC); }}, n);
        if (n === leads) { chosen.disabled = true; chosen.title = say("leads", {name: n}); }
        return chosen;
      }),
      el("span", {class: "label"}),
      ...[1, 10, 50, 100].map(step => {
        const b = button("+" + step + " \u2192 " + (base + step), BIDDER ? `bid ${q(BIDDER)} ${base + step}` : "",
                         "", {"data-step": step});
        b.disabled = !BIDDER;
        if (banker) b.addEventListener("click", () => { BIDDER = null; drawPads(DOC); });
        return b;
      }),
      ...(banker ? hammerPad(doc) : []));
  } else { pad("auction-pad", false); WARNED = false; }
  drawRest(doc, banker);
}
function drawRest(doc, banker) {  // the pads under the auction's
  const cards = doc.cards;
  pad("card-pad", !!cards, ...(cards ? [el("span", {class: "label"}, W.draw + ": " + cards.title),
    ...cards.cards.map(c => button(c.number + ". " + c.text, `card ${cards.deck} ${c.number}`,
                                   "card" + (c.number === cards.next ? " known" : "")))] : []));
  // each debtor is offered the one line that can work: pay with the cash in hand, bankrupt
  // when all he could raise falls short, else what he lacks (the estate pads raise it)
  pad("debt-pad", (doc.debt_pad || []).length > 0, ...(doc.debt_pad || []).map(d => d.choice === "pay"
    ? button(say("pay", {name: d.debtor}), "pay " + q(d.debtor), "go")
    : d.choice === "bankrupt"  // out of the game: said, then confirmed
      ? confirmed(say("go_bankrupt", {name: d.debtor}), "bankrupt " + q(d.debtor), {"data-bankrupt": d.debtor})
      : el("div", {class: "warning", "data-raise": d.debtor},
           say("must_raise", {name: d.debtor, amount: d.raise_text, rule: d.rule}))));
  const owners = banker ? [...new Set(doc.claims.map(c => c.owner))] : [];
  pad("claims-pad", owners.length > 0, ...owners.map(n => button(say("claim_for", {owner: n}),
                                                                    "claim " + q(n), "")));
  drawEstate(doc);
  if (!banker) { document.getElementById("undo").hidden = true; return; }
  // the undo says what it takes back, as the shell says it once done (cli/words/undo_text.py)
  // offered only when there is something to take back (none right after `new`: the server
  // would refuse it, "nothing to undo")
  // an undo the book would refuse (a seal, a referee's decision, a late claim's refusal kept
  // as evidence) is off, with the book's why: the server's, never guessed here
  const undo = document.getElementById("undo"), u = doc.undo;
  undo.hidden = !u;
  undo.disabled = !!(u && u.refused);
  undo.title = u && u.refused ? u.refused
    : u && u.changes.length ? say("undo_changes", {line: u.line || "", changes: u.changes.join("; ")})
    : u ? say("undo", {line: u.line || ""}) : "";
  undo.replaceChildren(el("span", {class: "clamp"}, undo.title));  // three lines (style.css)
}
// a trade offered, in words ("Anna gives Vicolo Stretto; Bruno gives 100 M"), not its line
function offerText(o) {
  const side = g => [...g.deeds, ...(g.cash ? [g.cash_text] : []),
    ...(g.jail_cards ? [W.jail_card + (g.jail_cards > 1 ? " \u00D7" + g.jail_cards : "")] : [])]
    .join(", ") || W.offer_nothing;
  const [a, b] = o.between;
  return say("offer", {a, a_gives: side(o.a_gives), b, b_gives: side(o.b_gives)})
    + (o.lift.length ? " (" + say("offer_lift", {deeds: o.lift.join(", ")}) + ")" : "");
}
// a hammer with no bid says first what it will do (the deed to the richest, or the Bank's)
let WARNED = false;
function hammerPad(doc) {
  if (!doc.no_bid) { WARNED = false; return [button(W.hammer, "hammer", "warn", {id: "hammer"})]; }
  if (!WARNED) return [el("button", {type: "button", class: "warn", id: "hammer", "data-line": "",
                                     onclick: () => { WARNED = true; drawPads(DOC); }}, W.hammer)];
  // the richest tie: the banker says who (`hammer PLAYER`), as the warning says
  const gos = (doc.no_bid_to || []).length
    ? doc.no_bid_to.map(n => button(say("hammer_to", {name: n}), "hammer " + q(n), "warn",
                                    {"data-hammer-to": n}))
    : [button(W.hammer_anyway, "hammer", "warn", {id: "hammer-confirm"})];
  gos.forEach(go => go.addEventListener("click", () => { WARNED = false; }));
  return [el("div", {class: "warning", id: "no-bid", role: "alert"}, doc.no_bid.replace(/`/g, "")),
          ...gos, el("button", {type: "button", class: "quiet", id: "hammer-cancel",
                            onclick: () => { WARNED = false; drawPads(DOC); }}, W.cancel)];
}

function q(name) {  // a name as one shell word: an apostrophe kept (D'Amico), not dropped
  return /^[\w\u00C0-\u024F.-]+$/.test(name) ? name : '"' + name.replace(/(["\\$`])/g, "\\$1") + '"';
}

function render(doc) {
  if (!doc || !doc.board) return;
  if (DOC && DOC.seq !== doc.seq) ARMED = null;  // a confirmation is for the table it saw
  DOC = doc;
  if (doc.warning && doc.role !== "viewer") broken(doc.warning);  // read over the break
  followOffers(doc);
  drawBoard(doc); drawPlayers(doc); drawLists(doc); drawCentre(doc);
  drawPads(doc);
  placeAside();
  fitBoard();
  document.body.dataset.seq = doc.seq;
}
function fitBoard(reset) { fitLabels(reset); fitSquares(); fitCentre(); fitAside(); }
window.addEventListener("resize", () => { if (DOC) fitBoard(true); });
function status(text) { if (!REVOKED) document.getElementById("status").textContent = text; }

// --- sending: every line keeps its id until the server has answered it ---------------------
let box = JSON.parse(localStorage.getItem(OUTBOX) || "[]");
function saveBox() { localStorage.setItem(OUTBOX, JSON.stringify(box.filter(i => i.state === "pending" && !i.claim))); }
function newId() {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
}
function drawBox() {
  // each line with what banco answered, as the shell prints it: the move, the salary, the rent
  // that may be claimed; a refusal with its rule and what is allowed; a usage error as said
  // a typed line refused is said under the field it stays in (told), not here again: it
  // showed twice, one under the other
  const shown = box.filter(i => !(i.typed && (i.state === "refused" || i.state === "closed")));
  document.getElementById("outbox").replaceChildren(...shown.slice(-4).map(i => el("li", {
    class: i.state, "data-id": i.id},
    i.state === "pending" ? say("pending", {line: lineOf(i)})
      // an offer declined or withdrawn records nothing ("recorded: decline" said a withdrawn
      // one was refused)
      : i.state === "done" && i.answer && i.answer !== "accept" ? (i.back ? W.withdrawn : W.declined)
      : i.state === "done" ? say(i.asked ? "asked" : "done", {line: lineOf(i)})
      // an answer held is said in the page's words ("accept" read on an Italian phone)
      : i.state === "held" ? say("held", {line: lineOf(i), names: i.waiting || ""})
      : i.state === "closed" ? say("held_over", {line: lineOf(i), what: i.why})
      : i.state === "unsent" ? say("claim_unsent", {})
      : i.told ? lineOf(i) : say("refused", {why: i.why}),
    ...(i.told ? [el("div", {class: "told"}, i.told)] : []))));
}
// an item's line in the page's words: a trade's answer by its button's word ("accept" read on
// an Italian phone, the trial), a line as its reader types it
function lineOf(i) {
  if (i.back) return W.withdraw;
  if (i.answer) return i.answer === "accept" ? W.accept : W.decline_offer;
  return lineText(i.line);
}
function send(line, expect, typed) {
  const item = {id: newId(), line, state: "pending", path: "/api/commands", typed: !!typed};
  if (expect !== false && DOC) item.expect = DOC.seq;
  box.push(item);
  saveBox(); drawBox(); deliver(item);
}
function answer(offer, word, back) {  // back: the offer withdrawn (the server's "decline")
  const item = {id: newId(), line: word, state: "pending", path: "/api/offers/" + offer, answer: word,
                back: !!back};
  box.push(item);
  saveBox(); drawBox(); deliver(item);
}
async function deliver(item) {
  if (item.inflight) return;
  item.inflight = true;
  const body = item.answer ? {answer: item.answer, id: item.id}
                           : {line: item.line, id: item.id, expect: item.expect};
  let r;
  try {
    r = await fetch(item.path, {method: "POST", cache: "no-store",
      headers: headers({"Content-Type": "application/json"}), body: JSON.stringify(body)});
  } catch (e) {
    item.inflight = false;
    status(W.offline);  // kept, and sent again with the same id when the server answers
    online(false);
    if (item.claim) unsent(item);  // but a claim is not: said at once, to be said aloud
    return;
  }
  item.inflight = false;
  if (r.status !== 401) { status(""); online(true); }  // the table answered: it is reachable
  const said = await r.json().catch(() => ({}));
  if (r.status === 202 && said.offer) {  // a trade held for the other side: not recorded yet
    item.state = "held";
    item.offer = said.offer.id;  // followed on the table's offers until it ends (evening.js)
    item.waiting = waitingFor(said.offer);
  } else if (r.status === 200 || r.status === 202) {
    item.state = "done";
    item.told = (said.said || "").trim();
    // appended nothing and no replay: a question answered (`ruling rent 68` without --record)
    item.asked = !item.answer && !said.replayed && Array.isArray(said.events) && !said.events.length;
  } else if (r.status === 423 && said.code === 3) {  // the log's chain broken: never retried
    Object.assign(item, {state: "refused", why: W.chain_short, told: ""});
    broken((said.errors || "").trim());
  } else {
    item.state = "refused";
    item.why = said.refused || said.error || (said.errors || "").trim() || String(r.status);
    item.told = (said.errors || "").trim();  // the shell's own words, its `refused:` or `error:`
    if (r.status === 401) revoked();
  }
  item.status = r.status;
  if (item.claim) claimAnswered(item, r.status, said);
  document.body.dataset.lastStatus = r.status;
  saveBox(); drawBox();
  told(item);
}
// A typed line stays in the field until it is recorded, and its refusal is said under the
// field: the banker corrects the line instead of typing it again, and sees why without
// scrolling past the pads (the outbox is below them).  A button's refusal is scrolled to.
function told(item) {
  const input = document.getElementById("line"), box = document.getElementById("line-told");
  const ok = item.state === "done", quiet = ok || item.state === "held";
  if (item.typed) {
    if (ok && input.value.trim() === item.line) input.value = "";
    // a trade held for the phones is refused by nobody yet: no empty alert under the field
    box.hidden = quiet;
    box.textContent = quiet ? "" : item.told || item.why;
    if (!ok) box.scrollIntoView({block: "nearest"});
  } else if (!quiet) {
    const li = document.querySelector(`#outbox li[data-id="${item.id}"]`);
    if (li) li.scrollIntoView({block: "nearest"});
  }
}
function resend() { if (!BROKEN) for (const i of box) if (i.state === "pending" && !i.claim) deliver(i); }

// --- following the table: server-sent events read by fetch (a header carries the token) ---
let lastId = null;
// The server says something at least every 15 s (a heartbeat): a stream silent for longer has
// lost the table (a Wi-Fi gone quiet ends no connection), and the page says so at once.
let heard = Date.now(), stream = null;
setInterval(() => {
  if (stream && Date.now() - heard > 20000) {
    document.body.dataset.silent = +(document.body.dataset.silent || 0) + 1;
    online(false); stream.abort(); stream = null;
  }
}, 2000);
async function follow() {
  for (;;) {
    try {
      stream = new AbortController();
      heard = Date.now();
      const r = await fetch("/api/events", {cache: "no-store", signal: stream.signal,
        headers: headers(lastId ? {"Last-Event-ID": lastId} : {})});
      if (r.status === 401) { revoked(); return; }
      if (!r.ok || !r.body) throw new Error(String(r.status));
      status(""); online(true);
      resend();
      const reader = r.body.getReader(), text = new TextDecoder();
      let buffer = "";
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        heard = Date.now();
        buffer += text.decode(value, {stream: true});
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let data = null, id = null, kind = null;
          for (const line of chunk.split("\n")) {
            if (line.startsWith("data: ")) data = line.slice(6);
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) kind = line.slice(7);
          }
          if (kind === "revoked") { revoked(); return; }  // the banker revoked this token
          if (data) { render(JSON.parse(data)); if (id) lastId = id; }
        }
      }
    } catch (e) { /* the connection dropped: said below, then tried again */ }
    status(W.offline); online(false);
    await new Promise(ok => setTimeout(ok, 1000));
  }
}

document.title = W.title;
document.getElementById("claims-h").textContent = W.claims;
document.getElementById("debts-h").textContent = W.debts;
document.getElementById("commands-h").textContent = W.commands;
document.getElementById("send").textContent = W.send;
document.getElementById("line-form").addEventListener("submit", e => {
  e.preventDefault();
  const input = document.getElementById("line"), line = input.value.trim();
  const hidden = line.match(HIDDEN), told = document.getElementById("line-told");
  told.hidden = !hidden;  // refused here, nothing sent: a pasted zero-width space (evening.js)
  if (hidden) told.textContent = say("line_hidden", {code: "U+" + hidden[0].codePointAt(0)
    .toString(16).toUpperCase().padStart(4, "0"), line: visible(line)});
  else if (line) send(line, undefined, true);
});
document.getElementById("undo").addEventListener("click", () => send("undo"));
render({...JSON.parse(document.getElementById("table").textContent), role: "viewer"});
// no game yet: the TV says who starts one (it showed an empty board and empty lists)
if (!DOC) document.getElementById("next").textContent = W.no_game;
drawBox();
evening();
follow();
setInterval(() => { if (box.some(i => i.state === "pending")) resend(); }, 3000);
