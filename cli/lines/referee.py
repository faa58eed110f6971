"""The referee's lines and `new` into what they ask for, as cli/lines/turn.py does for the
turn: `correct ...` into a typed correction (ledger/records/commands.py), `ruling KIND SEQ ...`
into a RulingAsked (the ruling itself is read from the log: cli/ruling_log.py), `new
PLAYERS...` into a NewGame.  Their arguments and options come from the one table of words
(cli/lines/vocabulary.py), read by cli/lines/parse.py's shape.

Pure: no click, nothing printed, no store.  The one lookup a correction needs in the book (the
referee's name as the game first recorded it, never a player's: cli/referees.py) comes
in as a function."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from banco.cli.lines.names import player_name, property_position, said
from banco.cli.lines.vocabulary import (
    BY_ENGLISH,
    RULING_ALIASES,
    english_option_words,
    english_word,
)
from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Text, msg


def read_words(word: str, words: list[str]) -> tuple[dict, dict]:
    """A referee's or `new`'s line (its word first) read by the table's shape: the builder's
    parameters and the context options (`--id`, `--expect`, `--game`, `--lang`)."""
    from banco.cli.lines.parse import LineShape, shape

    params, context = shape(BY_ENGLISH[word], list(words[1:]))
    if word == "new":
        if "--expect" in context or "--game" in context:
            raise LineShape("no such option")  # a new game: no seq to expect, no game to address
        # `new A B --rules classic --rules short`: click keeps the last; a game started under
        # rules the banker did not mean is worse than the question, so it is asked
        given = [w.split("=", 1)[0] for w in english_option_words(words[1:])]
        for option in ("--rules", "--edition", "--first", "--uuid"):
            if given.count(option) > 1:
                raise UsageError("{option} is given {n} times: say it once", option=option,
                                 n=given.count(option))
    return params, context


class _Either(Text):
    """Words said as alternatives (`roll or bid`), the `or` in the language rendered."""

    def __new__(cls, words):
        self = super().__new__(cls, "{w}", params={"w": " or ".join(words)})
        self.words = tuple(words)
        return self

    def render(self, tr=None) -> str:
        return (tr.gettext(" or ") if tr is not None else " or ").join(self.words)


# the shell's words for leaving it (cli/banker/shell.py), English and Italian
SHELL_LEAVING = frozenset({"quit", "exit", "esci"})


def program_name_typed(rest: list[str]) -> UsageError:
    """`banco stato` where a line is the command alone (the shell, `run`, the library): the
    program's name, never taken for a word spelt close to it (the shell offered `bancarotta`,
    one letter away from recording a bankruptcy).  The line without it is what was meant."""
    if not rest or english_word(rest[0]) not in BY_ENGLISH:  # `banco anna`: nothing meant
        return UsageError("`banco` is the program's own name, not a command: type a command "
                          "(`help` lists them)")
    line = said(rest)
    return UsageError("`banco` is the program's own name, not a command: type the line "
                      "without it: `{line}`", line=line).meaning(line)


class NotRecordedHere(UsageError):
    """The library records nothing for this line: no table action, correction, recorded
    ruling or `new`, but a reading or the file's word (`state`, `import`: `known`), or no
    word at all (`rol`).  The shell and `run` hand such a line to the command line, which
    runs it or says it with its own hints (cli/execution.py)."""

    def __init__(self, said: UsageError, known: bool = False):
        super().__init__(said.text)
        self.meant, self.known = said.meant, known


def not_recorded_here(words: list[str], language: str) -> NotRecordedHere:
    """Why a line that is no table action, correction, recorded ruling or `new` is not
    recorded by the library: no such word (with the words spelt close to it, in the line's
    language), or a reading or the file's word, which the command line runs."""
    import difflib

    from banco.cli.lines.vocabulary import ITALIAN_WORDS, WORDS
    from banco.ledger.base.names import shown

    name = words[0]
    if name.lower() == "banco":
        return NotRecordedHere(program_name_typed(words[1:]))
    if name.lower() in SHELL_LEAVING:  # `quit` was answered "did you mean audit?"
        return NotRecordedHere(UsageError(
            "`{word}` is the shell's word for leaving `banco shell`: a line given here is one "
            "command, with nothing to leave", word=shown(name, 41)))
    if not name.strip("-"):  # `--` alone was said nothing at all in the shell (exit 2)
        return NotRecordedHere(UsageError(
            "`{word}` is no command: a line starts with a command's word (`roll 3 4`); `help` "
            "lists them", word=shown(name, 41)))
    if english_word(name) in BY_ENGLISH or name.startswith("-"):
        return NotRecordedHere(UsageError("`{word}` is not a table action: run it at the "
                                          "terminal", word=shown(name, 41)), known=True)
    spoken = ([w.english for w in WORDS] if language != "it" else
              [*ITALIAN_WORDS.values(), *(w.english for w in WORDS if not w.italian)])
    # the one search for near words: the shell and `run` say this refusal as it is, and the
    # shell offers its `meant` line (cli/execution.py, cli/banker/meant.py)
    close = difflib.get_close_matches(name, spoken, n=3, cutoff=0.6)
    hint = msg(": did you mean {words}?", words=_Either(close)) if close else \
        msg("; `help` lists them")
    odd = next((ch for ch in name if not ch.isascii()), None)
    if odd is not None:  # `rоll` with a Cyrillic о prints as roll: which letter, as cli/main.py
        from banco.ledger.base.names import code_point

        hint = msg(" (its {char!r} is {code}, no plain letter: a command word is typed in "
                   "a-z){hint}", char=odd, code=code_point(odd), hint=hint)
    refused = UsageError("no command called {name!r}{hint}", name=shown(name), hint=hint)
    if len(close) == 1:
        refused.meaning(said([close[0], *words[1:]]))
    return NotRecordedHere(refused)


