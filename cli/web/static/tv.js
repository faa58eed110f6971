"use strict";
// The TV's screen, for banco serve's page (loaded before app.js, whose render and fitBoard
// call these).  At 1200 px wide and more the players and the lists go inside the board's
// centre, beside what just happened, and the board is as wide as the screen: a square board
// 1080 px tall left its top and bottom squares 84 px wide, and seven names (Tassa
// Patrimoniale) shrank to 13 px where the TV promises 20 (docs/phones-api.md).  style.css
// places them there, every size 1920x1080's times the screen's share of it (--tv): a TV at
// 1280x720 got the old layout, its names cut at 12 px.
const TV = matchMedia("(min-width:1200px)");
// 1 at 1920x1080, 2/3 at 1280x720: style.css's --tv, for the sizes fit.js computes
const tvScale = () => Math.min(innerWidth / 1920, innerHeight / 1080);
// a laptop's banker or player (720 to 900 lines, style.css): the pads fill the window's
// height, so the players and the lists go inside the board's centre too, never under the pads
const LAPTOP = matchMedia("(min-width:1200px) and (max-width:1599.98px)");
function placeAside() {
  const aside = document.querySelector("aside"), tv = document.body.dataset.role === "viewer";
  const home = (tv ? TV : LAPTOP).matches
    ? document.getElementById("board") : document.querySelector("main");
  if (aside.parentElement !== home) home.append(aside);
}
for (const size of [TV, LAPTOP]) size.addEventListener("change", () => { placeAside(); if (DOC) fitBoard(true); });

// The TV's centre holds the players and the lists: where they do not fit (five or six
// players, or four holding many deeds), the players take two columns; then the last commands
// give way whole lines at a time, the oldest first (a line cut in half read as another)
function fitAside() {
  const aside = document.querySelector("aside"), players = document.getElementById("players");
  const lines = [...document.querySelectorAll("#commands li")];
  const list = document.getElementById("commands").closest("section");
  players.classList.remove("two", "dense");
  list.hidden = false;
  lines.forEach(li => { li.hidden = false; });
  if (aside.parentElement.id !== "board") return;
  if (aside.scrollHeight > aside.clientHeight + 1) players.classList.add("two");
  // still too many: the deeds as their colours only (a late game's twenty deeds pushed the
  // open claims out of the screen); the board says whose each square is, by its colour
  if (aside.scrollHeight > aside.clientHeight + 1) players.classList.add("dense");
  const end = list.getBoundingClientRect().bottom;
  let full = false;  // from the first line that does not fit, every older one goes too
  lines.forEach(li => { li.hidden = full = full || li.getBoundingClientRect().bottom > end + 0.5; });
  list.hidden = lines.length > 0 && lines.every(li => li.hidden);  // no heading over nothing
}
