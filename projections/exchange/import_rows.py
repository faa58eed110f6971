"""The import's checks of each line of an export (projections/exchange/exchange.py): the line
read as JSON (a damaged one refused in words that say where), the header's fields, each event
line's fields and types, and the data text stored and the hash of a version-2 row.  Each
refusal names the line and the event; the import itself (the chain, the audit, the writing)
is exchange.py's `import_lines`."""

from __future__ import annotations

import json
import re
from hashlib import sha256
from typing import ClassVar

from banco.ledger.base.errors import EXIT_AUDIT, BancoError, UsageError
from banco.ledger.base.text import Joined, Text, both, msg
from banco.ledger.store.canonical import (
    HASHED_FIELDS,
    TABLE_CHAIN_VERSION,
    canonical_text,
    digest_format,
)
from banco.projections.exchange.actors import actor_refused, bounded

# 2: rows of schema version 3 (typed facts), which an importer of format 1 refuses by this
# number ("upgrade banco"); a game with none still exports as 1, as its banco wrote it
FORMAT = 2
READS = (1, FORMAT)  # the export formats an import reads: format 1's prose rows are upcast
ROW_KEYS = ("actor", "chain_version", "command_id", "data", "hash", "prev_hash", "recorded_at",
            "schema_version", "seq", "type")
HEADER_KEYS = ("banco_export", "chain_game_id", "chain_versions", "edition", "events",
               "first_player", "game_uuid", "hashed_fields", "head", "players", "rules")
_dump = json.JSONEncoder(ensure_ascii=False).encode


class ImportRefused(BancoError):
    """The file is not the history it claims to be: nothing was imported (exit 3)."""

    # A ClassVar (compiled, a plain class attribute here never reached the class: exit 2);
    # BancoError's says int, which mypy reads as an instance variable.
    exit_code: ClassVar[int] = EXIT_AUDIT  # type: ignore[misc]


def _no_float(text: str):
    raise ValueError(msg("the number {text} is not whole: money and counts are integers",
                         text=text))


def _no_constant(text: str):
    raise ValueError(msg("{text} is not a number banco writes", text=text))


def _why(exc: Exception):
    """What a parser's error says: its message (a Text when it is ours; json's own are
    English), said in the user's language when it can be."""
    first = exc.args[0] if exc.args else None
    if isinstance(first, Text):
        return first
    said = str(exc)
    # Python refuses an integer of more than 4,300 digits and advises "use
    # sys.set_int_max_str_digits()": advice for a programmer, not for who imports a file
    # (issue 32).  A figure of a game has at most 15 digits.
    if "integer string conversion" in said:
        digits = said.split("value has ", 1)[-1].split(" ", 1)[0]
        return msg("a number of {digits} digits, too long to be a figure of a game",
                   digits=digits if digits.isdigit() else msg("over 4300"))
    return said


def place(number: int, seq) -> Text:
    """`line 3 (event 5)`: a line of the file and the event it claims to hold."""
    return msg("line {number} (event {seq})", number=number, seq=seq)


def _fields(where, missing: list[str], extra: list[str]) -> Text:
    """A line (or the header) whose fields are not banco's: what it lacks, what it adds (an
    event's line says where as `line 3 (event 5):`)."""
    missing_, extra_ = ", ".join(missing), ", ".join(extra)
    if missing and extra:
        return msg("{where} lacks {missing}; has fields banco does not write: {extra}; nothing "
                   "was imported", where=where, missing=missing_, extra=extra_)
    if missing:
        return msg("{where} lacks {missing}; nothing was imported", where=where,
                   missing=missing_)
    return msg("{where} has fields banco does not write: {extra}; nothing was imported",
               where=where, extra=extra_)


# Made once: json.loads and json.dumps with options build a new coder at every call.
_DECODER = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant)
_DECODE, _RAW_DECODE = _DECODER.decode, _DECODER.raw_decode
# canonical_json's spelling by json's C encoder called directly (the data was read from JSON
# with floats refused): JSONEncoder.encode's Python wrapper was a third of its cost
CANONICAL = canonical_text


def parse(line: str, number: int) -> dict:
    """The line's JSON object.  A line banco wrote (one object, its newline) is read by the
    decoder's raw step alone; anything else goes through the whole decoder, whose words the
    refusal quotes (blank, not JSON, extra text after the object, not an object)."""
    try:
        value, end = _RAW_DECODE(line)
    except ValueError:
        return _parse_slowly(line, number)
    if (end != len(line) and not line[end:].isspace()) or type(value) is not dict:
        return _parse_slowly(line, number)
    return value


