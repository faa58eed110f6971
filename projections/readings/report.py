"""A game as one self-contained HTML page: the final table and standings, each player's net
worth over the game (inline SVG), the board with owners and buildings, and the timeline with
rulings, corrections, late claims and undos highlighted, every event an anchor (`#e57`).

No script, no network: styles are inline and a Content-Security-Policy forbids loading
anything, so the page shows the same in a browser offline, in ten years, or as an e-mail
attachment.  Pure: the caller gives the events and the words for an event (cli/words/facts.py's
`describe`), and gets the page as text (`report_html`) or written to a file (`write_report`).

A long game's page is written as its events are read: the timeline (one entry per event, the
page's bulk) goes to a spool file the caller gives while the final table, the chart and the
highlights are gathered, and is copied after them; the chart keeps at most CHART_POINTS points
of a line, sampled as they come (`WorthSampler`).  Nothing held grows with the game.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from html import escape
from typing import IO, NamedTuple

from banco.ledger.base.text import msg, plural, render, word
from banco.ledger.board.rule_sets import shown
from banco.ledger.table.state import State
from banco.ledger.table.worth import deeds_of, net_worth
from banco.projections.readings.accounts import standings
from banco.projections.readings.replay import steps

HIGHLIGHTS = {"RulingRecorded": "ruling", "CashCorrected": "correction",
              "PositionCorrected": "correction", "OwnerCorrected": "correction",
              "RentClaimRefused": "late", "EventRetracted": "undo"}
# The tag each highlight shows, in the page's language (the class stays English, for the CSS).
TAGS = {"ruling": msg("ruling"), "correction": msg("correction"), "late": msg("late claim"),
        "undo": msg("undo")}
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
                  "#e377c2")
# The colour of a group by where it starts on the board (every edition keeps the layout).
GROUP_COLOURS = {1: "#8b4513", 5: "#555", 6: "#87ceeb", 11: "#d63384", 12: "#999", 16: "#fd7e14",
                 21: "#dc3545", 26: "#ffc107", 31: "#198754", 37: "#0d3b9e"}
# A game of up to this many commands gets a point after each; a longer one between half and
# all of this many a line, evenly spread (WorthSampler).  (A game of more than 600 commands had
# 600 points before the page was written as the log is read.)
CHART_POINTS = 1200

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .4em;border-bottom:1px solid #ccc}
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;border-bottom:1px solid #eee}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.head{font-family:monospace;font-size:.85em;color:#555;word-break:break-all}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.3em}
.board{display:grid;grid-template-columns:repeat(11,1fr);grid-template-rows:repeat(11,4.6em);gap:2px;
 max-width:900px}
.sq{border:1px solid #bbb;font-size:.68em;padding:2px;overflow:hidden;position:relative;background:#fff}
.sq .band{height:5px;margin:-2px -2px 2px}.sq .own{font-weight:bold}.sq .mort{color:#b00}
.centre{grid-column:2/11;grid-row:2/11;display:flex;align-items:center;justify-content:center;
 color:#999;font-size:1.4em;text-align:center}
.centre .title{font-size:1.2em}.centre ol.mid{font-size:.6em;color:#333;text-align:left}
ol.timeline{list-style:none;padding:0;margin:0}ol.timeline li{padding:1px .3em;font-size:.9em}
ol.timeline li.cmd{margin-top:.5em;font-weight:bold;font-family:monospace}
li.ruling{background:#e7f1ff}li.correction{background:#fff3cd}li.late{background:#f8d7da}
li.undo{background:#e2e3e5}li.undone{text-decoration:line-through;color:#888}
a.seq{color:#666;text-decoration:none;font-family:monospace;margin-right:.4em}
p.audit{padding:.3em .6em;border-radius:3px}p.audit.ok{background:#d1e7dd}
p.audit.bad{background:#f8d7da;font-weight:bold}
.legend span{margin-right:1em}.tag{font-size:.75em;padding:0 .3em;border-radius:3px;
 background:#444;color:#fff;margin-right:.3em}
"""


