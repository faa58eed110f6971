"use strict";
// The words of banco serve's page (loaded first; app.js's W and LANG are the page's words and
// language): a template filled as the server fills its own, what the table waits for as a
// screen shows it, and an amount kept on one line.
// What the table waits for, as a screen shows it: the shell's `roll D1 D2` is "roll" here (the
// placeholders are for a banker typing; a page has buttons and a TV has a room reading it).
// Only the template's capital words go, in either language: a name typed by the banker stays.
const PLACEHOLDER = /^\[?(D1|D2|S|N|PLAYER|OWNER|SPACE|CARD|AMOUNT|PROPERTY|NAME|BIDDER|GIOCATORE|PROPRIETARIO|CASELLA|CARTA|IMPORTO|PROPRIETÀ|NOME|OFFERENTE)\]?(\.\.\.)?$/;
function plainNext(text) {
  return text.replace(/`([^`]*)`/g, (_, line) => line.split(" ")
    .filter(w => !PLACEHOLDER.test(w)).join(" "));
}
// a player's phone in an auction says what he can do, never the banker's `hammer` (choices.py)
const nextText = doc => whole(doc.auction_next || plainNext(doc.next));
// an amount kept on one line: the TV's step broke "80 M" as "80" and "M" under it
function whole(text) {
  return (text || "").replace(/(\d) (?=[M\u00a3\u20ac$](?!\p{L}))/gu, "$1\u00a0");
}
function say(key, params) {
  const has = k => params && k in params;
  // Italian's euphonic d before the same vowel, as the server says it (cli/words/i18n.py's
  // join_preposition): "CHIEDI 28 M ad Anna", not "a Anna"
  const template = LANG !== "it" ? W[key] : W[key].replace(/(^|[\s(])([aeAE]) \{(\w+)\}/g,
    (m, before, p, k) => has(k) && first(params[k]) === p.toLowerCase() ? `${before}${p}d {${k}}` : m);
  return template.replace(/\{(\w+)\}/g, (m, k) => (has(k) ? params[k] : m));
}
function first(value) {  // a word's first letter, its accent off (Èlena is e)
  return String(value).replace(/^['"\u00ab\u201c(]+/, "").normalize("NFD").charAt(0).toLowerCase();
}
// a button's words, its amount kept on one line ("+75 M" broke as "+75" and "M" at 390 px)
function sayWhole(key, params) {
  const whole = v => v === undefined ? v : String(v).replace(/ /g, "\u00a0");
  return say(key, {...params, amount: whole(params.amount), cost: whole(params.cost)});
}