def _parse_slowly(line: str, number: int) -> dict:
    if not line.strip():
        raise ImportRefused("line {number} is blank: a banco export has one event a line; nothing was imported",
                            number=number)
    try:
        value = _DECODE(line)
    except ValueError as exc:
        if line.endswith("\n"):
            raise ImportRefused("line {number} is not valid JSON: {exc}; nothing was imported",
                                number=number, exc=_why(exc)) from None
        raise ImportRefused("line {number} is not valid JSON: {exc} (the file may have been "
                            "cut short); nothing was imported",
                            number=number, exc=_why(exc)) from None
    if not isinstance(value, dict):
        raise ImportRefused("line {number} is not a JSON object; nothing was imported",
                            number=number)
    return value


def read_header(line: str | None) -> dict:
    if line is None or not line.strip():
        raise UsageError("the file is empty: a banco export begins with its header line")
    try:
        h = json.loads(line)
    except ValueError:
        h = None
    if not isinstance(h, dict) or "banco_export" not in h:
        raise UsageError("line 1 is not a banco export header (`banco export` writes one): is "
                         "this the right file?")
    if h["banco_export"] not in READS or type(h["banco_export"]) is not int:
        # every format it reads, not only the one it writes ("reads format 2" misled)
        formats = both([str(f) for f in READS])
        if isinstance(h["banco_export"], int) and h["banco_export"] > FORMAT:
            raise UsageError("this export is format {found!r}; this banco reads formats "
                             "{formats}: upgrade banco", found=h["banco_export"],
                             formats=formats)
        raise UsageError("this export is format {found!r}; this banco reads formats {formats}",
                         found=h["banco_export"], formats=formats)
    missing = sorted(set(HEADER_KEYS) - set(h))
    extra = sorted(set(h) - set(HEADER_KEYS))
    if missing or extra:
        header = msg("line 1 (the header)")  # (the extractor skips a msg inside a call)
        raise ImportRefused(_fields(header, missing, extra))
    if not isinstance(h["events"], int) or isinstance(h["events"], bool) or h["events"] < 1:
        raise ImportRefused("line 1 (the header): `events` is not a count of events")
    versions = h["chain_versions"]
    if not isinstance(versions, list) or not versions or \
            any(v not in HASHED_FIELDS for v in versions):
        raise ImportRefused("line 1 (the header): chain versions {versions!r} are not ones this banco knows ({items})",
                            versions=versions, items=', '.join(map(str, HASHED_FIELDS)))
    if 1 in versions and not (isinstance(h["chain_game_id"], int)
                              and not isinstance(h["chain_game_id"], bool)):
        raise ImportRefused("line 1 (the header): version-1 rows need the game number they "
                            "were hashed with (`chain_game_id`)")
    if 1 not in versions and h["chain_game_id"] is not None:
        raise ImportRefused("line 1 (the header) gives a chain_game_id, which only version-1 "
                            "rows use; nothing was imported")
    return h


_TYPES: dict[str, type | tuple[type, ...]] = {"actor": (str, type(None)), "chain_version": int, "command_id": (str, type(None)),
          "data": dict, "hash": str, "prev_hash": str, "recorded_at": str,
          "schema_version": int, "seq": int, "type": str}
_ROW_KEYSET = frozenset(ROW_KEYS)
# a chain-version-3 row also carries the digest of the book's snapshot after it, which its
# hash covers (ledger/store/snapshot_binding.py)
_TABLE_KEYSET = _ROW_KEYSET | {"table_digest"}


def _is_digest(value) -> bool:
    return type(value) is str and digest_format(value) is not None


