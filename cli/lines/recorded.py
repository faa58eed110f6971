"""A line as it is recorded in CommandRecorded: the banker's words, without the options that
say where, how and in which language to record it (`roll 4 3 --lang it --id k` is recorded
`roll 4 3`).  Pure: the command line, the shell, `run` and the library record lines alike."""

from __future__ import annotations

# Options that say where, how and in which language to record, not what happened at the
# table: left out of the recorded line.  Each takes a value.
NOT_TYPED = frozenset({"--db", "--game", "--id", "--expect", "--lang"})


def typed_line(args, command: str | None) -> str | None:
    """The command's words as the banker gave them, from `banco`'s arguments: from the command
    word on, without --db/--game/--id/--expect/--lang (`banco --db roll.db roll 4 6 --id k`
    gives `roll 4 6`).  command None: the first word that is not an option."""
    import shlex

    from banco.cli.lines.vocabulary import ALIASES

    command = ALIASES.get(command, command)
    words, skip, started, ended = [], False, False, False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if ended:  # after `--` every word is the command's, `--id` too
            words.append(a)
            continue
        if a == "--" and started:
            # the end of the options: recorded only where it changes what a word means (a
            # word after it that looks like an option), so `roll -- 1 2` is `roll 1 2`
            ended = True
            if any(w.startswith("-") for w in args[i + 1:]):
                words.append(a)
            continue
        if a.split("=", 1)[0] in NOT_TYPED:
            skip = "=" not in a
            continue
        if not started and (a.startswith("-") if command is None
                            else ALIASES.get(a.lower(), a.lower()) != command):  # `decisione`
            # is `ruling`, `ROLL` is `roll`
            continue  # the group's own options (--lang, ...), before the command word
        started = True
        words.append(a)
    return shlex.join(words) if started else None


def line_as_meant(line: str, args: list[str]) -> str:
    """A shell or transcript line as it is recorded: as typed (quotes, spacing and a `#`
    comment kept), unless it carries options that say where or how to record it (`roll 4 3
    --lang it`, `buy --game 2`, `buy --id k`): then its words without them, as
    `banco roll 4 3 --lang it` records `roll 4 3`; `roll -- 4 3` is `roll 4 3`."""
    if not any(a.split("=", 1)[0] in NOT_TYPED or a == "--" for a in args):
        return line.strip()
    return typed_line(args, None) or line.strip()
