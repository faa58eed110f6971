"""The fold's handlers for the turn: dice, moves, the Speedy die's phases, jail, the turn's
end and the game's, and the facts that change nothing on the table."""

from __future__ import annotations

from typing import Any

from banco.ledger.table.model import Player, State, Turn, set_player

# The three handlers most rows are (a roll, a move, a turn's end) copy the table by position,
# as model.transfer does: the keywords of `_replace` cost a third of the fold's time there.
_new = tuple.__new__
_TURN, _PLAYERS, _LAST_ROLL, _SINCE_ROLL = (State._fields.index(f) for f in (
    "turn", "players", "last_roll", "since_roll"))
_POSITION, _PASSED_GO = Player._fields.index("position"), Player._fields.index("passed_go")
_PHASE, _DOUBLES, _DICE, _EXTRA, _SPEEDY = (Turn._fields.index(f) for f in (
    "phase", "doubles", "dice", "extra_roll", "speedy"))
_FRESH_TURN = Turn(player="")[1:]  # a turn's fields after its player, as a new turn has them
_NO_DEEDS = frozenset()


def _game_started(state: State, d: Any, seq: Any) -> State:
    raise AssertionError("GameStarted begins a fold; it cannot be applied to a table")


def _dice_rolled(state: State, d: Any, seq: Any) -> State:
    speedy = d.get("speedy")
    if speedy is not None and "speedy_ignored" in d:
        speedy = None
    turn = list(state.turn)
    turn[_DICE], turn[_DOUBLES], turn[_EXTRA] = tuple(d["dice"]), d["in_row"], d["extra_roll"]
    turn[_PHASE], turn[_SPEEDY] = "moving", speedy
    values = list(state)
    values[_TURN], values[_LAST_ROLL] = _new(Turn, turn), (d["player"], seq)
    values[_SINCE_ROLL] = _NO_DEEDS
    return _new(State, values)


def _token_moved(state: State, d: Any, seq: Any) -> State:
    i = state.index[d["player"]]
    players = state.players
    player = list(players[i])
    player[_POSITION] = d["to"]
    if d["passed_go"]:
        player[_PASSED_GO] = True
    values = list(state)
    values[_PLAYERS] = players[:i] + (_new(Player, player),) + players[i + 1:]
    return _new(State, values)


_SPEEDY_PHASES = {"bus": "move", "triple": "go", "mr_monopoly": "advance"}


def _speedy_move_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase=_SPEEDY_PHASES[d["move"]]))


def _speedy_move_chosen(state: State, d: Any, seq: Any) -> State:
    t = state.turn
    speedy = None if d["move"] == "mr_monopoly" else t.speedy
    return state._replace(turn=t._replace(phase="moving", speedy=speedy))


def _time_ran_out(state: State, d: Any, seq: Any) -> State:
    return state._replace(time_up=(d["at"], d["ends"]))


def _nothing(state: State, d: Any, seq: Any) -> State:
    return state


def _sent_to_jail(state: State, d: Any, seq: Any) -> State:
    return set_player(state, d["player"], position=state.edition.jail_position, in_jail=True,
                       jail_turns=0)


def _jail_roll_failed(state: State, d: Any, seq: Any) -> State:
    return set_player(state, d["player"], jail_turns=d["attempt"])


def _left_jail(state: State, d: Any, seq: Any) -> State:
    state = set_player(state, d["player"], in_jail=False, jail_turns=0)
    if state.turn.phase == "jail_exit":  # the wait of 000 FAQ 17 is over: the token moves
        state = state._replace(turn=state.turn._replace(phase="moving"))
    return state


def _jail_exit_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="jail_exit"))


def _extra_roll_due(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="roll", dice=(), offer=None,
                                                   speedy=None))


def _turn_ended(state: State, d: Any, seq: Any) -> State:
    values = list(state)
    values[_TURN] = _new(Turn, (d["next"], *_FRESH_TURN))
    return _new(State, values)


def _game_ended(state: State, d: Any, seq: Any) -> State:
    return state._replace(ended=True, winner=d.get("winner"), auction=None, auction_queue=(),
                          turn=state.turn._replace(phase="over"), end_rule=d.get("rule", ""))


def _position_corrected(state: State, d: Any, seq: Any) -> State:
    changes = {"position": d["to"]}
    if d["left_jail"]:
        changes.update(in_jail=False, jail_turns=0)
    return set_player(state, d["player"], **changes)


HANDLERS = {
    "GameStarted": _game_started,
    "DiceRolled": _dice_rolled,
    "TokenMoved": _token_moved,
    "SentToJail": _sent_to_jail,
    "JailRollFailed": _jail_roll_failed,
    "LeftJail": _left_jail,
    "ExtraRollDue": _extra_roll_due,
    "JailExitDue": _jail_exit_due,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
    "EventRetracted": _nothing,
    "CommandRecorded": _nothing,  # the command beside its facts: evidence, not a table change
    "SpeedyMoveDue": _speedy_move_due,
    "SpeedyMoveChosen": _speedy_move_chosen,
    "TimeRanOut": _time_ran_out,
    "RulingRecorded": _nothing,  # evidence: what the referee ruled, not a table change
    "SealRecorded": _nothing,  # evidence: a referee's signature on the head (ledger/records/seals.py)
    "PositionCorrected": _position_corrected,
}