# --- correct ---------------------------------------------------------------------------------

def correction(table, words, move: bool, owner: bool, reason: str | None,
               referee: str | None, referee_of: Callable[[str], str] | None = None):
    """`correct PLAYER AMOUNT`, `correct --move PLAYER SPACE`, `correct --owner PROPERTY
    WHO`: the typed correction, recorded with its reason in the referee's name (`referee_of`:
    the name as the game records it; None, as given).  `table` may be a function that gives
    it: the form's mistakes are said before the game is looked at."""
    from banco.ledger.base.names import fold
    from banco.ledger.base.text import msg
    from banco.ledger.records import commands as c
    from banco.ledger.rules.referee import reason_text, referee_name
    from banco.ledger.table.seats import BANK_NAMES

    if move and owner:
        raise UsageError("--move or --owner, not both: one correction at a time")
    # banco's own words, not click's "Missing option": whose a correction is, and its form
    form = (msg("correct --move PLAYER SPACE --reason TEXT --referee NAME") if move else
            msg("correct --owner PROPERTY PLAYER|bank --reason TEXT --referee NAME") if owner
            else msg("correct PLAYER AMOUNT --reason TEXT --referee NAME"))
    # the amount's sign said after the form, outside its backticks
    note = "" if move or owner else msg(" (AMOUNT: +50 from the Bank, -50 back to it)")
    if referee is None:
        raise UsageError("a correction is the referee's: name the referee, as in `{form}`{note}",
                         form=form, note=note)
    if reason is None or not reason.strip():  # `--reason ""`: missing too, not a rule's refusal
        raise UsageError("a correction says why: give the reason, as in `{form}`{note}",
                         form=form, note=note)
    referee_name(referee)  # a name that is no name is said before the reason's problems
    reason = reason_text(reason)
    referee = referee_of(referee) if referee_of is not None else referee_name(referee)
    state = table() if callable(table) else table
    words = list(words)
    if move and words and fold(words[0]) in BANK_NAMES:
        raise UsageError("{name} is the Bank, not a player: the Bank has no token to move; name "
                         "the player, as in `{form}`", name=words[0], form=form)
    if not move and not owner and words and fold(words[0]) in BANK_NAMES:
        # the Bank is the other side of every cash correction: `correct Bank 10` suggested Anna
        raise UsageError("{name} is the Bank, not a player: a correction moves a player's cash "
                         "to or from the Bank, so name the player, as in `{form}`{note}",
                         name=words[0], form=form, note=note)
    if move:
        if len(words) < 2:
            raise UsageError("correct --move PLAYER SPACE --reason TEXT --referee NAME")
        return c.CorrectPosition(player_name(state, words[0]), _space(state, words[1:]),
                                 reason, referee)
    if owner:
        if len(words) < 2:
            raise UsageError("correct --owner PROPERTY PLAYER|bank --reason TEXT --referee NAME")
        who = words[-1]
        new = None if fold(who) in BANK_NAMES else player_name(state, who)
        return c.CorrectOwner(property_position(state, " ".join(words[:-1])), new, reason,
                              referee)
    if len(words) != 2:
        raise UsageError("correct PLAYER AMOUNT --reason TEXT --referee NAME (AMOUNT: +50 "
                         "from the Bank, -50 back to it)")
    from banco.ledger.base.numbers import whole  # 0-9 only: `1_000` and `５０` are slips

    amount = whole(words[1])
    if amount is None:
        raise UsageError("{words!r} is not a whole amount (+50 or -50)", words=words[1])
    from banco.ledger.board.rule_sets import starting_cash

    # A slip of the keyboard (a zero too many, twenty of them), not a rule: the recorded
    # history stays re-derivable whatever this limit, since it is checked only here.
    most = 1000 * starting_cash(state.rules, len(state.seats))
    if abs(amount) > most:
        raise UsageError("a correction of {amount} is more than a table ever holds (at most "
                         "{most}, a thousand times the starting cash): a slip of the keyboard?",
                         amount=state.edition.money(amount), most=state.edition.money(most))
    return c.CorrectCash(player_name(state, words[0]), amount, reason, referee)


