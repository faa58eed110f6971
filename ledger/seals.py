"""Seals: a referee's signature on a game's head, and the short head line for score sheets."""

from __future__ import annotations

import re
from typing import NamedTuple

_LINE = re.compile(r"^banco/(\d+)/(\d+)/([0-9a-f]{12})$")


class HeadLine(NamedTuple):
    game: int
    seq: int
    prefix: str  # the first 12 hex digits of the hash of event `seq`


def head_line(game: int, seq: int, head: str) -> str:
    """`banco/<game>/<seq>/<12 hex>`: short enough for a score sheet, and what
    `banco audit --expect-head` takes back."""
    return f"banco/{game}/{seq}/{head[:12]}"


def parse_head_line(text: str) -> HeadLine | None:
    m = _LINE.match(text.strip())
    if m is None:
        return None
    return HeadLine(int(m.group(1)), int(m.group(2)), m.group(3))
