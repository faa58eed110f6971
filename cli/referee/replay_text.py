"""The game as a referee reads it, command by command: what `replay` prints, the shell's replay
steps and `export --format text` (projections/readings/replay.py computes the steps).  Said in the
user's language (cli/words/i18n.py)."""

from __future__ import annotations

from banco.cli.words.facts import describe, local_time
from banco.cli.words.i18n import _, ngettext, pgettext
from banco.cli.words.table_text import PHASES
from banco.ledger.table.state import BANK


def _who(name: str) -> str:
    return _("Bank") if name == BANK else name


def _level(n: int) -> str:
    if n == 0:
        return _("no buildings")
    if n == 5:
        return _("a hotel")
    return ngettext("{n} house", "{n} houses", n).format(n=n)


def change_lines(step) -> list[str]:
    """What the command changed on the table, a line per kind of change."""
    ch, st = step.changes, step.after
    cur = st.edition.currency
    name = st.edition.space
    out = []
    if "cash" in ch:
        out.append(_("cash: {changes}").format(
            changes=", ".join(f"{p} {d:+} {cur}" for p, d in ch["cash"].items())))
    for m in ch.get("moves", ()):
        out.append(f"{m['player']}: {name(m['from']).name} -> {name(m['to']).name}")
    for j in ch.get("jail", ()):
        out.append((_("{player} goes to jail") if j["in_jail"] else _("{player} leaves jail"))
                   .format(player=j["player"]))
    for p, d in ch.get("jail_cards", {}).items():
        out.append(ngettext("{player}: {d} get-out-of-jail card",
                            "{player}: {d} get-out-of-jail cards", abs(d))
                   .format(player=p, d=f"{d:+}"))
    for d in ch.get("deeds", ()):
        out.append(_("deed: {name} {giver} -> {receiver}").format(
            name=d["name"], giver=_who(d["from"]), receiver=_who(d["to"])))
    for b in ch.get("buildings", ()):
        out.append(_("buildings: {name} {before} -> {after}").format(
            name=b["name"], before=_level(b["from"]), after=_level(b["to"])))
    for m in ch.get("mortgages", ()):
        out.append((_("mortgaged: {name}") if m["mortgaged"] else _("mortgage lifted: {name}"))
                   .format(name=m["name"]))
    if "bank" in ch:
        words = {"houses": _("houses"), "hotels": _("hotels")}
        out.append(_("Bank's stock: {changes}").format(
            changes=", ".join(f"{words.get(k, k)} {v:+}" for k, v in ch["bank"].items())))
    for p in ch.get("bankrupt", ()):
        out.append(_("{player} is out of the game").format(player=p))
    if "ended" in ch:
        out.append(_("game over: {player} wins").format(player=ch["ended"]["winner"])
                   if ch["ended"]["winner"] else _("game over: a tie"))
    elif "turn" in ch:
        phase = ch["turn"]["phase"]
        out.append(_("turn: {player} ({phase}{doubles})").format(
            player=ch["turn"]["player"], phase=_(PHASES[phase]) if phase in PHASES else phase,
            doubles=""))
    return out


def step_lines(step) -> list[str]:
    first, last = step.seqs
    seqs = (_("event {seq}").format(seq=first) if first == last
            else _("events {first}-{last}").format(first=first, last=last))
    what = (f"> {step.line}" if step.line
            else _("(no line recorded: written before banco kept them)"))
    who = "" if step.actor in ("", "banker") else f"  [{step.actor}]"
    lines = [f"#{step.number:<4} {seqs:<15} {local_time(step.recorded_at)}{who}", f"  {what}"]
    for e in step.events:
        if e["type"] == "CommandRecorded":
            continue
        lines.append(f"    {e['seq']:>5}  {describe(e, step.after)}")
    if step.taken_back_by is not None:
        lines.append("    " + _("(taken back by the undo at event {seq}; kept in the log)")
                     .format(seq=step.taken_back_by))
    changed = change_lines(step)
    if changed:
        head = "  " + _("changed:") + " "
        lines.append(head + changed[0])
        lines.extend(" " * len(head) + c for c in changed[1:])
    return lines


def header_lines(state, game: int) -> list[str]:
    players = ", ".join(state.seats)
    return [_("game {game}: {players}; rules {rules}, edition {edition}").format(
        game=game, players=players, rules=pgettext("rule set", state.rules.name),
        edition=state.edition.name)]