def _space(state, words: list[str]) -> int:
    """A space by number (0-39) or name; a name several spaces share needs the number."""
    from banco.ledger.base.numbers import is_digits

    text = " ".join(words)
    if is_digits(text):
        return int(text)
    from banco.ledger.base.names import resolve

    spaces: dict[str, list[int]] = {}
    for s in state.edition.spaces:
        spaces.setdefault(s.name, []).append(s.position)
    name = resolve(text, list(spaces), "space")
    if len(spaces[name]) > 1:
        raise UsageError("{name} is at {items}: give the number",
                         name=name, items=', '.join(map(str, spaces[name])))
    return spaces[name][0]


# --- ruling ----------------------------------------------------------------------------------

class RulingAsked(NamedTuple):
    """`ruling KIND SEQ|TIME [--claim-at SEQ|TIME] [--record --referee NAME]`: what the
    referee asks; the ruling is read from the log (cli/ruling_log.py's rule)."""
    kind: str                # auction, bankruptcy, jail, rent
    moment: str              # the SEQ or TIME as typed
    claim_at: str | None     # rent: a claim at that moment, in time or not
    record: bool             # appended as a RulingRecorded fact
    referee: str | None      # who rules (with record)
    as_json: bool = False


def ruling(words, kind: str, record: bool, referee: str | None, claim_at: str | None,
           as_json: bool) -> RulingAsked:
    """The ruling a line asks for (`decisione affitto 27`: rent, 27)."""
    from banco.cli.lines.parse import LineShape

    for w in words:
        if w.startswith("--"):  # `--jsn`: no option, as click says (cli/groups.py)
            raise LineShape(f"no such option {w.partition('=')[0]}")
    if len(words) > 1:
        raise UsageError("one SEQ or TIME, not {words}: a time with a space goes in quotes "
                         "(\"2026-11-30 21:14\")", words=" ".join(words))
    if not words:
        raise LineShape("missing argument")
    if record and referee is None:
        raise UsageError("--record needs --referee NAME: a recorded ruling says who ruled")
    if referee is not None and not record:
        raise UsageError("--referee goes with --record (without it nothing is recorded)")
    kind = RULING_ALIASES.get(kind, kind)
    if claim_at is not None and kind != "rent":
        raise LineShape("no such option --claim-at")  # rent's alone
    return RulingAsked(kind, words[0], claim_at, record, referee, as_json)


