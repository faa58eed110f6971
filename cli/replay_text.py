"""The game as a referee reads it, command by command: what `replay` prints, the shell's replay
steps and `export --format text` (projections/replay.py computes the steps)."""

from __future__ import annotations

from cli.render import describe, local_time
from ledger.state import BANK

LEVELS = {0: "no buildings", 5: "a hotel"}


def _who(name: str) -> str:
    return "Bank" if name == BANK else name


def _level(n: int) -> str:
    return LEVELS.get(n, f"{n} house{'s' if n > 1 else ''}")


def change_lines(step) -> list[str]:
    """What the command changed on the table, a line per kind of change."""
    ch, st = step.changes, step.after
    cur = st.edition.currency
    name = st.edition.space
    out = []
    if "cash" in ch:
        out.append("cash: " + ", ".join(f"{p} {d:+} {cur}" for p, d in ch["cash"].items()))
    for m in ch.get("moves", ()):
        out.append(f"{m['player']}: {name(m['from']).name} -> {name(m['to']).name}")
    for j in ch.get("jail", ()):
        out.append(f"{j['player']} {'goes to' if j['in_jail'] else 'leaves'} jail")
    for p, d in ch.get("jail_cards", {}).items():
        out.append(f"{p}: {d:+} get-out-of-jail card{'s' if abs(d) > 1 else ''}")
    for d in ch.get("deeds", ()):
        out.append(f"deed: {d['name']} {_who(d['from'])} -> {_who(d['to'])}")
    for b in ch.get("buildings", ()):
        out.append(f"buildings: {b['name']} {_level(b['from'])} -> {_level(b['to'])}")
    for m in ch.get("mortgages", ()):
        out.append(f"{'mortgaged' if m['mortgaged'] else 'mortgage lifted'}: {m['name']}")
    if "bank" in ch:
        out.append("Bank's stock: " + ", ".join(f"{k} {v:+}" for k, v in ch["bank"].items()))
    for p in ch.get("bankrupt", ()):
        out.append(f"{p} is out of the game")
    if "ended" in ch:
        out.append(f"game over: {ch['ended']['winner'] or 'nobody'} wins")
    elif "turn" in ch:
        out.append(f"turn: {ch['turn']['player']} ({ch['turn']['phase']})")
    return out


def step_lines(step) -> list[str]:
    first, last = step.seqs
    seqs = f"event {first}" if first == last else f"events {first}-{last}"
    what = f"> {step.line}" if step.line else "(no line recorded: written before banco kept them)"
    who = "" if step.actor in ("", "banker") else f"  [{step.actor}]"
    lines = [f"#{step.number:<4} {seqs:<15} {local_time(step.recorded_at)}{who}", f"  {what}"]
    for e in step.events:
        if e["type"] == "CommandRecorded":
            continue
        lines.append(f"    {e['seq']:>5}  {describe(e, step.after)}")
    if step.taken_back_by is not None:
        lines.append(f"    (taken back by the undo at event {step.taken_back_by}; kept in the "
                     "log)")
    changed = change_lines(step)
    if changed:
        lines.append("  changed: " + changed[0])
        lines.extend("           " + c for c in changed[1:])
    return lines


def header_lines(state, game: int) -> list[str]:
    players = ", ".join(state.seats)
    return [f"game {game}: {players}; rules {state.rules.name}, edition {state.edition.name}"]