class AuditVerdict(NamedTuple):
    """What the game's audit said of the history the page shows (projections/audit/audit.py)."""
    line: str  # banco/<game>/<seq>/<12 hex>: the head it audited
    bad_seq: int | None = None  # the first bad event, None: it passed
    problem: str | None = None  # a Text: said in the page's language


def audit_html(verdict: AuditVerdict, tr=None) -> str:
    """The audit's verdict near the top of the page: passed, with the head line; or the
    problem, its event linked to the timeline (the page is still written, marked)."""
    if verdict.bad_seq is None and verdict.problem is None:
        return ('<p class="audit ok" id="audit">'
                + _say(tr, "audit passed: the history shown is verified, head {line}",
                       line=escape(verdict.line)) + "</p>")
    seq = (f'<a href="#e{verdict.bad_seq}">{verdict.bad_seq}</a>'
           if verdict.bad_seq is not None else "?")
    return ('<p class="audit bad" id="audit">'
            + _say(tr, "audit FAILED at event {seq}: {problem}; the history shown is as "
                       "stored, not verified", seq=seq,
                   problem=escape(render(verdict.problem or "", tr))) + "</p>")


def board_cell(position: int) -> tuple[int, int]:
    """(row, column) of a board position on an 11 x 11 grid, Via! at the bottom right."""
    p = position
    if p <= 10:
        return 11, 11 - p
    if p <= 20:
        return 21 - p, 1
    if p <= 30:
        return 1, p - 19
    return p - 29, 11


def _money(state: State, amount: int) -> str:
    return escape(state.edition.money(amount))


class WorthSampler:
    """Each player's net worth after every command, kept in bounded memory: every point while
    the game has at most `limit` commands (the chart of such a game is all of them), then one
    command in `stride`, evenly spread (the stride doubles whenever more than `limit` are
    kept), always with the first, the last and every command after which a player went
    bankrupt."""

    def __init__(self, limit: int | None = None):
        self.limit = CHART_POINTS if limit is None else limit
        self.stride = 1
        self.count = 0  # commands seen
        self.points: list[tuple[int, int, bool, dict[str, int]]] = []  # (n, seq, kept, worth)
        self.last: tuple[int, int, bool, dict[str, int] | Callable[[], dict[str, int]]] | None \
            = None
        self.bankrupt: set[str] = set()
        self.sampled_count = 0  # points kept by the stride, not for a bankruptcy

    def add(self, step) -> None:
        """The point after one command (a `projections.readings.replay.Step`)."""
        st = step.after
        # the worth is worked out only for a point kept (one command in `stride`, and the
        # last): it was a fifth of a long game's page
        self.add_point(step.last_seq,
                       lambda: {p.name: 0 if p.bankrupt else net_worth(st, p.name)
                                for p in st.players},
                       {p.name for p in st.players if p.bankrupt})

    def add_point(self, seq: int, worth: dict[str, int] | Callable[[], dict[str, int]],
                  out: set[str]) -> None:
        """The point after the next command: its last event, each player's net worth (or what
        gives it, called only if the point is kept), the players out of the game by then."""
        n = self.count
        self.count += 1
        kept = bool(out - self.bankrupt)  # a bankruptcy: always on the chart
        self.bankrupt |= out
        if n % self.stride == 0 or kept:
            if callable(worth):
                worth = worth()
            self.points.append((n, seq, kept, worth))
            self.sampled_count += not kept
        self.last = (n, seq, kept, worth)
        # the count of sampled points is kept, not recounted: a recount after every command
        # made a long game's report quadratic (issue 21); a thinning is a pass, log n of them
        while self.sampled_count > self.limit:
            self.stride *= 2
            self.points = [q for q in self.points if q[0] % self.stride == 0 or q[2]]
            self.sampled_count = sum(1 for q in self.points if not q[2])

    @property
    def sampled(self) -> bool:
        return self.count > self.limit

    def series(self) -> tuple[list[int], dict[str, list[int]]]:
        chosen = list(self.points)
        if self.last is not None and (not chosen or chosen[-1][0] != self.last[0]):
            n, seq, kept, worth = self.last
            chosen.append((n, seq, kept, worth() if callable(worth) else worth))
        xs = [q[1] for q in chosen]
        ys: dict[str, list[int]] = {}
        for q in chosen:
            for name, worth in q[3].items():
                ys.setdefault(name, []).append(worth)
        return xs, ys


