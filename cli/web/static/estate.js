"use strict";
// The estate pads of banco serve's page (app.js draws them): build and sell by group and
// level, mortgages and lifts, the trade builder.  Loaded before app.js, which calls them.
// --- the estate: build and sell by group and level, mortgages, the trade builder ----------
// What each may do comes from the server (doc.estate, projections/readings/estate_pads.py);
// the server still decides every line.
let PICK = {build: null, sell: null, mortgage: null};
const TRADE_EMPTY = () => ({open: false, a: null, b: null, give: [], get: [], lift: [],
                            cash: {a: 0, b: 0}, cards: {a: 0, b: 0}});
let TRADE = TRADE_EMPTY();
function arg(text) {  // a deed's name as a shell word: unquoted when it is plain words
  return /^[A-Za-z\u00C0-\u024F.!-]+( [A-Za-z\u00C0-\u024F.!-]+)*$/.test(text) ? text
    : '"' + text.replace(/(["\\$`])/g, "\\$1") + '"';
}
function chip(text, on, attrs, pick) {
  return el("button", {type: "button", class: on ? "on" : "", ...attrs,
                       onclick: () => { pick(); drawPads(DOC); }}, text);
}
function groupPad(id, kind, groups, levelText) {
  const key = g => g.owner + "/" + g.group;
  if (groups.length === 1) PICK[kind] = key(groups[0]);
  if (!groups.some(g => key(g) === PICK[kind])) PICK[kind] = null;
  const picked = groups.find(g => key(g) === PICK[kind]);
  pad(id, groups.length > 0, el("span", {class: "label"}, W[kind + "_h"]),
    // the group said in the page's language (`name`), sent as its key (`group`)
    ...groups.map(g => chip(say("group_of", {group: g.name || g.group, name: g.owner}), key(g) === PICK[kind],
      {class: "group" + (key(g) === PICK[kind] ? " on" : ""), style: {"--g": g.colour},
       ["data-" + kind + "-group"]: g.group}, () => { PICK[kind] = key(g); })),
    ...(picked ? [el("span", {class: "label"}), ...picked.levels.map(l => l.level === "all"
      ? confirmed(levelText(l), `${kind} ${q(picked.group)} ${l.level}`, {"data-sell-all": picked.group})
      : button(levelText(l), `${kind} ${q(picked.group)} ${l.level}`, kind === "build" ? "go" : ""))] : []));
}
function drawEstate(doc) {
  const players = doc.ended || !doc.estate ? [] : doc.estate.players;
  const groups = kind => players.flatMap(p => p[kind].map(g => ({...g, owner: p.name})));
  groupPad("build-pad", "build", groups("build"), l => l.level === "hotel"
    ? sayWhole("build_hotel", {cost: l.cost_text}) : sayWhole("build_houses", {n: l.level, cost: l.cost_text}));
  groupPad("sell-pad", "sell", groups("sell"), l => l.level === "all" ? W.sell_all
    : say("sell_down", {n: l.level}));
  const owners = players.filter(p => p.mortgage.length || p.unmortgage.length);
  if (!owners.some(p => p.name === PICK.mortgage)) PICK.mortgage = owners.length === 1 ? owners[0].name : null;
  const m = owners.find(p => p.name === PICK.mortgage);
  // a phone acts for its own player: straight to his deeds, no choice of one name
  const own = doc.role === "player";
  pad("mortgage-pad", owners.length > 0, el("span", {class: "label"}, own ? W.mortgage_own : W.mortgage_h),
    ...(own ? [] : owners.map(p => chip(p.name, p.name === PICK.mortgage, {"data-mortgager": p.name},
                                        () => { PICK.mortgage = p.name; }))),
    ...(m ? [...(own ? [] : [el("span", {class: "label"})]),
      ...m.mortgage.map(d => button(sayWhole("mortgage_deed", {property: d.name, amount: d.amount_text}),
                                    "mortgage " + arg(d.name), "")),
      // never the green main button: it is a mortgage taken back, not the turn's next act
      // (after a mortgage it stood out as the one to tap, the last trial); a lift out of reach
      // is shown off, with the rules' own why from the server
      ...m.unmortgage.flatMap((d, i, lifts) => {
        const b = button(sayWhole("lift_deed", {property: d.name, amount: d.cost_text}),
                         d.affordable ? "unmortgage " + arg(d.name) : "", "",
                         {"data-lift-deed": d.name});
        b.disabled = !d.affordable;
        // one why under the last lift it stops (a debt said the same why under four lifts)
        const again = lifts.slice(i + 1).some(x => !x.affordable && x.why === d.why);
        return d.affordable || !d.why || again ? [b] : [b, el("span", {class: "label why"}, d.why)];
      })] : []));
  drawTrade(players);
}
function tradeLine() {
  const t = TRADE;
  if (!t.a || !t.b) return "";
  const items = side => [...t[side === "a" ? "give" : "get"].map(arg),
    ...Array(t.cards[side]).fill("jail-card"), ...(t.cash[side] ? [String(t.cash[side])] : [])];
  const give = items("a"), get = items("b");
  if (!give.length && !get.length) return "";  // nothing either way: no trade to send
  const lift = t.lift.filter(d => t.give.includes(d) || t.get.includes(d));
  return `trade ${q(t.a)} ${q(t.b)}` + (give.length ? " --give " + give.join(" ") : "")
    + (get.length ? " --get " + get.join(" ") : "") + (lift.length ? " --lift " + lift.map(arg).join(" ") : "");
}
function tradeSide(players, side) {
  const t = TRADE, name = t[side], p = players.find(x => x.name === name);
  if (!p) return [];
  const list = side === "a" ? t.give : t.get;
  const toggle = (l, d) => { const i = l.indexOf(d); if (i < 0) l.push(d); else l.splice(i, 1); };
  const cash = n => () => { t.cash[side] = Math.max(0, Math.min(p.trade.cash ?? Infinity, n < 0 ? 0 : t.cash[side] + n)); };
  return [el("span", {class: "label"}, say("gives", {name})),
    ...p.trade.deeds.map(d => chip(d.name, list.includes(d.name), {class: "deed-pick" +
      (list.includes(d.name) ? " on" : "") + (d.mortgaged ? " m" : ""), "data-side": side,
      "data-deed": d.name, title: d.mortgaged ? W.mortgaged : ""}, () => toggle(list, d.name))),
    // a mortgaged deed received: its new owner may free it at once (--lift) or pay the 10%
    ...p.trade.deeds.filter(d => d.mortgaged && list.includes(d.name)).map(d => chip(
      say("lift_now", {property: d.name}), t.lift.includes(d.name), {"data-side": side,
      "data-lift": d.name}, () => toggle(t.lift, d.name))),
    ...(p.trade.jail_cards ? [chip(W.jail_card + (t.cards[side] ? " \u00D7" + t.cards[side] : ""),
      t.cards[side] > 0, {"data-side": side, "data-cards": "1"},
      () => { t.cards[side] = (t.cards[side] + 1) % (p.trade.jail_cards + 1); })] : []),
    el("span", {class: "break"}),
    el("span", {class: "cash-pick", "data-cash": side}, say("cash_amount", {amount: t.cash[side]})),
    ...[10, 50, 100].map(n => chip("+" + n, false, {"data-side": side, "data-add": n}, cash(n))),
    chip("0", false, {"data-side": side, "data-add": "0"}, cash(-1))];
}
function drawTrade(players) {
  const t = TRADE, names = players.map(p => p.name);
  if (DOC.role === "player") t.a = DOC.player;  // a phone offers its own player's side
  if (!names.includes(t.a)) { t.a = null; t.give = []; t.cash.a = t.cards.a = 0; }
  if (!names.includes(t.b) || t.b === t.a) { t.b = null; t.get = []; t.cash.b = t.cards.b = 0; }
  for (const side of ["a", "b"]) {  // what a side no longer holds leaves the trade (a newer table)
    const p = players.find(x => x.name === t[side]), list = side === "a" ? t.give : t.get;
    if (!p) continue;
    const held = p.trade.deeds.map(d => d.name);
    list.splice(0, list.length, ...list.filter(d => held.includes(d)));
    t.cash[side] = Math.min(t.cash[side], p.trade.cash ?? Infinity);
    t.cards[side] = Math.min(t.cards[side], p.trade.jail_cards);
  }
  if (!t.open) {
    pad("trade-pad", names.length > 1, el("button", {type: "button", id: "trade-open",
      onclick: () => { t.open = true; drawPads(DOC); }}, W.trade_open));
    return;
  }
  const line = tradeLine();
  const go = button(W.send, line, "go", {id: "trade-send"});
  go.disabled = !line;
  go.addEventListener("click", () => { TRADE = TRADE_EMPTY(); drawPads(DOC); });
  pad("trade-pad", true, el("span", {class: "label"}, W.trade_h),
    ...names.filter(n => DOC.role !== "player" || n === DOC.player).map(n => chip(n, t.a === n, {"data-trade-a": n}, () => {
      if (t.a !== n) { t.a = n; t.give = []; t.cash.a = t.cards.a = 0; } })),
    el("span", {class: "label"}, W.trade_with),
    ...names.filter(n => n !== t.a).map(n => chip(n, t.b === n, {"data-trade-b": n}, () => {
      if (t.b !== n) { t.b = n; t.get = []; t.cash.b = t.cards.b = 0; } })),
    ...tradeSide(players, "a"), ...tradeSide(players, "b"), el("span", {class: "break"}),
    el("code", {class: "preview", id: "trade-line"}, lineText(line)), go,  // as the reader types it
    el("button", {type: "button", class: "quiet", id: "trade-cancel",
                  onclick: () => { TRADE = TRADE_EMPTY(); drawPads(DOC); }}, W.cancel));
}
