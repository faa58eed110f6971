"""The shell's words and its help: the words it takes (the command line's, without `banco`,
and its own: `help`, `quit`, `game`, in Italian too) and what `help`, `help all` and
`help WORD` say, in the shell's language.  Apart from cli/banker/shell.py's loop, by
concept."""

from __future__ import annotations

from banco.cli.help_format import HelpContext
from banco.cli.words.i18n import N_, _
from banco.ledger.base.errors import UsageError
from banco.ledger.base.names import fold, shown

SHELL_WORDS = {"help": N_("the words, or `help WORD` for one word's usage"),
               "quit": N_("leave the shell (also `exit`, Ctrl-D, or Ctrl-C twice)"),
               "game": N_("`game N`: from now on, game N (`games` lists them)")}
# the shell's own words, in Italian too
SHELL_ITALIAN = {"aiuto": "help", "esci": "quit", "partita": "game"}
NOT_IN_SHELL = {"shell", "run", "serve"}
# the options `help WORD` leaves out inside the shell (its game, language and line ids)
SHELL_HIDES = frozenset({"db_after", "game_after", "lang", "command_key", "expect_seq"})


def words() -> list[str]:
    """Every word the shell takes, the Italian ones too (completed alike)."""
    from banco.cli.lines.vocabulary import WORDS

    said = [w for word in WORDS if word.english not in NOT_IN_SHELL
            for w in (word.english, word.italian) if w]
    return sorted(said) + sorted(SHELL_WORDS) + sorted(SHELL_ITALIAN)


def spoken() -> list[str]:
    """The shell's words in the session's language, for a suggestion (`aiuto trad` is not
    offered `trade`); Tab completes words() in both."""
    from banco.cli.command_table import spoken_words
    from banco.cli.words import i18n

    own = list(SHELL_WORDS) if i18n.language() == i18n.SOURCE else list(SHELL_ITALIAN)
    said = [w for w in spoken_words() if english(w) not in NOT_IN_SHELL]
    return said + [w for w in own if w not in said]  # `help` once: it was "help or help?"


def english(word: str) -> str:
    """The command an Italian word names (`compra` -> `buy`); any other word as it is."""
    from banco.cli.lines.vocabulary import ALIASES

    return ALIASES.get(word, word)


def in_shell_language(word: str) -> str:
    """A command's word in the shell's language, whichever language named it: `help roll` in
    an Italian shell is `tira`'s usage (it said `Uso: roll`), `help tira` in an English one
    `roll`'s."""
    from banco.cli.lines.vocabulary import BY_ENGLISH, english_word, italian_word
    from banco.cli.words import i18n

    named = english_word(word)  # caps lock is no other word (`ROLL`), as on the line
    if named not in BY_ENGLISH:
        return word
    return named if i18n.language() == i18n.SOURCE else italian_word(named)


def help_lines(arg: str, cli) -> list[str]:
    """`help`: the words by what the banker is doing (as `banco help`), with the shell's
    own; `help all`: every word with one line; `help WORD`: that word's usage, as `cli`, the
    command line's group (`banco shell`'s), describes it.  Raises UsageError for a WORD that
    is none."""
    import click

    from banco.cli.command_table import ALIASES, ALL_WORDS, ITALIAN_WORDS, grouped_help

    out: list[str] = []

    word = arg.strip().split(" ", 1)[0] if arg.strip() else ""
    ctx = click.Context(cli, info_name="banco")
    if not word:
        # its last line is for `banco`'s help; the words the shell refuses are not offered
        said = grouped_help(frozenset(NOT_IN_SHELL)).splitlines()[:-1]
        shell_words = " ".join(w for w, e in SHELL_ITALIAN.items()) \
            if _("Commands") != "Commands" else " ".join(SHELL_WORDS)
        out.append("\n".join(said[2:]))  # not the title: the prompt says where we are
        out.append(_("the shell: {words}").format(words=shell_words))
        out.append("")
        out.append(_("`help WORD`: one word's usage; `help all`: every word with its line."))
        return out
    if word.lower() in ALL_WORDS:

        # In Italian each word is listed by its Italian name first, `compra (buy)`, in the
        # order of the Italian names, as `banco aiuto` lists them
        speaking = _("Commands") != "Commands"
        italian = dict(ITALIAN_WORDS)  # the words shown: a former word is read, never listed
        italian.update({e: w for w, e in SHELL_ITALIAN.items()})
        entries, seen = [], set()
        for name in words():
            if name in SHELL_ITALIAN or (name in ALIASES and name not in italian) \
                    or name in seen:
                continue  # an Italian word: said beside its English one
            seen.add(name)
            label = f"{italian[name]} ({name})" if speaking and name in italian else name
            if name in SHELL_WORDS:
                entries.append((label, _(SHELL_WORDS[name])))
            else:
                command = cli.get_command(ctx, name)
                entries.append((label, command.get_short_help_str(limit=60)))
        if speaking:
            entries.sort(key=lambda e: fold(e[0]))
        width = max(len(label) for label, _h in entries) + 1
        out.append(_("words (the same as `banco WORD ...`; `help WORD` for one):"))
        for label, text in entries:
            out.append(f"  {label:<{width}} {text}")
        return out
    if word in SHELL_WORDS or word in SHELL_ITALIAN or word in ("exit", "?"):
        meaning = SHELL_WORDS.get(SHELL_ITALIAN.get(word, word), SHELL_WORDS["quit"])
        out.append(f"{word}: {_(meaning)}")
        return out
    if english(word) in NOT_IN_SHELL:
        out.append(_("`{word}` is not available inside the shell: use `banco {word}`").format(
            word=word))
        return out
    from banco.cli.lines.vocabulary import english_word

    command = cli.get_command(ctx, english_word(word))  # `ROLL` is `roll`, as on the line
    if command is None:
        import difflib

        close = difflib.get_close_matches(word, spoken(), n=3, cutoff=0.6)
        hint = (_(": did you mean {words}?").format(words=_(" or ").join(close)) if close
                else _("; `help` lists the words"))
        odd = next((ch for ch in word if not ch.isascii()), None)
        if odd is not None:  # `help rоll`, a Cyrillic о: the letter said, as on a line
            from banco.ledger.base.names import code_point

            hint = _(" (its {char!r} is {code}, no plain letter: a command word is typed in "
                     "a-z){hint}").format(char=odd, code=code_point(odd), hint=hint)
        # a mistake like any other: `error:`, on stderr, and a pipe's exit code (do_help)
        raise UsageError("no word {word!r}{hint}", word=shown(word), hint=hint)
    named = in_shell_language(word)
    typed = arg.split()
    if isinstance(command, click.Group) and len(typed) > 1:
        # `help ruling rent`, as a ruling's usage mistake points to it (`help rent` is no word)
        inner = command.get_command(ctx, typed[1].lower())
        if inner is not None:
            command, named = inner, f"{named} {typed[1].lower()}"
    # where and how a line is recorded is the shell's business, not the word's
    where = [p for p in command.params if p.name in SHELL_HIDES and not p.hidden]
    for p in where:
        p.hidden = True
    try:
        with HelpContext(command, info_name=named) as sub:
            out.append(command.get_help(sub))
    finally:
        for p in where:
            p.hidden = False
    return out