def worth_chart(all_steps, state: State, tr=None) -> str:
    """Each player's net worth after every command, as an inline SVG line chart."""
    sampler = all_steps if isinstance(all_steps, WorthSampler) else _sampled(all_steps)
    xs, ys = sampler.series()
    w, h, left, bottom, top, right = 860, 300, 60, 30, 10, 10
    if not xs:
        return ""
    x0, x1 = xs[0], max(xs[-1], xs[0] + 1)
    low, high = chart_axis([y for v in ys.values() for y in v])

    def px(x):
        return left + (x - x0) * (w - left - right) / (x1 - x0)

    def py(y):
        return top + (h - top - bottom) * (1 - (y - low) / (high - low))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" '
           f'role="img" aria-label="{escape(_say(tr, "net worth of each player over the game"))}">']
    for i in range(5):  # a light grid, with amounts
        y = low + (high - low) * i / 4
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" '
                   f'stroke="#eee"/><text x="{left - 4}" y="{py(y) + 4:.1f}" font-size="10" '
                   f'text-anchor="end" fill="#777">{_money(state, round(y))}</text>')
    out.append(f'<text x="{w - right}" y="{h - 8}" font-size="10" text-anchor="end" '
               f'fill="#777">{_say(tr, "event {seq}", seq=x1)}</text><text x="{left}" '
               f'y="{h - 8}" font-size="10" fill="#777">{_say(tr, "event {seq}", seq=x0)}</text>')
    for i, (name, values) in enumerate(ys.items()):
        colour = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
        points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, values, strict=True))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" '
                   f'points="{points}"><title>{escape(name)}</title></polyline>')
    out.append("</svg>")
    legend = "".join(f'<span><i class="swatch" style="background:'
                     f'{PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}"></i>{escape(n)}</span>'
                     for i, n in enumerate(ys))
    return "\n".join(out) + f'<div class="legend">{legend}</div>'


