"""Who may record which line from a phone (`banco serve`): the server's check, not the page's.

Pure: `decide(role, player, line)` from the token's role (and player) and the line as the
library read it (cli/library.py's `Library.read`: its typed command, or the usage refusal it
gets, and the options it carries), to a Decision.  Never on the line's words: however a line is
spelt (`--lang en` anywhere, Italian words, capitals, `--player` twice), what is decided is the
command that would be recorded, and that very command is what runs.  The page only hides the
buttons a role has no use for; this is what refuses them (403, nothing appended).

- banker: any table action (the turn, the estate, the auctions, trades, undo), not the
  referee's rulings and never the database's or the organiser's commands;
- player NAME: his own acts only: with `serve --banker-only`, his own rent claim (a trade
  offered to him he answers through /api/offers, not a line); by default every act of his
  own, whose act it is decided on the typed command against the table it is decided on
  (cli/web/acts.py, the library's `authorize`);
- referee: rulings and corrections (a named referee's token: in his name only);
- viewer: nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from banco.cli.lines import vocabulary
from banco.cli.lines.referee import NewGame, RulingAsked
from banco.cli.lines.turn import Undo
from banco.cli.words.i18n import N_
from banco.ledger.records import commands as c

# the typed commands that are a referee's: his corrections and rulings (a ruling only read too)
REFEREES = (c.CorrectCash, c.CorrectPosition, c.CorrectOwner, c.RecordRuling, c.Seal,
            RulingAsked)
# the table's acts that stay the banker's when players record their own (issue 34)
BANKERS_ALONE = (c.Hammer, Undo, c.Misdraw, c.Shuffle, c.BreakUp, c.BuildingAuction, c.Deal,
                 c.TimeUp, c.AuctionDeed)
# the options (as the line was read: its context) that would point it at another file or game
# than the token's, or carry the write context that the request gives in its own fields
FORBIDDEN_OPTIONS = ("--db", "--game", "--id", "--expect")

NO_LINE = N_("an empty line records nothing")
# no token is the viewer too: the words say both, and how a phone gets to record
VIEWER = N_("without a token, or with a viewer's, the page only shows the table: to record, "
            "pair the phone with `banco token banker`, `token player NAME` or `token referee`")
NOT_TABLE = N_("`{word}` is not a table action: run it at the terminal")
BANKER_ONLY = N_("`{word}` is the banker's to record, not a player's")
REFEREE_ONLY = N_("`{word}` is the referee's to record")
NOT_REFEREE = N_("a referee's token records rulings and corrections only, not `{word}`")
AS_REFEREE = N_("this token is {name}'s, the referee's: it records as `--referee {name}` "
                "only")
OWN_CLAIM = N_("{player} may claim only the rent owed to {player}: `claim {player}`")
OPTION = N_("{option} is not taken from a phone: the token names its game, and the request "
            "carries its id and expect")


class Decision(NamedTuple):
    allowed: bool
    why: str | None = None  # a catalog message (N_), to be filled with `params`
    params: dict = {}
    status: int = 403  # 403: the role may not; 400: no line at all (a usage error)


YES = Decision(True)


def kind(line) -> str | None:
    """What a line read says: "table" (a table action), "referee" (a correction or a ruling),
    "terminal" (a new game, a reading, the file's: the terminal's), or None (no command at all).
    The typed command's class; a line that does not parse, its word's (its own refusal then
    says what is wrong with it: the class only chooses between that and the role's 403)."""
    command = line.command
    if command is not None:
        if isinstance(command, REFEREES):
            return "referee"
        return "terminal" if isinstance(command, NewGame) else "table"
    word = line.word or ""
    spec = vocabulary.BY_ENGLISH.get(word)
    if spec is not None:
        return spec.kind if spec.kind in ("table", "referee") else "terminal"
    return "terminal" if word.startswith("-") else None  # `--lang en roll`: the program's option


def decide(role: str, player: str | None, line, *, banker_only: bool = False) -> Decision:
    """Whether this token may record `line` (a cli/library.py Line).  Allowed may still be
    refused when it runs: by its own usage refusal (400), by the rules (422), or, a player's,
    as another player's act (cli/web/acts.py: 403)."""
    if line.words == ():
        return Decision(False, NO_LINE, status=400)
    if role not in ("banker", "referee", "player"):
        return Decision(False, VIEWER)
    what = kind(line)
    if what is None:
        return YES  # no command at all: the line's own refusal (400) says so, with a suggestion
    for option in line.context:
        if option in FORBIDDEN_OPTIONS:
            return Decision(False, OPTION, {"option": option})
    word = {"word": _quoted(line.words)}
    if role == "banker":
        if what == "table":
            return YES
        return Decision(False, REFEREE_ONLY if what == "referee" else NOT_TABLE, word)
    if role == "referee":
        if what != "referee":
            return Decision(False, NOT_REFEREE, word)
        if player is not None and line.command is not None \
                and not records_as(player, line.command):
            return Decision(False, AS_REFEREE, {"name": player})
        return YES
    if what != "table":
        return Decision(False, BANKER_ONLY if what == "referee" else NOT_TABLE, word)
    command = line.command
    if command is None:
        return YES  # a table word that does not parse: its own refusal (400)
    if banker_only:
        if not isinstance(command, c.Claim):
            return Decision(False, BANKER_ONLY, word)
        return YES if command.owner == player else Decision(False, OWN_CLAIM, {"player": player})
    if isinstance(command, BANKERS_ALONE):
        return Decision(False, BANKER_ONLY, word)
    return YES  # whose act it is: cli/web/acts.py, on this command, when it is decided


def records_as(name: str, command) -> bool:
    """Whether a referee's command records (or asks) in `name`'s name: a named referee's token
    (`token referee NAME`) records as its referee only.  A ruling only read, with no referee
    named, records nobody."""
    from banco.ledger.base.names import fold

    said = getattr(command, "referee", None)
    if said is None and isinstance(command, RulingAsked):
        return True
    return isinstance(said, str) and fold(said.strip()) == fold(name.strip())


def _quoted(words) -> str:
    """The refused word as its refusal names it: 40 characters and an ellipsis at most."""
    from banco.ledger.base.names import shown

    return shown(words[0], 41)


def offer_parties(role: str, player: str | None, a: str, b: str) -> bool:
    """Whether this token may answer a trade between `a` and `b`: its player is one side."""
    return role == "player" and player in (a, b)
