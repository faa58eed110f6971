"""click's own help and words in the user's language: a command's help, its options' help
and its usage line put in the current language (cli/words/i18n.py), and the msgids of what
click says itself.  Kept apart from i18n.py, whose words the phones' server and the
readings say without click."""

from __future__ import annotations

import functools
import re

import click

from banco.cli.words.i18n import N_, NN_, NP_, SOURCE, _, door, language, pgettext, say_os_error

_ORIGINAL = "_banco_english"


# The words of the usage lines (`[OPTIONS] BIDDER AMOUNT`), said in the user's language: a
# metavar is translated word by word, so that `[DEBTOR] [--lift PROPERTY...]` keeps its shape.
METAVAR_WORDS = [
    NP_("metavar", "OPTIONS"), NP_("metavar", "COMMAND"), NP_("metavar", "ARGS"),
    NP_("metavar", "ACCOUNT"), NP_("metavar", "AMOUNT"), NP_("metavar", "BIDDER"),
    NP_("metavar", "CARD"), NP_("metavar", "DEBTOR"), NP_("metavar", "DECK"),
    NP_("metavar", "GAMES"), NP_("metavar", "KEY"), NP_("metavar", "KIND"),
    NP_("metavar", "NAME"), NP_("metavar", "OWNER"), NP_("metavar", "PLAYER"),
    NP_("metavar", "PLAYERS"), NP_("metavar", "PREFIX"), NP_("metavar", "PROPERTY"),
    NP_("metavar", "PRICE"), NP_("metavar", "TIME"), NP_("metavar", "SPACE"),
    NP_("metavar", "SPACES"), NP_("metavar", "TEXT"), NP_("metavar", "TRANSCRIPT"),
    NP_("metavar", "TYPE"), NP_("metavar", "WORDS"), NP_("metavar", "INTEGER"),
    # a card's choice, typed as is (`carta probabilita 11 paga`): the words themselves
    NP_("metavar", "pay"), NP_("metavar", "draw"),
]
_METAVAR_WORD = re.compile(r"\b(?:[A-Z][A-Z]+|pay|draw)\b")


def say_metavar(text: str) -> str:
    if not text or language() == SOURCE:
        return text
    return _METAVAR_WORD.sub(lambda m: pgettext("metavar", m.group(0)), text)


def _make_metavar(param, ctx):
    return say_metavar(type(param).make_metavar(param, ctx))


def _said_help_record(param, option_names: dict[str, str], ctx):
    """An option's line of help with its name in the user's language first, where it has one
    (`--al, --at SEQ|ORA`): the Italian help's text says `--al`, its messages say `--arbitro`,
    and both names are accepted (cli/command_table.py's english_option_words)."""
    record = type(param).get_help_record(param, ctx)
    if record is None or language() == SOURCE:
        return record
    said = [option_names[o] for o in param.opts if o in option_names]
    return (", ".join([*said, record[0]]), record[1]) if said else record


def localize(command, option_names: dict[str, str] | None = None) -> None:
    """Put a click command's help, and its options' help, in the current language (the English
    texts are the msgids; kept aside so that a later language change starts from them).
    `option_names`: an option's name in Italian (English -> Italian), listed before the English
    name in the Italian help.
    A command already said in this language is left as it is: the web server and the shell
    run a line after another in one language, and doing it again cost a line milliseconds."""
    said_in = _ORIGINAL + "_language"
    said = (language(), door())  # a help said in the shell names its words without `banco`
    if getattr(command, said_in, None) == said:
        return
    setattr(command, said_in, said)
    if getattr(command, "_help_option", None) is not None:
        command._help_option = None  # click made it in an earlier run's language: make anew
    metavars = getattr(command, _ORIGINAL + "_metavars", None)
    if metavars is None:
        metavars = {a: getattr(command, a, None) for a in ("options_metavar",
                                                           "subcommand_metavar")}
        setattr(command, _ORIGINAL + "_metavars", metavars)
    for attr, text in metavars.items():
        if text:
            setattr(command, attr, say_metavar(text))
    for p in command.params:  # said at the moment the usage is written, in its language
        if "make_metavar" not in vars(p):
            p.make_metavar = functools.partial(_make_metavar, p)
        if type(p.type) is click.File:
            p.type = _said_file(p.type)
        if option_names and "get_help_record" not in vars(p) \
                and any(o in option_names for o in getattr(p, "opts", ())):
            p.get_help_record = functools.partial(_said_help_record, p, option_names)
    for obj, attrs in [(command, ("help", "short_help", "epilog")),
                       *((p, ("help",)) for p in command.params)]:
        english = getattr(obj, _ORIGINAL, None)
        if english is None:
            english = {a: getattr(obj, a, None) for a in attrs}
            setattr(obj, _ORIGINAL, english)
        for attr, text in english.items():
            if text:
                setattr(obj, attr, _help(text))


class _SaidFile(click.File):
    """click.File whose failure to open gives the system's reason in the user's language:
    click writes `'x.banco': No such file or directory` with the strerror as it comes."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            cause = exc.__context__  # click fails inside its `except OSError`
            if not isinstance(cause, OSError) or not cause.strerror:
                raise
            said = exc.message.removesuffix(cause.strerror) + say_os_error(cause.strerror)
            self.fail(said, param, ctx)


def _said_file(kind: click.File) -> click.File:
    return _SaidFile(mode=kind.mode, encoding=kind.encoding, errors=kind.errors,
                     lazy=kind.lazy, atomic=kind.atomic)


def _help(text: str) -> str:
    import inspect

    # click shows help cleaned up; the catalog holds the cleaned text
    cleaned = inspect.cleandoc(text)
    head, sep, tail = cleaned.partition("\f")  # click's cut: what follows \f is not shown
    return _(head) + sep + tail


# click's own words, which its help and errors say through the global gettext domain (the
# msgids exactly as click 8 writes them)
CLICK_WORDS = [
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Show this message and exit."),
    N_("Show the version and exit."), N_("Error: {message}"), N_("integer"),
    N_("Try '{command} {option}' for help."),
    N_("No such option {name!r}."), N_("No such command {name!r}."), N_("Missing argument"),
    N_("Missing option"), N_("Missing parameter"), N_("Missing command."),
    N_("Invalid value: {message}"), N_("Invalid value for {param_hint}: {message}"),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("Aborted!"), N_("default: {default}"), N_("env var: {var}"), N_("Positional arguments"),
    NN_("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    NN_("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    NN_("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
    NN_("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
]
