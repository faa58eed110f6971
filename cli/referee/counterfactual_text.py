"""`replay --rules NAME` in words: where the other rule set first parts from the game, then the
final tables and the standings side by side.  Said in the user's language (cli/words/i18n.py)."""

from __future__ import annotations

from collections.abc import Iterator

from banco.cli.words.facts import describe
from banco.cli.words.i18n import NP_, _, pgettext, translations
from banco.projections.readings.accounts import standings

BANKRUPT = NP_("status", "bankrupt")


def _facts(events, state, indent="      ") -> list[str]:
    if not events:
        return [indent + _("(no fact)")]
    return [indent + describe(e, state) for e in events]


def refused_text(d) -> str:
    """The other rules' refusal, its first line (the message and the rule it cites), in the
    user's language."""
    if d.refusal is not None:
        return d.refusal.render(translations(), _("allowed")).splitlines()[0]
    return d.refused.splitlines()[0]


def _names(result) -> tuple[str, str]:
    """The recorded and the other rule set, as the user's language names them."""
    return (pgettext("rule set", result.recorded_rules.name),
            pgettext("rule set", result.other_rules.name))


def _divergence(d, result, title: str) -> list[str]:
    a, b = _names(result)
    seqs = (_("events {first}-{last}").format(first=d.seqs[0], last=d.seqs[1])
            if d.seqs[0] != d.seqs[1] else _("event {seq}").format(seq=d.seqs[0]))
    lines = [_("{title}: command #{step} ({seqs}): `{line}`").format(
                 title=title, step=d.step, seqs=seqs, line=d.line) if d.line
             else _("{title}: command #{step} ({seqs})").format(title=title, step=d.step,
                                                                 seqs=seqs),
             "  " + _("recorded under {rules}:").format(rules=a)]
    lines += _facts(d.recorded, result.recorded_final)
    lines.append("  " + _("under {rules}:").format(rules=b))
    if d.refused:
        lines.append("      " + _("refused: {message}").format(message=refused_text(d)))
    else:
        lines += _facts(d.other, result.other_final)
    return lines


def skipped_line(result, step: int, line: str | None, said: str) -> str:
    """One command the other rules refused and the re-run skipped; `said`: the refusal's
    first line (`refused_text`)."""
    return _("skipped (refused under {rules}): #{step} `{line}`: {message}").format(
        rules=_names(result)[1], step=step, line=line, message=said)


def counterfactual_lines(result, game: int, skipped=None) -> Iterator[str]:
    """The re-run in words, a line at a time.  `skipped`: the skipped commands' lines
    (`skipped_line`), read when their turn comes (spooled by the caller); None: from
    `result.skipped`."""
    a, b = _names(result)
    lines = [_("game {game} re-run under {other} (recorded under {rules}); nothing is "
               "written").format(game=game, other=b, rules=a),
             _("commands re-run: {count} of {total}").format(count=result.commands,
                                                             total=result.total)]
    if result.divergence is None:
        lines.append(_("no divergence: every command gives the same facts under {rules}")
                     .format(rules=b))
    else:
        lines += _divergence(result.divergence, result, _("first divergence"))
    yield from lines
    lines = []
    if skipped is None:
        skipped = (skipped_line(result, d.step, d.line, refused_text(d)) for d in result.skipped)
    yield from skipped
    if result.stopped is not None:
        if result.stopped is not result.divergence:
            lines += _divergence(result.stopped, result, _("stopped"))
        lines.append(_("stopped there: the {rules} rules refuse `{line}`, and what follows was "
                       "played on a table {rules} would not have had (--skip-refused skips such "
                       "commands and goes on)").format(rules=b, line=result.stopped.line))
    ra, rb = result.recorded_final, result.other_final
    lines.append("")
    if result.stopped is not None:
        lines.append(_("the tables before command #{step} (the recorded game at event {seq}, "
                       "{rules} after the same commands):").format(
            step=result.stopped.step, seq=ra.seq, rules=b))
    else:
        lines.append(_("the final tables (the recorded game at event {seq}, {rules} after "
                       "every command):").format(seq=ra.seq, rules=b))
    cur = ra.edition.currency
    lines.append(f"  {_('player'):<12}{a:>14}{b:>14}   {_('cash'):>6} / {_('cash'):<6}  "
                 f"{_('deeds')}")
    sa = {r["name"]: r for r in standings(ra)}
    sb = {r["name"]: r for r in standings(rb)}
    for p in ra.seats:
        x, y = sa[p], sb[p]
        worth_a = (pgettext(*BANKRUPT) if x["status"] == "bankrupt"
                   else f"{x['net_worth']} {cur}")
        worth_b = (pgettext(*BANKRUPT) if y["status"] == "bankrupt"
                   else f"{y['net_worth']} {cur}")
        lines.append(f"  {p:<12}{worth_a:>14}{worth_b:>14}   {x['cash']:>6} / {y['cash']:<6}  "
                     f"{x['deeds']} / {y['deeds']}")
    lines.append("  " + _("(net worth: cash + deeds at price, mortgaged at half + buildings at "
                          "cost)"))
    lines.append(_("standings:"))
    for ra_row, rb_row in zip(standings(ra), standings(rb), strict=True):
        lines.append(f"  {ra_row['rank']}. {ra_row['name']:<12} {a:<10}  |  "
                     f"{rb_row['rank']}. {rb_row['name']:<12} {b}")
    if ra.ended or rb.ended:
        lines.append(_("winner: {winner} under {rules}; {other_winner} under {other}").format(
            winner=ra.winner or "-", rules=a, other_winner=rb.winner or "-", other=b))
    yield from lines
