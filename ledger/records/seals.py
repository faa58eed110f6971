"""Seals: a referee's signature on a game's head, and the short head line for score sheets."""

from __future__ import annotations

import re
from hashlib import sha256
from typing import NamedTuple

from banco.ledger.base.text import Fact, Text, msg

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
    m = _LINE.match(text.strip().lower())
    if m is None:
        return None
    return HeadLine(int(m.group(1)), int(m.group(2)), m.group(3))


# --- what a seal signs ----------------------------------------------------------------------
#
# A seal is a referee's Ed25519 signature (RFC 8032) on these few lines, UTF-8, each ending
# with a newline: the game's identity (the game_uuid of its GameStarted: the local number is
# only an alias), the seq and hash of the event sealed (the game's head when it was sealed)
# and the referee's name.  Anyone with the referee's public key can check it; nobody without
# the private key (kept outside the database) can make one for another head.
#
#     banco seal 1
#     game 6f1c1c5e-...
#     seq 57
#     head 3be0...(64 hex)
#     referee Rita

SEAL_FORMAT = "banco seal 1"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_HEX128 = re.compile(r"^[0-9a-f]{128}$")


def message(game_uuid: str | None, seq: int, head: str, referee: str) -> bytes:
    return (f"{SEAL_FORMAT}\ngame {game_uuid or '-'}\nseq {seq}\nhead {head}\n"
            f"referee {referee}\n").encode()


def fingerprint(public_key: str) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key: what a referee reads
    out to say which key is his."""
    return sha256(bytes.fromhex(public_key)).hexdigest()[:16]


def record_seal(tx, cmd) -> None:
    """decide for a Seal (ledger/records/commands.py): the head it signs is the game's head, the event
    just before it.  Pure: the signature itself is checked where the key and the chain's
    hashes are at hand (`banco seal` before it records, the audit after)."""
    from banco.ledger.base.errors import RuleViolation

    if not cmd.referee.strip():
        raise RuleViolation("a seal names the referee", allowed="--referee NAME")
    if not cmd.referee.isprintable():  # the seal file and the signed text are one line each
        raise RuleViolation("a referee's name is one line of printable text",
                            allowed="--referee NAME")
    head_seq = tx.seq - 1  # the seq of this command's CommandRecorded (decide_tx's `seq`)
    if cmd.seq != head_seq:
        raise RuleViolation("a seal signs the game's head, event {head}, not event {seq}",
                            head=head_seq, seq=cmd.seq)
    for what, value, pattern in ((msg("the seal's head"), cmd.head, _HEX64),
                                 (msg("the seal's public key"), cmd.public_key, _HEX64),
                                 (msg("the seal's signature"), cmd.signature, _HEX128)):
        if not isinstance(value, str) or not pattern.match(value):
            raise RuleViolation("{what} is not lower-case hex of the right length", what=what)
    tx.emit("SealRecorded", seq=cmd.seq, head=cmd.head, public_key=cmd.public_key,
            fingerprint=fingerprint(cmd.public_key), signature=cmd.signature,
            referee=cmd.referee)


# --- keys (the `cryptography` package, imported only here) ----------------------------------

class Unreadable(ValueError):
    """A file banco cannot use: why, in a sentence (`text`, a message the CLI says in the
    user's language; str() is English)."""

    def __init__(self, text: Text):
        super().__init__(str(text))
        self.text = text


class KeyFileError(Unreadable):
    """A key file banco cannot use."""


class SealFileError(Unreadable):
    """A seal file that is not one banco can read."""


def new_key_pair() -> tuple[bytes, bytes]:
    """(private key PEM, public key PEM) of a fresh Ed25519 pair."""
    from cryptography.hazmat.primitives import serialization as s
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption())
    public = key.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo)
    return private, public


def _read(path: str, what: Text) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise KeyFileError(msg("no {what} at {path} (`banco keygen` makes a key pair)",
                               what=what, path=path)) from None
    except OSError as exc:
        raise KeyFileError(msg("cannot read the {what} {path}: {why}", what=what, path=path,
                               why=Fact(exc.strerror, "os"))) from None