# --- new -------------------------------------------------------------------------------------

class NewGame(NamedTuple):
    """`new PLAYERS... [--rules R] [--edition E] [--first NAME] [--final]`: a game to start."""
    players: tuple[str, ...]
    rules: str = "classic"
    edition: str | None = None
    first: str | None = None
    final: bool = False
    uuid: str | None = None


def new(players, rules: str | None, edition: str | None, first: str | None, final: bool,
        uuid: str | None) -> NewGame:
    """The game a `new` line starts (`nuova Anna Bruno --regole short`)."""
    quoting = next((name for name in players if "`" in name), None)
    if quoting is not None:  # refused as the line is read, not by decide: an older game with
        # such a name, re-derived by the audit, keeps passing
        raise UsageError("player name {name!r} refused: '`' quotes the commands banco "
                         "suggests (`claim {example}`), so a name cannot hold it",
                         name=quoting, example=quoting.replace("`", ""))
    if first is not None and first.startswith("-"):  # `new A B --first --db x.db`
        raise UsageError("--first takes the name of the player who rolls first (`--first {name}`), not the option {option}",
                         name=players[0] if players else "Anna", option=first)
    if first is not None:
        from banco.ledger.base.names import resolve

        first = resolve(first, list(players), "player")
    return NewGame(tuple(players), rules or "classic", edition, first, bool(final), uuid)


def is_word(words, english: str) -> bool:
    """Whether a line's first word is `english` (or its Italian, in any case)."""
    return bool(words) and english_word(words[0]) == english


def new_lines(state, players, replayed: bool) -> list[tuple[bool, str]]:
    """What `new` says (in the language spoken): the game, its players and cash, its rules;
    a house-rules file's mismatch with the edition as a warning; whose turn it is."""
    from banco.cli.words.i18n import _, pgettext
    from banco.cli.words.table_lines import turn_line
    from banco.ledger.board.rule_sets import starting_cash

    game = state.game_id
    lines: list[tuple[bool, str]] = []
    if replayed:
        lines.append((False, _("already recorded (game {game} was started by this command): "
                               "nothing new was appended").format(game=game)))
    cash = state.edition.money(starting_cash(state.rules, len(state.seats)))
    lines.append((False, _("game {game}: {players} with {cash} each; rules {rules}, edition "
                           "{edition}").format(game=game, players=", ".join(players),
                                               cash=cash,
                                               rules=pgettext("rule set", state.rules.name),
                                               edition=state.edition.name)
                  + (_(", a final") if state.final else "")))
    for mismatch in state.edition.rules_mismatches(state.rules):  # a house-rules file's choice
        lines.append((True, _("warning: {message}").format(message=mismatch)))
    if state.dealt or state.rules.deeds_dealt or state.rules.deeds_dealt_by_players:
        lines.append((False, turn_line(state)))
    else:
        lines.append((False, _("{player} to roll").format(player=state.turn.player)))
    return lines


def ruling_lines(found, asked: RulingAsked, game: int, recorded: int | None,
                 replayed: bool, referee: str | None) -> list[tuple[bool, str]]:
    """What a ruling says: its text in the language spoken (or its JSON document), and where
    it was recorded."""
    from banco.cli.words.i18n import _, translations

    lines: list[tuple[bool, str]] = []
    if replayed and recorded is not None:
        lines.append((asked.as_json, _("already recorded as event {recorded}: nothing new was "
                                       "appended").format(recorded=recorded)))
    if asked.as_json:
        import json

        lines.append((False, json.dumps({**found.document(), "game": game,
                                         "recorded_seq": recorded}, indent=2,
                                        ensure_ascii=False)))
        return lines
    lines.append((False, found.text(translations())))  # recorded in English, said in the user's
    if recorded is not None:
        lines.append((False, _("recorded as event {recorded} (RulingRecorded), referee "
                               "{referee}").format(recorded=recorded, referee=referee)))
    return lines
