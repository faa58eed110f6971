"""A line whose shape its word does not take (`compra Anna`, `riscuoti`, `roll 1 2 --foo`), said
by the library as the command line and the shell say it: click's words for the mistake (which
rule of the line), the word's usage (what it takes) and the hint for a word given more than
it takes (what was most likely meant), in the caller's language, rendered per call.  Only the
door's own advice differs: the command line's `banco WORD --help` and the shell's `help WORD`
are theirs; a phone's line and a script get the usage alone.  No click here: the words are
click's msgids (cli/words/click_words.py), the usage is read from the table of words
(cli/lines/vocabulary.py)."""

from __future__ import annotations

import gettext
import re

from banco.cli.lines.parse import LineShape, metavar
from banco.cli.words.extra_words import EXTRA_ARGUMENT_HINTS
from banco.cli.words.i18n import N_
from banco.ledger.base.errors import UsageError

WHY_LINE = N_("{why}: `{line}`")  # the mistake, then the line it is in
_METAVAR_WORD = re.compile(r"\b(?:[A-Z][A-Z]+|pay|draw)\b")  # as click_words.say_metavar


def usage(spec) -> str:
    """The word's arguments as click's usage line shows them: `[OPTIONS] BIDDER AMOUNT`."""
    pieces = ["[OPTIONS]"]
    for arg in spec.args:
        shown = metavar(arg)
        if arg.metavar is None and arg.many:
            shown += "..."
        if not arg.required and arg.metavar is None:
            shown = f"[{shown}]"
        pieces.append(shown)
    return " ".join(pieces)


class ShapeRefused(UsageError):
    """A LineShape said in full: its English is str(), render(tr) says it in tr's language."""

    def __init__(self, shape: LineShape, line: str):
        self.shape, self.line = shape, line
        super().__init__("{said}", said=self._said(None))

    def render(self, tr=None) -> str:
        return self._said(tr)

    def _said(self, tr) -> str:
        tr = tr or gettext.NullTranslations()
        d, word = self.shape.detail, self.shape.word or ""
        if "extra" in d:
            extra = d["extra"]
            why = tr.ngettext("Got unexpected extra argument ({args})",
                              "Got unexpected extra arguments ({args})",
                              len(extra)).format(args=" ".join(extra))
        elif "missing" in d:
            why = f"{tr.gettext('Missing argument')} '{_metavar(d['missing'], tr)}'."
        elif "option" in d and "value" in d:  # an option's value (`--expect abc`)
            why = tr.gettext("Invalid value for {param_hint}: {message}").format(
                param_hint=repr(d["option"]),
                message=tr.gettext("{value!r} is not a valid {number_type}.").format(
                    value=d["value"], number_type=tr.gettext("integer")))
        elif "option" in d:
            why = tr.gettext("No such option {name!r}.").format(name=d["option"])
        elif "needs" in d:
            why = tr.ngettext("Option {name!r} requires an argument.",
                              "Option {name!r} requires {nargs} arguments.", 1).format(
                name=d["needs"], nargs=1)
        elif "choices" in d:
            choices = d["choices"]
            why = tr.ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.",
                              len(choices)).format(
                value=d["value"], choice=repr(choices[0]) if choices else "",
                choices=", ".join(map(repr, choices)))
        elif "value" in d:
            why = tr.gettext("{value!r} is not a valid {number_type}.").format(
                value=d["value"], number_type=tr.gettext("integer"))
        else:
            why = self.shape.why
        # click ends its sentence with a stop; the line follows it here
        lines = [tr.gettext(WHY_LINE).format(why=why.rstrip("."), line=self.line)]
        if self.shape.spec is not None:
            lines.append(f"  {tr.gettext('Usage:')} {word} "
                         f"{_metavar(usage(self.shape.spec), tr)}".rstrip())
            hint = EXTRA_ARGUMENT_HINTS.get(self.shape.spec.english)
            if hint and "extra" in d:
                lines.append("  " + tr.gettext(hint))
        return "\n".join(lines)


def _metavar(text: str, tr) -> str:
    """A usage's words in tr's language, word by word (`[OPZIONI] OFFERENTE IMPORTO`)."""
    return _METAVAR_WORD.sub(lambda m: tr.pgettext("metavar", m.group(0)), text)


def refused(error: LineShape, line: str) -> UsageError:
    """The library's refusal of a line of this shape."""
    return ShapeRefused(error, line)