def check_fields(row: dict, number: int) -> None:
    """Exactly banco's fields, of banco's types (a string "7" where 7 belongs would be stored
    as something else than what was hashed).  The common case in one expression: the loop that
    says what is wrong (and the words that say where) runs only when something is."""
    if row.keys() == _ROW_KEYSET and type(row["seq"]) is int \
            and type(row["schema_version"]) is int and type(row["chain_version"]) is int \
            and row["chain_version"] != TABLE_CHAIN_VERSION \
            and type(row["type"]) is str and type(row["hash"]) is str \
            and type(row["prev_hash"]) is str and type(row["recorded_at"]) is str \
            and type(row["data"]) is dict and (row["actor"] == "banker" or row["actor"] is None) \
            and type(row["command_id"]) in (str, type(None)):
        return
    where = place(number, row.get("seq", "?"))
    keys = _TABLE_KEYSET if row.get("chain_version") == TABLE_CHAIN_VERSION else _ROW_KEYSET
    if row.keys() != keys:
        missing = sorted(keys - set(row))
        extra = sorted(set(row) - keys)
        raise ImportRefused(_fields(Joined([where, ":"], ""), missing, extra))
    if keys is _TABLE_KEYSET and not _is_digest(row["table_digest"]):
        raise ImportRefused("{where}: table_digest {value!r} is not what banco writes; nothing "
                            "was imported", where=where, value=bounded(row["table_digest"]))
    for key, kind in _TYPES.items():
        value = row[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ImportRefused("{where}: {key} {value!r} is not what banco writes; nothing was imported",
                                where=where, key=key, value=bounded(value))
    if (refused := actor_refused(where, row["actor"])) is not None:
        raise ImportRefused(refused)



# A version-2 line exactly as banco writes it (canonical JSON: these keys in this order, no
# space), its strings those json's encoder spells as they are (no quote, backslash or control
# character: no escape to undo), its numbers plain: matched whole, each field's text is its
# value.  The data's text, between the two, is taken only where it is the canonical text of a
# JSON object (Hasher.quick); whatever else a line holds goes through the parser.  Matched in
# parts around the last `,"hash":"`: one pattern over the whole line backtracked through the
# data a character at a time (a tenth of the import's instructions).  The hash and the
# prev_hash are not matched as hex by a pattern (128 characters counted one by one, 6% of the
# import's instructions): they are compared, the hash with the digest computed (hex by
# construction), the prev_hash with the link expected.
_PLAIN = r'"([^"\\\x00-\x1f]*)"'
_INT = r"(0|[1-9][0-9]{0,17})"
_HEAD = re.compile(
    r'\{"actor":("banker"|null),"chain_version":2,"command_id":(null|' + _PLAIN + r'),'
    r'"data":\{').match
_REST = re.compile(
    r'(,"recorded_at":' + _PLAIN + r',"schema_version":' + _INT + r',"seq":' + _INT
    + r',"type":' + _PLAIN + r'\})\n?').fullmatch
_PLAIN_TEXT = re.compile(r'[^"\\\x00-\x1f]*').fullmatch  # _PLAIN's text
# the tail's own texts hold no quote: the last `,"hash":"` of a banco line is its tail's
_HASH_KEY = ',"hash":"'
_PREV_KEY = '","prev_hash":"'
# where the tail's parts begin, from the last `,"hash":"`: the hash, the prev_hash key, the
# prev_hash, its closing quote, the rest (recorded_at ...)
_AT_HASH = len(_HASH_KEY)
_AT_PREV_KEY = _AT_HASH + 64
_AT_PREV = _AT_PREV_KEY + len(_PREV_KEY)
_AT_QUOTE = _AT_PREV + 64
_AT_REST = _AT_QUOTE + 1


class Hasher:
    """The data text to store and the hash of a version-2 row, the line's own text used where
    it is provably the canonical one.  What is stored and hashed is always the canonical JSON
    of the row's data (as `CANONICAL(data)` and `stored_row_hash` give it); only the work
    differs:

    - the text around the data (actor, command id, time: a command's rows share them) is
      assembled once a command, the few strings a game repeats encoded once;
    - a line banco wrote is `head + D + tail`, head and tail the canonical text of the row's
      other fields: when D is a text already found to be the canonical JSON of a line's data,
      it is a single JSON value, so it is this line's data and its canonical text, and is not
      encoded again (a game repeats its facts word for word: ~1 data text in 6 is new).
      Any other line (spaces, another order, an escape banco does not write) has its data
      encoded anew, as before."""

    KEEP = 8192  # canonical texts remembered (bounded memory)

    def __init__(self) -> None:
        self.enc: dict = {}
        self.canonical: set[str] = set()
        # canonical data texts and their values (quick), this generation's and the one before
        self.known: dict[str, dict] = {}
        self.older: dict[str, dict] = {}
        # quick: the last line's head (its actor and command id) and its tail's first part
        # (time, schema version) as matched, and the types' texts found plain: a text a line
        # starts with (or holds there) is matched as it was
        self.line_head = '{"actor":null,"chain_version":2,"command_id":null,"data":{'
        self.head_values: tuple = (None, None)
        self.rest_head = ',"recorded_at":"","schema_version":0,"seq":'
        self.rest_values: tuple = ("", 0)
        self.types: set[str] = set()
        self.actor = self.cid = self.at = object()  # the command whose text is assembled
        self.head = self.mid = ""

    def _e(self, value) -> str:
        found = self.enc.get(value)
        if found is None:
            if len(self.enc) > 4096:
                self.enc.clear()
            found = self.enc[value] = _dump(value)
        return found

    def text_and_hash(self, line: str, row: dict, prev: str) -> tuple[str, str]:
        """(the data's canonical text, the row's hash) of a version-2 row whose fields
        `_check_fields` has checked and whose prev_hash is `prev`."""
        actor, cid, at = row["actor"], row["command_id"], row["recorded_at"]
        if cid != self.cid or actor != self.actor or at != self.at:
            e = self._e
            self.actor, self.cid, self.at = actor, cid, at
            self.head = f'{{"actor":{e(actor)},"chain_version":2,"command_id":{e(cid)},"data":'
            self.mid = f',"recorded_at":{e(at)},"schema_version":'
        head, mid = self.head, self.mid
        type_ = row["type"]
        end = (f'{row["schema_version"]},"seq":{row["seq"]},'
               f'"type":{self.enc.get(type_) or self._e(type_)}}}')
        # a hash that is not hex cannot match the digest below: the row is refused whatever D is
        tail = f',"hash":"{row["hash"]}","prev_hash":"{prev}"{mid}{end}'
        n = len(line) - 1 if line.endswith("\n") else len(line)
        stop = n - len(tail)
        text = None
        if stop > len(head) and line.startswith(head) and line.endswith(tail, 0, n):
            text = line[len(head):stop]
            if text not in self.canonical:
                if CANONICAL(row["data"]) != text:
                    text = None
                else:
                    if len(self.canonical) >= self.KEEP:
                        self.canonical.clear()
                    self.canonical.add(text)
        if text is None:
            text = CANONICAL(row["data"])  # floats were refused by the parser
        return text, sha256(f"{prev}{head}{text}{mid}{end}".encode()).hexdigest()

    def quick(self, line: str, prev: str, seq: int) -> tuple[tuple, dict] | None:
        """A line banco wrote of a version-2 row, whole and good: event `seq`, following
        `prev`, its hash its content's: (the row as GameImport.insert takes it, its data), read
        without parsing the line.  None for anything else (a damaged line, another spelling,
        another event, a broken link, a hash that does not match): the caller reads it the
        long way, which says what is wrong.  What it returns is what `parse`, `check_fields`
        and `text_and_hash` give for the line: its fields are matched exactly as banco spells
        them, and its data's text is the canonical text of a JSON object (parsed and spelt
        again the first time it is met, remembered, bounded)."""
        if line.startswith(self.line_head):  # a command's rows share their head
            begin = len(self.line_head)
            actor, cid = self.head_values
        else:
            head = _HEAD(line)
            if head is None:
                return None
            begin = head.end()
            self.line_head = line[:begin]
            self.head_values = actor, cid = \
                "banker" if head[1] == '"banker"' else None, head[3]
        end = line.rfind(_HASH_KEY)
        if end <= 0 or not line.startswith(_PREV_KEY, end + _AT_PREV_KEY) \
                or line[end + _AT_PREV:end + _AT_QUOTE] != prev \
                or line[end + _AT_QUOTE:end + _AT_REST] != '"':
            return None
        rest = end + _AT_REST
        if line.startswith(self.rest_head, rest):  # ... and their time and schema version
            at, version = self.rest_values
            number = f'{seq},"type":"'
            at_type = rest + len(self.rest_head) + len(number)
            stop = len(line) - 3 if line.endswith("\n") else len(line) - 2
            if not line.startswith(number, at_type - len(number)) \
                    or not line.startswith('"}', stop) or stop < at_type:
                return None
            type_ = line[at_type:stop]
            if type_ not in self.types:
                if _PLAIN_TEXT(type_) is None:
                    return None
                if len(self.types) >= self.KEEP:
                    self.types.clear()
                self.types.add(type_)
            tail = line[rest:stop + 2]
        else:
            m = _REST(line, rest)
            if m is None or int(m[4]) != seq:
                return None
            self.rest_head = line[rest:m.start(4)]
            self.rest_values = at, version = m[2], int(m[3])
            type_, tail = m[5], m[1]
        text = line[begin - 1:end]
        data = self.known.get(text)
        if data is None:
            data = self.older.get(text)
            if data is None:
                try:
                    data = _DECODE(text)
                    if type(data) is not dict or CANONICAL(data) != text:
                        return None
                except Exception:  # noqa: BLE001 - the long way says it, in its own words
                    return None
            if len(self.known) >= self.KEEP:  # bounded: the last two generations kept
                self.older, self.known = self.known, {}
            self.known[text] = data
        # the hashed body is the line without its hash and prev_hash (stored_row_hash's)
        hsh = sha256(f"{prev}{line[:end]}{tail}".encode()).hexdigest()
        if not line.startswith(hsh, end + _AT_HASH):
            return None
        return (seq, type_, text, at, actor, cid, version, prev, hsh, 2, None), data