def chart_axis(values: list[int]) -> tuple[int, int]:
    """The chart's amounts, from a round figure under the lowest worth to one over the
    highest: drawn from 0, four players near 1500 M were one line over another (issue 20)."""
    lo, hi = min(values, default=0), max(values, default=1)
    spread = max(hi - lo, 1)
    step = 10 ** max(len(str(spread // 4)) - 1, 0)  # a round figure of the spread's size
    low = (lo - spread // 10) // step * step
    if lo >= 0:
        low = max(low, 0)  # no negative amounts on the axis of a game that had none
    high = -(-(hi + spread // 10) // step) * step
    return low, max(high, low + 1)


def _say(tr, template: str, **params) -> str:
    """A message of the page in the language of `tr` (a gettext catalog; English without)."""
    return render(msg(template, **params), tr)


def board_html(state: State, tr=None, centre: str = "") -> str:
    """The 40 spaces around the edge; `centre`: what the board's middle shows under the
    edition's title (the report puts the standings there)."""
    colours = {p.name: PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
               for i, p in enumerate(state.players)}
    group_colour = {}
    for lots in state.edition.groups.values():
        for pos in lots:
            group_colour[pos] = GROUP_COLOURS.get(min(lots), "#ccc")
    cells = []
    for space in state.edition.spaces:
        row, col = board_cell(space.position)
        band = (f'<div class="band" style="background:{group_colour[space.position]}"></div>'
                if space.position in group_colour else "")
        bits = [f'<div>{escape(space.name)}</div>']
        owner = state.owners[space.position] if space.is_property else None
        if owner:
            bits.append(f'<div class="own" style="color:{colours[owner]}">{escape(owner)}</div>')
        level = state.buildings[space.position]
        if level:
            bits.append(f"<div>{_buildings(level, tr)}</div>")
        if space.position in state.mortgaged:
            bits.append(f'<div class="mort">{_say(tr, "mortgaged")}</div>')
        here = [p.name for p in state.players if p.position == space.position and not p.bankrupt]
        if here:
            bits.append(f'<div title="{_say(tr, "tokens here")}">&#9679; '
                        f'{escape(", ".join(here))}</div>')
        cells.append(f'<div class="sq" id="sq{space.position}" style="grid-row:{row};'
                     f'grid-column:{col}">{band}{"".join(bits)}</div>')
    cells.append(f'<div class="centre"><div><div class="title">{escape(state.edition.title)}'
                 f'</div>{centre}</div></div>')
    return f'<div class="board">{"".join(cells)}</div>'


def _buildings(level: int, tr=None) -> str:
    if level == 5:
        return _say(tr, "hotel")
    return render(plural("{n} house", "{n} houses", level), tr)


def _link(seq: int) -> str:
    return f'<a class="seq" href="#e{seq}">#{seq}</a>'


def _sampled(all_steps) -> WorthSampler:
    sampler = WorthSampler()
    for s in all_steps:
        sampler.add(s)
    return sampler


def step_items(s, undone: set[int], describe, tr=None) -> tuple[list[str], list[str]]:
    """One command's entries of the timeline, and those of them that are highlights."""
    items, marks = [], []
    line = escape(s.line) if s.line else _say(tr, "(no line recorded)")
    # the command's own row (CommandRecorded) is its anchor; rows from before commands
    # were recorded have none, and their first fact holds the anchor
    own = s.events[0]["seq"] != s.first_seq if s.events else True
    anchor = f' id="e{s.first_seq}"' if own else ""
    items.append(f'<li class="cmd"{anchor}>{_link(s.first_seq)}&gt; {line}</li>')
    for e in s.events:
        # the plain entry (no highlight, not undone, no reference) written at once: the page
        # has one entry an event, and these are nearly all of them
        seq, t = e["seq"], e["type"]
        kind = HIGHLIGHTS.get(t, "")
        text = escape(describe(e, s.after))
        if not kind and seq not in undone and t not in _REFERRING:
            items.append(f'<li id="e{seq}"><a class="seq" href="#e{seq}">#{seq}</a>{text}</li>')
            continue
        classes = " ".join(c for c in (kind, "undone" if seq in undone else "") if c)
        refs = _references(e, tr)
        tag = f'<span class="tag">{escape(render(TAGS[kind], tr))}</span>' if kind else ""
        cls = f' class="{classes}"' if classes else ""
        items.append(f'<li id="e{seq}"{cls}>{_link(seq)}{tag}{text}{refs}</li>')
        if kind:
            marks.append(f'<li class="{kind}">{_link(seq)}{tag}{text}{refs}</li>')
    return items, marks


_REFERRING = frozenset({"RulingRecorded", "EventRetracted", "RentClaimRefused"})


def _references(event: dict, tr=None) -> str:
    """Links from an event to the events it speaks of."""
    d = event["data"]
    seqs = []
    if event["type"] == "RulingRecorded":
        seqs = [d["subject_seq"]]
    elif event["type"] == "EventRetracted":
        seqs = list(d["seqs"])
    elif event["type"] == "RentClaimRefused":
        seqs = [d["opened_seq"], d["lapsed_seq"]]
    if not seqs:
        return ""
    return " <span>(" + ", ".join(f'<a href="#e{s}">{_say(tr, "event {seq}", seq=s)}</a>'
                                  for s in seqs) + ")</span>"


class _Counted:
    """A game's rows as `steps` reads them (once or more), counted, the first and last kept."""

    def __init__(self, rows: Iterable[dict]):
        self.rows = rows
        self.count = 0
        self.first: dict | None = None
        self.last: dict | None = None

    def __iter__(self) -> Iterator[dict]:
        self.count, self.first = 0, None
        for e in self.rows:
            self.count += 1
            if self.first is None:
                self.first = e
            self.last = e
            yield e


def report_html(events: list[dict], game_id: int, describe, *, head: str,
                local_time=lambda t: t, tr=None, lang: str = "en",
                audit: AuditVerdict | None = None) -> str:
    """The page, as one string; its words in the language of `tr` (English without)."""
    out = io.StringIO()
    write_report(out, events, game_id, describe, head=head, local_time=local_time, tr=tr,
                 lang=lang, audit=audit)
    return out.getvalue()


class _Tally:
    """A text file that counts the characters written to it (the page's size, as it goes)."""

    def __init__(self, f: IO[str]):
        self.f, self.chars = f, 0

    def write(self, text: str) -> None:
        self.chars += len(text)
        self.f.write(text)


def write_report(out: IO[str], rows: Iterable[dict], game_id: int, describe, *,
                 head: str | None = None, undone: set[int] | None = None,
                 local_time=lambda t: t, tr=None, lang: str = "en",
                 spool: Callable[[], IO[str]] = io.StringIO,
                 walk: Callable[[Iterable[dict]], Iterable] | None = None,
                 audit: AuditVerdict | None = None
                 ) -> tuple[int, int]:
    """Write the page to `out`; (characters written, events).  `rows`: the game's rows in seq
    order.  `walk(rows)`: the game's steps (`projections.readings.replay.steps`) from them; by default
    `steps(rows, game_id)`, which reads a list, or an iterable that reads the book again each
    time, more than once.  `undone`: the seqs the game's undos took back (None: found in
    `rows`, a list).  `head`: the hash shown (None: the last row's).  `spool`: a new empty
    text file the timeline waits in while the rest is gathered (a temporary file for a long
    game).  `audit`: the game's audit verdict, shown under the head (None: not shown)."""
    if undone is None:
        undone = {s for e in rows if e["type"] == "EventRetracted" for s in e["data"]["seqs"]}
    counted = _Counted(rows)
    chart = WorthSampler()
    final = None
    with spool() as timeline, spool() as highlights:
        timeline.write('<ol class="timeline">')
        for s in (walk or (lambda r: steps(r, game_id, changes=False)))(counted):
            items, marks = step_items(s, undone, describe, tr)
            timeline.write("".join(items))
            highlights.write("".join(marks))
            chart.add(s)
            final = s.after
        timeline.write("</ol>")
        page = _Tally(out)
        for part in _page_head(final, chart, counted, game_id, head, local_time, tr, lang,
                               audit):
            page.write(part + "\n")
        if highlights.tell():
            page.write('<ol class="timeline" id="highlights">')
            _copy(highlights, page)
            page.write("</ol>\n")
        else:
            page.write(f"<p>{_say(tr, 'none in this game')}</p>\n")
        page.write(f"<h2>{_say(tr, 'Timeline')}</h2>\n")
        _copy(timeline, page)
        page.write("\n<p><small>" + _say(tr, "banco report of game {game}; every event is "
                                              "anchored as #e&lt;seq&gt;; `banco show SEQ` "
                                              "prints one in full.", game=game_id)
                   + "</small></p>\n</body></html>\n")
    return page.chars, counted.count


def _copy(spooled: IO[str], page: _Tally, size: int = 1 << 16) -> None:
    spooled.seek(0)
    while chunk := spooled.read(size):
        page.write(chunk)


def _page_head(final: State, chart: WorthSampler, rows: _Counted, game_id: int,
               head: str | None, local_time, tr, lang: str,
               audit: AuditVerdict | None = None) -> list[str]:
    """The page up to the highlights' list: the final table, the standings, the chart, the
    board and the deeds, one part a line."""
    head = rows.last["hash"] if head is None else head
    rows_ = standings(final)
    colours = {p.name: PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
               for i, p in enumerate(final.players)}
    title = _say(tr, "Game {game}: {players} — {rules} rules, {edition}", game=game_id,
                 players=", ".join(final.seats), rules=shown(final.rules),
                 edition=final.edition.title)
    heads = [_say(tr, w) for w in ("player", "cash", "net worth", "where", "deeds", "status")]
    table = [f'<table id="final"><tr><th>{heads[0]}</th><th class="n">{heads[1]}</th>'
             f'<th class="n">{heads[2]}</th><th>{heads[3]}</th><th class="n">{heads[4]}</th>'
             f'<th>{heads[5]}</th></tr>']
    statuses = {"bankrupt": word("status", "bankrupt"), "winner": word("status", "winner"),
                "in jail": word("status", "in jail"), "in play": word("status", "in play")}
    for p in final.players:
        status = render(statuses["bankrupt" if p.bankrupt else "winner"
                                 if final.winner == p.name else "in jail" if p.in_jail
                                 else "in play"], tr)
        worth = 0 if p.bankrupt else net_worth(final, p.name)
        table.append(
            f'<tr data-player="{escape(p.name)}"><td><i class="swatch" style="background:'
            f'{colours[p.name]}"></i>{escape(p.name)}</td>'
            f'<td class="n cash" data-cash="{p.cash}">{_money(final, p.cash)}</td>'
            f'<td class="n">{_money(final, worth)}</td>'
            f'<td>{escape(final.edition.space(p.position).name)}</td>'
            f'<td class="n">{len(deeds_of(final, p.name))}</td><td>{status}</td></tr>')
    table.append("</table>")
    ranking = "".join(
        f'<li>{_say(tr, "{player}: {status}, net worth {amount}", player=escape(r["name"]), status=render(statuses.get(r["status"], r["status"]), tr), amount=_money(final, r["net_worth"]))}</li>'
        for r in rows_)
    started, last = rows.first["recorded_at"], rows.last["recorded_at"]
    outcome = (_say(tr, "game over: {player} wins", player=escape(final.winner or "nobody"))
               if final.ended else
               _say(tr, "in progress: {player} to play", player=escape(final.turn.player)))
    deeds = []
    for p in final.players:
        mine = [final.edition.space(x).name for x in deeds_of(final, p.name)]
        if mine:
            deeds.append(f"<li>{escape(p.name)}: {escape(', '.join(mine))}</li>")
    bank = [final.edition.space(x).name for x, o in enumerate(final.owners)
            if o is None and final.edition.space(x).is_property]
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8">',
        # Nothing may be loaded: not a script, a font, an image from the network.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        "<p>" + _say(tr, "{outcome}. {count} events from {start} to {end}.", outcome=outcome,
                     count=rows.count, start=escape(local_time(started)),
                     end=escape(local_time(last))) + "</p>",
        f'<p class="head">{_say(tr, "head")} {escape(head)} (banco/{game_id}/'
        f'{rows.last["seq"]}/{escape(head[:12])})</p>',
        *([audit_html(audit, tr)] if audit is not None else []),
        (f"<h2>{_say(tr, 'The table at the end')}</h2>" if final.ended else
         f"<h2>{_say(tr, 'The table after event {seq}: the game goes on', seq=rows.last['seq'])}"
         "</h2>"), "".join(table),
        f'<h2>{_say(tr, "Standings")}</h2><ol id="standings">{ranking}</ol>',
        f"<h2>{_say(tr, 'Net worth over the game')}</h2>",
        "<p>" + (_say(tr, "cash + deeds at price (mortgaged at half) + buildings at cost, "
                          "after each command") if not chart.sampled else
                 _say(tr, "cash + deeds at price (mortgaged at half) + buildings at cost, "
                          "sampled: after one command in {stride} ({points} points of "
                          "{commands} commands), the last one and every bankruptcy",
                      stride=chart.stride, points=len(chart.series()[0]),
                      commands=chart.count)) + "</p>",
        worth_chart(chart, final, tr),
        f"<h2>{_say(tr, 'The board')}</h2>", board_html(final, tr, f'<ol class="mid">{ranking}</ol>'),
        f"<h3>{_say(tr, 'Deeds')}</h3><ul>{''.join(deeds)}<li>"
        + _say(tr, "the Bank: {deeds}", deeds=escape(", ".join(bank)) or _say(tr, "none"))
        + "</li></ul>",
        f"<h2>{_say(tr, 'Rulings, corrections, late claims and undos')}</h2>",
    ]
    return parts
