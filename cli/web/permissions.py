"""Who may send which line from a phone (`banco serve`): the server's check, not the page's.

Pure: `allowed(role, player, words, table)` from the token's role (and player), the line's
words as the shell would split them, and the table now (a State: its seats resolve a name as
the commands do) to a Decision.  The page only hides the buttons a role has no use for; this
is what refuses them (403, nothing appended).

- banker: any table action (the turn, the estate, the auctions, trades, undo), not the
  referee's rulings and never the database's or the organiser's commands;
- player NAME: his own acts only: with `serve --banker-only`, `claim NAME` as the owner (a
  trade offered to him he answers through /api/offers, not a line); by default every act of
  his own, decided on the typed command (cli/web/acts.py);
- referee: rulings and corrections;
- viewer: nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from banco.cli.lines import vocabulary
from banco.cli.words.i18n import N_

# the line's words (cli/lines/vocabulary.py, the one table): the commands the banker records
# at the table, and a pay-or-draw card's choice said alone (`draw`, `pesca`)
TABLE_ACTIONS = vocabulary.TABLE_ACTIONS | frozenset(vocabulary.CHOICE_ALONE)
REFEREE_ACTIONS = vocabulary.REFEREE_ACTIONS
PLAYER_ACTIONS = frozenset({"claim"})
# options that would point the line at another file or game than the token's, or carry the
# write context that the request gives in its own fields (`id`, `expect`)
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


def command_word(words: list[str]) -> str | None:
    """The English command word of a line (`riscuoti` is `claim`, `ROLL` is `roll`, as the
    command line takes it: caps lock is no other word), or None for no word."""
    return vocabulary.english_word(words[0]) if words else None


def no_such_command(word: str) -> bool:
    """Whether the word is no command at all (`🎲🎲`, `rol`): not the role's business but a
    usage error, which the line says itself with its suggestion (400), recording nothing."""
    return not word.startswith("-") and word not in vocabulary.BY_ENGLISH \
        and word not in TABLE_ACTIONS


# the words a player's phone may send when players record their own acts (issue 34): which
# of them are his is decided on the typed command (cli/web/acts.py), not here
PLAYER_OWN_ACTS = TABLE_ACTIONS - {"hammer", "undo", "misdraw", "shuffle", "break-up",
                                   "auction-building", "deal", "time-up", "auction-deed"}


def allowed(role: str, player: str | None, words: list[str], table, *,
            acts: bool = False) -> Decision:
    """`acts`: players record their own acts (the server's default; `--banker-only` False):
    a player's table words pass here, and the typed command is checked before it is
    appended (cli/web/acts.py)."""
    word = command_word(words)
    if word is None:
        return Decision(False, NO_LINE, status=400)
    if role == "viewer":
        return Decision(False, VIEWER)
    if no_such_command(word):
        return YES  # click refuses the word before any command runs: nothing is recorded
    for w in words[1:]:
        option = w.split("=", 1)[0]
        if w == "--":
            break
        if option in FORBIDDEN_OPTIONS:
            return Decision(False, OPTION, {"option": option})
    if role == "banker":
        if word in TABLE_ACTIONS:
            return YES
        if word in REFEREE_ACTIONS:
            return Decision(False, REFEREE_ONLY, {"word": _quoted(words)})
        return Decision(False, NOT_TABLE, {"word": _quoted(words)})
    if role == "referee":
        if word not in REFEREE_ACTIONS:
            return Decision(False, NOT_REFEREE, {"word": _quoted(words)})
        # a named referee's token records as its referee only (`token referee NAME`)
        if player is not None and any(fold(n) != fold(player) for n in referees(words)):
            return Decision(False, AS_REFEREE, {"name": player})
        return YES
    if role == "player":
        if acts and word in PLAYER_OWN_ACTS:
            return YES  # whose act it is: cli/web/acts.py, on the typed command
        if word not in PLAYER_ACTIONS:
            if word in TABLE_ACTIONS or word in REFEREE_ACTIONS:
                return Decision(False, BANKER_ONLY, {"word": _quoted(words)})
            return Decision(False, NOT_TABLE, {"word": _quoted(words)})
        named = [w for w in words[1:] if not w.startswith("-")]
        if len(named) == 1 and _is(table, named[0], player):
            return YES
        return Decision(False, OWN_CLAIM, {"player": player})
    return Decision(False, VIEWER)


def referees(words: list[str]) -> list[str]:
    """The names a line gives to `--referee` (`--arbitro`, `--referee=NAME`), as click would
    read them: every one, for the last is the one recorded."""
    names = {"--referee", vocabulary.ITALIAN_OPTIONS["--referee"]}
    out = []
    for i, w in enumerate(words[1:], 1):
        option, eq, value = w.partition("=")
        if option in names:
            out.append(value if eq else words[i + 1] if i + 1 < len(words) else "")
    return out


def fold(name: str) -> str:
    from banco.ledger.base.names import fold as folded

    return folded(name.strip())


def _quoted(words: list[str]) -> str:
    """The refused word as its refusal names it: 40 characters and an ellipsis at most."""
    from banco.ledger.base.names import shown

    return shown(words[0], 41)


def _is(table, text: str, player: str | None) -> bool:
    """Whether `text` names `player` as the commands would resolve it (case, accents, a
    unique prefix); a name that resolves to nobody or to another player is not his."""
    from banco.ledger.base.errors import BancoError
    from banco.ledger.base.names import resolve

    try:
        return resolve(text, list(table.seats), "player") == player
    except BancoError:
        return False


def offer_parties(role: str, player: str | None, a: str, b: str) -> bool:
    """Whether this token may answer a trade between `a` and `b`: its player is one side."""
    return role == "player" and player in (a, b)