# `banco`'s own options, typed first on a shell line with no word after them (`--game 7`), or
# one banco never had (`--partita 7`): the shell's word for it, said (click said "Missing
# command" or "No such option '--partita'")
_GAME_OPTIONS = frozenset({"--game", "--partita"})


def option_first(words: list[str], cli) -> UsageError | None:
    """A line that starts with `--game N` or `--lang L` and says nothing more, or with `--id`
    or `--expect` (the options of a word that records, after it: `cli`, the command line's
    group, says which take them), or `--partita N`: what the shell takes instead; None for
    any other line."""
    from banco.cli.words import i18n

    if not words or not words[0].startswith("--"):
        return None
    name, eq, value = words[0].partition("=")
    rest = words[1:] if eq else words[2:]
    value = value if eq else (words[1] if len(words) > 1 else "")
    if name in _GAME_OPTIONS and (name == "--partita" or not rest):
        from banco.ledger.base.numbers import is_digits

        italian = name == "--partita" or i18n.language() != i18n.SOURCE
        return UsageError("`{typed}` is no word of the shell: `{word} {n}` moves the shell to "
                          "game {n} (`{state} --game {n}` looks at it for that line only)",
                          typed=shown(" ".join(words[:2] if not eq else words[:1]), 40),
                          word="partita" if italian else "game",
                          state=in_shell_language("state"),
                          n=value if is_digits(value.strip() or "x") else "N")
    if name == "--lang" and not rest:
        return UsageError("the shell speaks the language it was opened in: `{state} --lang "
                          "{lang}` says one line in another; `banco --lang {lang} shell` "
                          "opens one in it", state=in_shell_language("state"),
                          lang=value if value in i18n.LANGUAGES else "it")
    if name in ("--id", "--expect"):
        return option_before_word(cli, next((w for w in rest if not w.startswith("-")), None),
                                  name)
    return None


def option_before_word(cli, after: str | None, option: str, program: str = "") -> UsageError:
    """`--id k roll 1 2`: --id or --expect typed before the word `after` (None: no word),
    which `cli`, the command line's group, says takes it or not; `program` is `banco ` on the
    command line, nothing in the shell.  One answer for both (cli/main.py's _usage_error)."""
    from banco.ledger.base.text import word

    value = word("metavar", "KEY") if option == "--id" else "SEQ"
    takes = _takes(cli, after, option)
    if takes is False:  # `--id k state`: it was told `roll ... --id KEY`
        return UsageError("`{word}` takes no {option}; a line that records takes it after "
                          "its word (`{example} ... {option} {value}`)",
                          word=shown(after, 40), option=option, value=value,
                          example=program + in_shell_language("roll"))
    return UsageError("{option} goes after the command's word: `{word} ... {option} {value}`",
                      option=option, value=value,
                      word=program + (shown(after, 40) if takes else in_shell_language("roll")))


def _takes(cli, typed: str | None, option: str) -> bool | None:
    """Whether the command a word names takes `option` (as the command line declares it);
    None for no such word (or none); True for a group, whose own words decide (`ruling ...
    --expect SEQ`)."""
    import click

    from banco.cli.lines.vocabulary import english_word

    if typed is None:
        return None
    command = cli.get_command(click.Context(cli, info_name="banco"), english_word(typed))
    if command is None:
        return None
    if isinstance(command, click.Group):
        return True
    return any(option in p.opts for p in command.params)
