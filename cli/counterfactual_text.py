"""`replay --rules NAME` in words: where the other rule set first parts from the game, then the
final tables and the standings side by side."""

from __future__ import annotations

from cli.render import describe
from projections.accounts import standings


def _facts(events, state, indent="      ") -> list[str]:
    if not events:
        return [f"{indent}(no fact)"]
    return [indent + describe(e, state) for e in events]


def _divergence(d, result, title: str) -> list[str]:
    a, b = result.recorded_rules.name, result.other_rules.name
    seqs = f"events {d.seqs[0]}-{d.seqs[1]}" if d.seqs[0] != d.seqs[1] else f"event {d.seqs[0]}"
    lines = [f"{title}: command #{d.step} ({seqs}): `{d.line}`" if d.line
             else f"{title}: command #{d.step} ({seqs})",
             f"  recorded under {a}:"]
    lines += _facts(d.recorded, result.recorded_final)
    lines.append(f"  under {b}:")
    if d.refused:
        lines.append(f"      refused: {d.refused.splitlines()[0]}")
    else:
        lines += _facts(d.other, result.other_final)
    return lines


def counterfactual_lines(result, game: int) -> list[str]:
    a, b = result.recorded_rules.name, result.other_rules.name
    lines = [f"game {game} re-run under {b} (recorded under {a}); nothing is written",
             f"commands re-run: {result.commands} of {result.total}"]
    if result.divergence is None:
        lines.append(f"no divergence: every command gives the same facts under {b}")
    else:
        lines += _divergence(result.divergence, result, "first divergence")
    for d in result.skipped:
        lines.append(f"skipped (refused under {b}): #{d.step} `{d.line}`: "
                     f"{d.refused.splitlines()[0]}")
    if result.stopped is not None:
        if result.stopped is not result.divergence:
            lines += _divergence(result.stopped, result, "stopped")
        lines.append(f"stopped there: the {b} rules refuse `{result.stopped.line}`, and what "
                     f"follows was played on a table {b} would not have had (--skip-refused "
                     "skips such commands and goes on)")
    ra, rb = result.recorded_final, result.other_final
    lines.append("")
    if result.stopped is not None:
        lines.append(f"the tables before command #{result.stopped.step} (the recorded game at "
                     f"event {ra.seq}, {b} after the same commands):")
    else:
        lines.append(f"the final tables (the recorded game at event {ra.seq}, {b} after every "
                     "command):")
    cur = ra.edition.currency
    lines.append(f"  {'player':<12}{a:>14}{b:>14}   {'cash':>6} / {'cash':<6}  deeds")
    sa = {r["name"]: r for r in standings(ra)}
    sb = {r["name"]: r for r in standings(rb)}
    for p in ra.seats:
        x, y = sa[p], sb[p]
        worth_a = "bankrupt" if x["status"] == "bankrupt" else f"{x['net_worth']} {cur}"
        worth_b = "bankrupt" if y["status"] == "bankrupt" else f"{y['net_worth']} {cur}"
        lines.append(f"  {p:<12}{worth_a:>14}{worth_b:>14}   {x['cash']:>6} / {y['cash']:<6}  "
                     f"{x['deeds']} / {y['deeds']}")
    lines.append("  (net worth: cash + deeds at price, mortgaged at half + buildings at cost)")
    lines.append("standings:")
    for ra_row, rb_row in zip(standings(ra), standings(rb), strict=True):
        lines.append(f"  {ra_row['rank']}. {ra_row['name']:<12} {a:<10}  |  "
                     f"{rb_row['rank']}. {rb_row['name']:<12} {b}")
    if ra.ended or rb.ended:
        lines.append(f"winner: {ra.winner or '-'} under {a}; {rb.winner or '-'} under {b}")
    return lines
