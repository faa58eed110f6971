"""A moment of a game named the way a referee names it: an event's seq, or a time.

A time is read as `log` prints it (`2026-11-30 07:12:03+01:00`, local time with its offset), as
ISO 8601 with a zone (`2026-11-30T06:12:03Z`), or without a zone, in the computer's local time
(the TZ variable is honoured), as the table's clock read it; a time of day alone (`21:14`) is
on the game's day (the day of its events; a game over midnight: the day on which the time falls
while it was played, or a refusal naming the days).  A time given to the second covers
that whole second (events recorded at 07:12:03.4 are "at 07:12:03"); to the minute, that whole
minute.  The table "at" a time is the one after the last event recorded at or before it; a
range "from" a time starts at the first event recorded at or after its first instant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import is_digits
from banco.ledger.store.reading import times

_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?"
                   r"\s*(Z|[+-]\d{2}:?\d{2})?$", re.I | re.ASCII)  # 0-9 only, as numbers


_CLOCK = re.compile(r"^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$", re.ASCII)  # `21:14`: the game's day


class Moment(NamedTuple):
    seq: int | None  # given as a seq
    until: datetime | None  # given as a time: the last instant it covers (UTC)
    text: str
    since: datetime | None = None  # given as a time: the first instant it covers (UTC)
    clock: str | None = None  # a bare time of day (`21:14`), its day the game's (on_games_day)


def parse_moment(text: str) -> Moment:
    """`123` (a seq) or a time; a UsageError that shows the accepted forms otherwise."""
    raw = text.strip()
    if is_digits(raw):  # 0-9 only, as every number the banker types (ledger/base/numbers.py)
        return Moment(int(raw), None, raw)
    if raw.startswith("-") and is_digits(raw[1:]):
        raise UsageError("{text} is a negative number: a game's events are numbered from 1 "
                         "(`log` lists them)", text=raw)
    if _CLOCK.match(raw):  # checked here (`25:00` refused), its day found in the game's events
        clock = raw.zfill(len(raw) + 1) if raw.index(":") == 1 else raw
        try:
            parse_moment(f"2000-01-01 {clock}")
        except UsageError:
            raise UsageError("{text!r} is not a time of day: hours 0 to 23, minutes and seconds "
                             "0 to 59", text=raw) from None
        return Moment(None, None, raw, None, clock)
    if not _TIME.match(raw):
        raise UsageError("{text!r} is neither an event number nor a time: give a seq (`57`), a time of the game's day (`21:14`) or a time as `log` prints it (`2026-11-30 21:14:05+01:00`, or `2026-11-30T20:14:05Z`, or local `2026-11-30 21:14`)",
                         text=text)
    m = _TIME.match(raw)
    clock, seconds, fraction = m.group(1), m.group(2), m.group(3)
    iso = raw.replace(" ", "T", 1) if clock and clock.startswith(" ") else raw
    iso = re.sub(r"\s+", "", iso)
    if iso.upper().endswith("Z"):
        iso = iso[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError as exc:
        if "offset must be a timedelta" in str(exc):  # `+99:00`: Python's words are its own
            raise UsageError("{text!r} is not a time: a UTC offset is between -23:59 and "
                             "+23:59 (e.g. +01:00)", text=text) from None
        raise UsageError("{text!r} is not a time: {exc}",
                         text=text, exc=exc) from None
    # The instant the text covers up to: a day, a minute or a second as typed.
    if not clock:
        span = timedelta(days=1)
    elif not seconds:
        span = timedelta(minutes=1)
    elif not fraction:
        span = timedelta(seconds=1)
    else:
        span = timedelta(microseconds=1)
    try:
        if moment.tzinfo is None:
            moment = moment.astimezone()  # the computer's local time, as `log` shows it
        until = (moment + span).astimezone(UTC) - timedelta(microseconds=1)
        since = moment.astimezone(UTC)
    except (ValueError, OverflowError, OSError):
        # the calendar's ends (year 1, year 9999) have no room for the zone or the span: every
        # game is after the first and before the last instant there is
        until = since = (datetime.max if moment.year > 1 else datetime.min).replace(tzinfo=UTC)
    return Moment(None, until, raw, since)


def on_games_day(moment: Moment, first: str, last: str) -> Moment:
    """A bare time of day (`21:14`) on the game's day, read in local time as `log` shows it:
    the day of the game's events (`first` and `last`, their recorded_at).  A game over more
    than one day: the day on which that time falls while the game was played, if one only;
    else a UsageError naming the days to choose from.  Anything else: as it was."""
    if moment.clock is None:
        return moment
    start, end = recorded({"recorded_at": first}), recorded({"recorded_at": last})
    days, day = [], start.astimezone().date()
    while day <= end.astimezone().date():
        days.append(day)
        day += timedelta(days=1)
    on = days if len(days) == 1 else [
        d for d in days if _covers(parse_moment(f"{d} {moment.clock}"), start, end)]
    if len(on) == 1:
        return parse_moment(f"{on[0]} {moment.clock}")._replace(text=moment.text)
    choices = ", ".join(f"`{d} {moment.clock}`" for d in (on or [days[0], days[-1]]))
    raise UsageError("the game ran from {first} to {last}, over more than one day: say which "
                     "day's {text} (for example {choices})", first=local_time(first),
                     last=local_time(last), text=moment.text, choices=choices)


def _covers(moment: Moment, start: datetime, end: datetime) -> bool:
    return moment.since <= end and moment.until >= start


def recorded(event: dict) -> datetime:
    return datetime.fromisoformat(event["recorded_at"].replace("Z", "+00:00"))


def seq_at(events: Iterable[dict], moment: Moment, last: int | None = None) -> int:
    """The seq a moment names in a game's events (in seq order; only seq and recorded_at are
    read, once, so a long game's can be streamed): itself, or the last event recorded at or
    before the time.  `last`: the game's last seq when known (a seq is then checked without
    reading the events).  UsageError when the game has no such event."""
    if moment.clock is not None:  # its day from the game's first and last events
        events = list(events)
        if events:
            moment = on_games_day(moment, events[0]["recorded_at"], events[-1]["recorded_at"])
    if moment.seq is not None:
        if last is None:
            events = list(events)
            last = events[-1]["seq"] if events else 0
        if not last:
            raise UsageError("the game has no events")
        if not 1 <= moment.seq <= last:
            raise UsageError("the game has events 1 to {last}; there is no event {seq}",
                             last=last, seq=moment.seq)
        return moment.seq
    found = first = later = None
    for e in events:
        if first is None:
            first = e["recorded_at"]
        if recorded(e) <= moment.until:
            if later is not None:  # the clock went back
                raise _times_go_back(later, e, moment)
            found = e["seq"]
        elif later is None:
            later = e
    if first is None:
        raise UsageError("the game has no events")
    if found is None:
        raise UsageError("nothing was recorded by {text}: the game's first event is at {local_time}",
                         text=moment.text, local_time=local_time(first))
    return found


def _times_go_back(after: dict, e: dict, moment: Moment) -> UsageError:
    """The clock went back (set by hand, a laptop's clock corrected, a row edited): the time
    is both before and after events of the game, and a ruling on the wrong side of it would be
    wrong.  The referee gives a seq instead."""
    return UsageError(
        "the game's times go back: event {after} was recorded at {after_time}, after {text}, "
        "but event {seq}, later in the game, at {time}: {text} falls at more than one place in "
        "this game; give an event's seq instead (`log` lists them)", after=after["seq"],
        after_time=local_time(after["recorded_at"]), text=moment.text, seq=e["seq"],
        time=local_time(e["recorded_at"]))


def first_seq_from(events: Iterable[dict], moment: Moment, last: int | None = None) -> int:
    """Where a range that starts at a moment begins: a seq as `seq_at` checks it, or the first
    event recorded at or after the first instant of the time (`--from 21:14` takes in a command
    at 21:14:10, where the table "at" 21:14 is the one after the last event by 21:14:59).
    Before the game, its first event; UsageError after its last."""
    if moment.clock is not None:  # its day from the game's first and last events
        events = list(events)
        if events:
            moment = on_games_day(moment, events[0]["recorded_at"], events[-1]["recorded_at"])
    if moment.seq is not None:
        return seq_at(events, moment, last)
    found = final = None
    for e in events:
        final = e
        if found is None and recorded(e) >= moment.since:
            found = e
        elif found is not None and recorded(e) < moment.since:  # the clock went back
            raise _times_go_back(found, e, moment)
    if found is not None:
        return found["seq"]
    if final is None:
        raise UsageError("the game has no events")
    raise UsageError("nothing was recorded from {text} on: the game's last event, {seq}, is at "
                     "{local_time}", text=moment.text, seq=final["seq"],
                     local_time=local_time(final["recorded_at"]))


def recorded_times(store, game_id: int) -> Iterator[dict]:
    """A game's (seq, recorded_at) as the rows `seq_at` reads, a chunk at a time from the
    store: a time is found in a long game in bounded memory, without reading its events."""
    after = 0
    while True:
        rows = times(store, game_id, after)
        for seq, at in rows:
            yield {"seq": seq, "recorded_at": at}
        if len(rows) < 2000:
            return
        after = rows[-1][0]


def stored_games_day(store, game_id: int, moment: Moment) -> Moment:
    """`on_games_day` for a stored game: its first and last events' times read alone."""
    if moment.clock is None:
        return moment
    last = store.last_seq(game_id)
    first = times(store, game_id, 0, 1)
    if not last or not first:
        return moment
    return on_games_day(moment, first[0][1], times(store, game_id, last - 1, 1)[0][1])


def moment_seq(store, game_id: int, moment: Moment) -> int:
    """`seq_at` over a stored game: a seq checked against its last one, a time found by a
    streamed scan of the times alone."""
    moment = stored_games_day(store, game_id, moment)
    return seq_at(recorded_times(store, game_id), moment, last=store.last_seq(game_id))


def moment_start_seq(store, game_id: int, moment: Moment) -> int:
    """`first_seq_from` over a stored game, as `moment_seq` reads it."""
    moment = stored_games_day(store, game_id, moment)
    return first_seq_from(recorded_times(store, game_id), moment, last=store.last_seq(game_id))


def local_time(recorded_at: str) -> str:
    """A recorded time as `log` prints it: local time with its UTC offset."""
    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return moment.astimezone().isoformat(sep=" ", timespec="seconds")
