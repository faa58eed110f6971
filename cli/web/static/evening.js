"use strict";
// The evening from phones (issue 34), for banco serve's page (loaded before app.js): the
// banker's set-up (games, seats, pairing, joins), a phone joining with the TV's code, the
// CLAIM that says when it was not sent, trades held and answered, two-tap confirmations.

// --- words ----------------------------------------------------------------------------------
function lineText(line) {  // a line as the reader types it: `rifiuta`, not `decline`
  const words = W.line_words || {};
  if (!line || !Object.keys(words).length) return visible(line);
  return visible(line).split(" ").map((w, i) => (i === 0 || w.startsWith("--") ||
    ["pay", "draw", "house", "hotel", "jail-card"].includes(w)) && words[w] ? words[w] : w).join(" ");
}
// What the CLI refuses or echoes escaped (ledger/base/names.py's hidden_character, Python's
// repr): a character that prints as nothing or as another (a zero-width space, a direction
// mark), and a look-alike letter of another alphabet inside a Latin word (`Аnna`, a Cyrillic
// А: ledger/base/confusables.py's letters), each shown as its code, never echoed raw
const HIDDEN = /[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;
const escaped = ch => "\\u" + ch.codePointAt(0).toString(16).padStart(4, "0");
function visible(text) {
  if (!text) return text;
  const alike = new Set(W.lookalikes || "");
  return text.replace(new RegExp(HIDDEN.source, "gu"), escaped).replace(/\p{L}+/gu, w =>
    /[a-zA-Z\u00C0-\u024F]/.test(w) ? [...w].map(ch => alike.has(ch) ? escaped(ch) : ch).join("") : w);
}
function clock(iso) {  // a recorded time (UTC) as this phone's clock shows it
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleTimeString(LANG);
}
async function api(method, path, body) {
  const r = await fetch(path, {method, cache: "no-store", headers: headers(
    body ? {"Content-Type": "application/json"} : {}), body: body ? JSON.stringify(body) : undefined});
  return {status: r.status, body: await r.json().catch(() => ({}))};
}

// --- a tap that must be confirmed: bankruptcy, selling every building ------------------------
let ARMED = null;
function confirmed(text, line, attrs) {
  const armed = ARMED === line;
  const b = el("button", {type: "button", class: "warn" + (armed ? " armed" : ""), "data-line": line,
                          ...(attrs || {}), onclick: () => {
    if (ARMED === line) { ARMED = null; send(line); } else ARMED = line;
    drawPads(DOC);
  }}, armed ? say("confirm", {what: text}) : text);
  return b;
}

// --- a player's CLAIM: never queued while the phone has lost the table ----------------------
let ONLINE = true, CLAIM_TOLD = null;
function online(yes) {
  if (ONLINE === yes) return;
  ONLINE = yes;
  if (DOC) drawPads(DOC);
}
function claimPad(doc, mine) {
  const told = CLAIM_TOLD ? [el("div", {class: "warning", id: "claim-told", role: "alert"}, CLAIM_TOLD)] : [];
  return [...told, ...mine.map(c => el("button", {type: "button", id: "claim",
      class: ONLINE ? "" : "offline", "data-line": "claim " + doc.player,
      onclick: () => sendClaim("claim " + q(doc.player))},
    ONLINE ? say("claim_now", {amount: c.amount_text, payer: c.payer}) : W.claim_offline,
    el("span", {class: "until"}, ONLINE ? claimText(c) : say("claim_now", {amount: c.amount_text, payer: c.payer}))))];
}
function sendClaim(line) {  // tried at once (a lost connection fails at once): never kept
  const item = {id: newId(), line, state: "pending", path: "/api/commands", claim: true};
  box.push(item);
  CLAIM_TOLD = null;
  drawBox(); deliver(item);
}
function unsent(item) {  // said at once, not sent later: a late claim is refused as evidence
  item.state = "unsent";
  CLAIM_TOLD = W.claim_unsent;
  drawBox(); if (DOC) drawPads(DOC);
}
function claimAnswered(item, status, said) {
  if (status === 200) CLAIM_TOLD = null;
  else if (status === 422) {  // too late: when the table received it, and why
    const at = (said.events || [])[0];
    CLAIM_TOLD = say("claim_late", {at: at ? clock(at.recorded_at) : "?", why: said.refused || ""});
  } else CLAIM_TOLD = said.refused || said.error || String(status);
  if (DOC) drawPads(DOC);
}

// --- a revoked token ------------------------------------------------------------------------
// A revoked token: said at the top of the page, in its flow (the red bar along the bottom
// covered the page), and every pad switched off, not left looking live (the trial).
let REVOKED = false;
function revoked() {
  document.getElementById("status").textContent = "";
  REVOKED = true;
  document.body.dataset.revoked = "";
  document.body.dataset.lastStatus = 401;
  const notice = document.getElementById("revoked");
  notice.hidden = false;
  notice.textContent = W.bad_token;
  switchedOff();
}
function switchedOff() {
  if (REVOKED || BROKEN) document.querySelectorAll("#console button, #console input, #console select")
    .forEach(e => { e.disabled = true; });
}

// --- a server that cannot be trusted to record: the log's chain broken, or no tokens' key ---
// Said in a family's words at the top of the page: what happened, and who does what (the
// banker or the referee runs `banco audit`); the server's own words under them, for that one.
// A broken chain (a 423, code 3, or a table read over the break) refuses every write the same
// way: nothing is sent again, nothing waits to be, and the pads are off (a retry forever was
// all the page did).
let BROKEN = false;
function notice(id, text, detail) {
  const box = document.getElementById(id);
  box.hidden = false;
  box.replaceChildren(el("div", {}, text), ...(detail ? [el("div", {class: "detail"}, detail)] : []));
}
function broken(detail) {
  notice("broken", W.chain_broken, detail);
  if (BROKEN) return;
  BROKEN = true;
  document.body.dataset.broken = "";
  for (const i of box) if (i.state === "pending") Object.assign(i, {state: "refused", why: W.chain_short, told: ""});
  saveBox(); drawBox();
  switchedOff();
}

// --- trades offered: waiting, who accepted, withdrawable; declined ones said ----------------
const waitingFor = o => (o.waiting || []).map(n => n === "banker" ? W.as_banker : n).join(", ");
function ended(o) {  // how an offer ended, as its card says it; null while it waits
  // the banker is no side: his "no" takes the offer back, as the offerer's own does; it is
  // said withdrawn, not declined
  const back = o.declined_by === "banker" || o.declined_by === o.by;
  return o.declined_by ? say(back ? "offer_withdrawn" : "offer_declined",
                             {name: o.declined_by === "banker" ? W.as_banker : o.declined_by})
    : o.refused ? say("refused", {why: o.refused})
    : o.done ? W.offer_done : null;
}
// A line held for the phones (the banker's trade, a side's accept) follows its offer: who is
// still awaited, then recorded, declined or withdrawn, or refused by the rules when it ran
// (it said "waiting for Anna, Bruno" after the trade was recorded, the trial).
function followOffers(doc) {
  let moved = false;
  for (const i of box) {
    const o = i.state === "held" && i.offer && (doc.offers || []).find(x => x.id === i.offer);
    if (!o) continue;
    moved = true;
    if (o.done) Object.assign(i, {state: "done", told: "", asked: false});
    else if (o.refused) Object.assign(i, {state: "refused", why: o.refused, told: ""});
    else if (o.declined_by) Object.assign(i, {state: "closed", why: ended(o), told: ""});
    else { i.waiting = waitingFor(o); continue; }
    told(i);
  }
  if (moved) drawBox();
}
function drawOffers(doc) {
  const me = doc.role === "player" ? doc.player : null, banker = doc.role === "banker";
  const offers = doc.offers || [];
  pad("offers", offers.length > 0, ...offers.map(o => {
    const answered = ended(o);
    const accepted = o.accepted.filter(n => n !== "banker").map(n => say("accepted_by", {name: n}));
    const waiting = waitingFor(o);
    const buttons = [];
    if (!answered && me && o.waiting.includes(me)) buttons.push(
      el("button", {type: "button", class: "go", "data-answer": "accept", onclick: () => answer(o.id, "accept")}, W.accept),
      el("button", {type: "button", class: "warn", "data-answer": "decline", onclick: () => answer(o.id, "decline")}, W.decline_offer));
    if (!answered && banker && o.waiting.includes("banker")) buttons.push(
      el("button", {type: "button", class: "go", "data-answer": "accept", onclick: () => answer(o.id, "accept")},
         say("accept_for", {name: o.between.find(n => n !== o.by) || ""})));
    if (!answered && (banker || (me && o.by === me))) buttons.push(
      el("button", {type: "button", class: "quiet", "data-answer": "withdraw", onclick: () => answer(o.id, "decline", true)}, W.withdraw));
    return el("div", {class: "offer" + (answered ? " closed" : ""), "data-offer": o.id},
      el("div", {class: "offer-words"}, offerText(o)),
      el("div", {class: "muted"}, answered || [...accepted, say("waiting_for", {names: waiting})].join(" · ")),
      buttons.length ? el("div", {class: "pad"}, ...buttons) : null);
  }));
}

// --- the banker's set-up: games, seats, pairing, joins ---------------------------------------
let SETUP = null, SETUP_OPEN = null, SETUP_USER = false, PAIRED = {}, FORM = null, SEEN = "";
async function setupLook() {
  const r = await api("GET", "/api/games").catch(() => null);
  if (!r || r.status !== 200) return;
  const seen = JSON.stringify(r.body);
  // redrawn only when it changed: a name being typed stays put
  if (seen === SEEN && setupOpen(r.body) === SETUP_OPEN) return;
  SEEN = seen;
  SETUP = r.body;
  drawSetup();
}
function setupOpen(s) {
  const running = s.games.find(g => g.game === s.game && !g.ended);
  // no game running (none yet, or the last one is over): the form for the next, always; the
  // seats while the game has not begun, then folded away unless the banker opens them
  if (!running) return true;
  if (SETUP_USER) return !!SETUP_OPEN;
  return !(DOC && DOC.game === s.game && (DOC.commands || []).length > 1);
}
function drawSetup() {
  const box = document.getElementById("setup"), s = SETUP;
  if (!s) return;
  box.hidden = false;
  const running = s.games.find(g => g.game === s.game && !g.ended);
  const open = SETUP_OPEN = setupOpen(s);
  const toggle = el("button", {type: "button", id: "setup-toggle", class: "quiet",
    onclick: () => { SETUP_USER = true; SETUP_OPEN = !open; drawSetup(); }}, W.setup_h);
  if (!running && !FORM) FORM = newGameForm(s);  // the same fields, whatever is redrawn
  if (!open) { box.replaceChildren(toggle, ...joinsPad(s)); switchedOff(); return; }
  box.replaceChildren(toggle, ...(running ? [] : FORM), ...(running ? seatsPad(s) : []),
                      ...joinsPad(s));
  switchedOff();  // a revoked banker's token: nothing here is live (above)
}
function newGameForm(s) {
  const inputs = [0, 1, 2, 3, 4, 5].map(i => el("input", {class: "seat", name: "p" + i,
    placeholder: say("seat_n", {n: i + 1}), autocomplete: "off"}));
  const rules = el("select", {id: "setup-rules"}, ...s.rules.map(r => el("option", {value: r}, W["rules_" + r] || r)));
  const edition = el("select", {id: "setup-edition"}, el("option", {value: ""}, W.edition_default),
    ...s.editions.map(e => el("option", {value: e}, (W.editions || {})[e] || e)));
  const hidden = el("input", {type: "checkbox", id: "setup-hidden"});
  const told = el("div", {id: "setup-told", role: "alert", class: "warning", hidden: ""});
  const go = el("button", {type: "button", class: "go", id: "setup-start", onclick: async () => {
    const players = inputs.map(i => i.value.trim()).filter(Boolean);
    const body = {players, rules: rules.value};
    if (edition.value) body.edition = edition.value;
    if (hidden.checked) body.cash = "hidden";
    const r = await api("POST", "/api/games", body);
    if (r.status === 201) { SETUP_USER = false; FORM = null; SEEN = ""; setupLook(); }
    else { told.hidden = false; told.textContent = r.body.error || String(r.status); }
  }}, W.setup_start);
  const ended = s.games.length ? [el("div", {class: "muted"}, W.setup_next)] : [];
  return [el("h2", {}, W.setup_new), ...ended, el("div", {class: "pad seats"}, ...inputs),
          el("label", {}, W.setup_rules + " ", rules), el("label", {}, W.setup_edition + " ", edition),
          el("label", {class: "check"}, hidden, W.setup_hidden), go, told];
}
function seatsPad(s) {
  const join = s.code ? [el("div", {class: "join-code", id: "setup-code"},
    say("join_at", {url: location.origin + "/join", code: s.code}))] : [];
  return [el("h2", {}, say("setup_phones", {game: s.game})), ...join, ...s.seats.filter(x => x.player).map(x => {
    const got = PAIRED[x.player];
    // a bankrupt player is out of the game (003 §10): no phone is paired for him, though
    // one paired before may still be revoked
    const pair = x.bankrupt ? [el("span", {class: "muted"}, W.bankrupt)] : [
      el("button", {type: "button", class: x.phones.length ? "" : "go", "data-pair": x.player, onclick: async () => {
        const r = await api("POST", `/api/games/${s.game}/tokens`, {role: "player", player: x.player});
        if (r.status === 201) { PAIRED = {[x.player]: r.body}; SEEN = ""; setupLook(); }
      }}, x.phones.length ? W.pair_again : W.pair)];
    return el("div", {class: "seat-row", "data-seat": x.player},
      el("strong", {}, x.player), ...pair,
      ...x.phones.map(code => el("button", {type: "button", class: "quiet", "data-revoke": code,
        onclick: async () => { await api("POST", `/api/tokens/${code}/revoke`); delete PAIRED[x.player]; SEEN = ""; setupLook(); }},
        say("revoke", {code}))),
      ...(got ? [el("div", {class: "qr"}, el("img", {src: got.qr, alt: got.url, width: 164, height: 164}),
                    el("a", {href: got.url, class: "link", "data-link": x.player}, got.url))] : []));
  })];
}
function joinsPad(s) {
  return (s.joins || []).map(j => el("div", {class: "warning join", "data-join": j.player},
    say("join_asks", {name: j.player}),
    // in a pad: its gap keeps a thumb's approve apart from its refuse (they touched)
    el("div", {class: "pad"},
      el("button", {type: "button", class: "go", "data-approve": j.player, onclick: async () => {
        await api("POST", `/api/joins/${j.id}`, {answer: "approve"}); SEEN = ""; setupLook(); }}, W.approve),
      el("button", {type: "button", class: "quiet", "data-refuse": j.player, onclick: async () => {
        await api("POST", `/api/joins/${j.id}`, {answer: "refuse"}); SEEN = ""; setupLook(); }}, W.refuse))));
}

// --- a phone joining with the TV's code ------------------------------------------------------
function drawJoin() {
  const box = document.getElementById("join");
  box.hidden = false;
  document.getElementById("pads").hidden = true;
  const code = el("input", {id: "join-code", inputmode: "numeric", autocomplete: "off", placeholder: W.join_code});
  const told = el("div", {id: "join-told", role: "status"});
  const seats = el("div", {class: "pad", id: "join-seats"});
  const find = el("button", {type: "button", class: "go", id: "join-find", onclick: async () => {
    const r = await api("GET", "/api/join/" + encodeURIComponent(code.value.trim()));
    if (r.status !== 200) { told.textContent = r.body.error || String(r.status); return; }
    told.textContent = W.join_seat;
    seats.replaceChildren(...r.body.seats.map(x => el("button", {type: "button", "data-seat": x.player,
      onclick: () => ask(code.value.trim(), x.player, told)}, x.player + (x.paired ? " \u2713" : ""))));
  }}, W.join_find);
  box.replaceChildren(el("h2", {}, W.join_h), code, find, told, seats);
}
async function ask(code, player, told) {
  const r = await api("POST", "/api/join", {code, player});
  if (r.status !== 202) { told.textContent = r.body.error || String(r.status); return; }
  told.textContent = say("join_waiting", {name: player});
  for (;;) {
    await new Promise(ok => setTimeout(ok, 700));
    const got = await api("POST", "/api/join/" + r.body.request, {key: r.body.key}).catch(() => null);
    if (got && got.status === 404) { told.textContent = got.body.error; return; }  // replaced
    if (!got || got.status !== 200) continue;
    if (got.body.state === "refused") { told.textContent = W.join_refused; return; }
    if (got.body.state === "approved") {
      localStorage.setItem(KEY, got.body.token);
      location.href = "/player";
      return;
    }
  }
}

// --- the TV: the code a phone joins with -----------------------------------------------------
async function joinLine() {
  const r = await api("GET", "/api/join").catch(() => null);
  const line = document.getElementById("joinline");
  if (!r || !r.body.code || (DOC && DOC.role !== "viewer")) { line.textContent = ""; return; }
  const text = say("join_at", {url: location.origin + "/join", code: r.body.code});
  if (line.textContent === text) return;
  line.textContent = text;
  if (DOC) fitCentre();  // the line takes room in the centre (app.js)
}

function evening() {
  // a page with no table yet (the set-up, the join page) is no TV: its layout is the pads'
  // (at 1200 px and more the banker's set-up was laid out as a TV's, over an empty board)
  const notTV = role => { if (!DOC || !DOC.board) { document.body.dataset.role = role; placeAside(); } };
  if (location.pathname === "/join") { notTV("join"); drawJoin(); return; }
  if (TOKEN) api("GET", "/api/me").then(r => {
    if (r.body.role === "banker") { notTV("banker"); setupLook(); setInterval(setupLook, 2000); }
    // the page's words only: the server's own (a key's file path, `banco audit` in a
    // terminal's backticks) are for its terminal, which printed them
    if ((r.body.notices || []).length) notice("unkeyed", W.no_key);
  });
  if (location.pathname === "/") { joinLine(); setInterval(joinLine, 5000); }
}