def load_private_key(path: str):
    """The Ed25519 private key in a PEM file (as `banco keygen` writes it)."""
    from cryptography.hazmat.primitives import serialization as s
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    data = _read(path, msg("private key"))
    try:
        key = s.load_pem_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(msg("{path} is protected by a password: banco reads keys without "
                               "one (keep the file safe instead)", path=path)) from None
    except ValueError:
        if b"PUBLIC" in data:
            raise KeyFileError(msg("{path} is not a private key in PEM form (that is the public "
                                   "key: sign with the .key file)", path=path)) from None
        raise KeyFileError(msg("{path} is not a private key in PEM form", path=path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(msg("{path} is not an Ed25519 key: `banco keygen` makes one",
                               path=path))
    return key


def public_hex(private_key) -> str:
    from cryptography.hazmat.primitives import serialization as s

    return private_key.public_key().public_bytes(s.Encoding.Raw, s.PublicFormat.Raw).hex()


def load_public_key(path: str) -> str:
    """The raw public key (hex) in a PEM file (as `banco keygen` writes it), or a file holding
    just its 64 hex digits."""
    from cryptography.hazmat.primitives import serialization as s
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    data = _read(path, msg("public key"))
    text = data.decode("utf-8", "replace").strip().lower()
    if _HEX64.match(text):
        return text
    try:
        key = s.load_pem_public_key(data)
    except ValueError:
        if b"PRIVATE" in data:
            raise KeyFileError(msg("{path} is not a public key in PEM form (that is a private "
                                   "key: give the .pub file)", path=path)) from None
        raise KeyFileError(msg("{path} is not a public key in PEM form", path=path)) from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(msg("{path} is not an Ed25519 public key: `banco keygen` makes one",
                               path=path))
    return key.public_bytes(s.Encoding.Raw, s.PublicFormat.Raw).hex()


def sign(private_key, text: bytes) -> str:
    return private_key.sign(text).hex()


def verify(public_key: str, signature: str, text: bytes) -> bool:
    """Whether `signature` (hex) is the holder of `public_key` (hex)'s on `text`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), text)
    except (InvalidSignature, ValueError):
        return False
    return True


# --- the seal file the referee keeps --------------------------------------------------------
#
# Plain text, one `name: value` a line (a `#` line is a comment), then the trail: the first
# 8 hex digits of every event's hash up to the sealed one, ten a line.  The signature covers
# the game, seq, head and referee; the trail is not signed (the head already proves whether
# the history is the sealed one): it only says where a history that is not parts from it.

TRAIL_DIGITS = 8


class SealFile(NamedTuple):
    game: int
    game_uuid: str | None
    seq: int
    head: str
    referee: str
    public_key: str
    signature: str
    sealed_at: str
    trail: list[str]  # TRAIL_DIGITS hex of the hash of events 1..seq

    @property
    def line(self) -> str:
        return head_line(self.game, self.seq, self.head)

    def message(self) -> bytes:
        return message(self.game_uuid, self.seq, self.head, self.referee)


def seal_text(seal: SealFile) -> str:
    rows = [
        "# banco seal: a referee's signature on a game's head.  Keep this file; check a",
        "# database against it with: banco audit --seal THIS_FILE --pubkey REFEREE.pub",
        f"format: {SEAL_FORMAT}",
        f"game: {seal.game}",
        f"game uuid: {seal.game_uuid or '-'}",
        f"event: {seal.seq}",
        f"head: {seal.head}",
        f"line: {seal.line}",
        f"referee: {seal.referee}",
        f"sealed at: {seal.sealed_at}",
        f"public key: {seal.public_key}",
        f"fingerprint: {fingerprint(seal.public_key)}",
        f"signature: {seal.signature}",
        f"trail: {len(seal.trail)} events, the first {TRAIL_DIGITS} hex digits of each hash",
    ]
    for i in range(0, len(seal.trail), 10):
        rows.append(f"  {i + 1:>6}  {' '.join(seal.trail[i:i + 10])}")
    return "\n".join(rows) + "\n"


def parse_seal(text: str) -> SealFile:
    """A seal file back; SealFileError (a ValueError) naming what is wrong with it."""
    fields: dict[str, str] = {}
    trail: list[str] = []
    in_trail = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if in_trail:
            parts = line.split()
            if not parts[0].isdecimal() or int(parts[0]) != len(trail) + 1:
                raise SealFileError(msg("line {n}: the trail is out of order", n=n))
            trail.extend(p.lower() for p in parts[1:])
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise SealFileError(msg("line {n} is not `name: value`: {line}", n=n,
                                    line=_cut(line)))
        fields[key.strip().lower()] = value.strip()
        in_trail = key.strip().lower() == "trail"
    if fields.get("format") != SEAL_FORMAT:
        raise SealFileError(msg("it is not a banco seal (its format line should say "
                                "{format!r})", format=SEAL_FORMAT))
    try:
        seal = SealFile(int(fields["game"]), None if fields["game uuid"] == "-" else
                        fields["game uuid"], int(fields["event"]), fields["head"].lower(),
                        fields["referee"], fields["public key"].lower(),
                        fields["signature"].lower(), fields.get("sealed at", ""), trail)
    except KeyError as exc:
        raise SealFileError(msg("it has no `{name}:` line", name=exc.args[0])) from None
    except ValueError:
        raise SealFileError(msg("its game and event are not numbers")) from None
    if not (_HEX64.match(seal.head) and _HEX64.match(seal.public_key)
            and _HEX128.match(seal.signature)):
        raise SealFileError(msg("its head, public key or signature is not hex of the right "
                                "length"))
    if trail and (len(trail) != seal.seq or any(len(t) != TRAIL_DIGITS for t in trail)):
        raise SealFileError(msg("its trail has {entries} entries for {seq} events",
                                entries=len(trail), seq=seal.seq))
    return seal


def _cut(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
