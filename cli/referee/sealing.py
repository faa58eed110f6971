"""A referee's signature on a game's head: `keygen` (the key pair), `seal` (the game's head
signed and recorded, the seal file written), and the seal file read and its check said, for
`audit --seal` and `import --seal`."""

from __future__ import annotations

import os
import sys

import click

from banco.cli.session import pass_session, records
from banco.cli.words.i18n import _, say
from banco.ledger.base.errors import EXIT_AUDIT, UsageError
from banco.ledger.base.text import Fact


def read_seal(seal_path: str | None, pubkey_path: str | None):
    """(the seal file, the referee's public key) that --seal and --pubkey name."""
    from banco.cli.bounded_input import read_bounded
    from banco.ledger.records import seals

    if (seal_path is None) != (pubkey_path is None):
        raise UsageError("--seal FILE and --pubkey FILE go together: the seal the referee "
                         "kept, and the referee's public key (from `banco keygen`)")

    try:
        with open(seal_path, encoding="utf-8") as f:
            text = read_bounded(f, path=seal_path)  # `--seal /dev/zero` is not read whole
    except FileNotFoundError:
        raise UsageError("no seal file at {path}", path=seal_path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("cannot read the seal file {path}: {why}", path=seal_path,
                         why=exc) from None
    try:
        seal = seals.parse_seal(text)
    except seals.SealFileError as exc:
        raise UsageError("{path} is not a seal banco can read: {why}", path=seal_path,
                         why=exc.text) from None
    try:
        public = seals.load_public_key(pubkey_path)
    except seals.KeyFileError as exc:
        raise UsageError(exc.text) from None
    return seal, public


def print_seal(seal) -> None:
    """What a seal check found (projections/audit/database_audit.py SealCheck): for `audit --seal`
    and `import --seal`."""
    if seal is not None:
        who = _("referee {referee}, key {fingerprint}").format(referee=seal.referee,
                                                               fingerprint=seal.fingerprint)
        if seal.ok:
            click.echo(_("seal {line} ({who}): signature good; game {game}'s events 1-{seq} are "
                         "the ones sealed, none missing").format(line=seal.line, who=who,
                                                                 game=seal.game, seq=seal.seq))
            if seal.after:
                click.echo(_("  after the seal: events {first}-{last}:").format(
                    first=seal.seq + 1, last=seal.last_seq))
                for c in seal.after[:20]:
                    span = (_("event {seq}").format(seq=c["first"]) if c["first"] == c["last"]
                            else _("events {first}-{last}").format(first=c["first"],
                                                                   last=c["last"]))
                    click.echo(f"    {span}: {say(c['line'])}")
                if len(seal.after) > 20:
                    click.echo(_("    ... and {n} more commands").format(
                        n=len(seal.after) - 20))
            else:
                click.echo(_("  nothing was recorded after the seal"))
        elif seal.bad_seq is not None:
            click.echo(_("seal {line} ({who}): FAILED at event {seq}: {problem}").format(
                line=seal.line, who=who, seq=seal.bad_seq, problem=say(seal.problem)))
        else:
            click.echo(_("seal {line} ({who}): FAILED: {problem}").format(
                line=seal.line, who=who, problem=say(seal.problem)))


# --- keygen ---------------------------------------------------------------------------------

@click.command()
@click.option("--out", "prefix", default="referee", show_default=True, metavar="PREFIX",
              help="Write PREFIX.key (private: keep it away from the database) and PREFIX.pub.")
def keygen(prefix):
    """Make a referee's Ed25519 key pair for `banco seal`: PREFIX.key signs, PREFIX.pub
    checks (`banco audit --seal FILE --pubkey PREFIX.pub`).  Never overwrites a file."""
    from banco.ledger.base.names import code_point, hidden_character, shown
    from banco.ledger.records import seals

    # A control character in a key's name would make a file that `ls` shows as another
    # name, and the referee types the name back later (`seal --key`, `audit --pubkey`).
    bad = hidden_character(prefix)
    if bad is not None:
        raise UsageError("the name {text!r} holds the character {code}: give --out PREFIX in "
                         "printable characters", text=shown(prefix), code=code_point(bad))
    private_path, public_path = f"{prefix}.key", f"{prefix}.pub"
    for path in (private_path, public_path):
        if os.path.exists(path):
            raise UsageError("{path} exists: banco never overwrites a key (a lost key cannot "
                             "check old seals); give another --out PREFIX", path=path)
    folder = os.path.dirname(os.path.abspath(private_path))
    if not os.path.isdir(folder):
        raise UsageError("cannot write {path}: the folder {folder} does not exist",
                         path=private_path, folder=folder)
    private, public = seals.new_key_pair()
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private)
    with open(public_path, "xb") as f:
        f.write(public)
    key = seals.load_public_key(public_path)
    click.echo(_("wrote {private} (private: only the referee reads it) and {public} (public: "
                 "give it to whoever checks a seal)\nfingerprint {fingerprint}").format(
                     private=private_path, public=public_path,
                     fingerprint=seals.fingerprint(key)))


# --- seal -----------------------------------------------------------------------------------

@click.command()
@click.option("--key", "key_path", required=True, metavar="FILE",
              help="The referee's private key (`banco keygen`).")
@click.option("--referee", default=None, metavar="NAME",
              help="Who seals (default: the key file's name, `rita` for rita.key).")
@click.option("--out", "out_path", default=None, metavar="FILE",
              help="The seal file (default game-<N>-seal-<seq>.txt); never overwritten.")
@pass_session
@records
def seal(session, key_path, referee, out_path):
    """Sign the game's head with the referee's key, record the seal in the game
    (SealRecorded), and write the seal file the referee keeps; print the short line for the
    score sheet, banco/<game>/<seq>/<12 hex>.  The game is audited first: a history that does
    not audit clean is not sealed."""
    from banco.ledger.records import commands as c
    from banco.ledger.records import seals
    from banco.projections.audit.audit_games import audit_game

    try:
        key = seals.load_private_key(key_path)
    except seals.KeyFileError as exc:
        raise UsageError(exc.text) from None
    if referee is None:
        referee = os.path.splitext(os.path.basename(key_path))[0]
    if not referee.strip():
        raise UsageError("a seal names the referee: --referee NAME")
    from banco.ledger.rules.referee import referee_name

    referee = referee_name(referee)  # checked as a player's name is, before the key signs
    game = session.game()
    store = session.book.store
    from banco.cli.referees import referee_of

    referee = referee_of(store, game, referee)  # not a player of the game it seals
    seq = store.last_seq(game)
    out_path = out_path or f"game-{game}-seal-{seq}.txt"
    if os.path.exists(out_path) and session.command_id is None:
        raise UsageError("{path} exists: banco never overwrites a seal; give --out FILE",
                         path=out_path)
    report = audit_game(store, game)
    if not report.ok:
        click.echo(_("game {game}: FAILED at event {seq}: {problem}\nnot sealed: a seal "
                     "vouches for a history that audits clean").format(
                         game=game, seq=report.bad_seq, problem=say(report.problem)), err=True)
        sys.exit(EXIT_AUDIT)
    head = report.head
    info = store.game(game) or {}
    uuid = info.get("uuid")
    public = seals.public_hex(key)
    signature = seals.sign(key, seals.message(uuid, seq, head, referee))
    from banco.cli.session import record, tell

    # the head signed must still be the head when it is recorded
    outcome = record(session, c.Seal(seq, head, uuid, public, signature, referee), expect=seq)
    if outcome.refusal is not None:
        tell(outcome)
    fact = next(e for e in outcome.events if e["type"] == "SealRecorded")
    d = fact["data"]
    trail = [h[:seals.TRAIL_DIGITS] for _, h in store.checks().hashes(game, d["seq"])]
    sealed = seals.SealFile(game, uuid, d["seq"], d["head"], d["referee"], d["public_key"],
                            d["signature"], fact["recorded_at"], trail)
    if outcome.replayed and os.path.exists(out_path):
        click.echo(_("already sealed (event {seq}); {path} kept as it is").format(
            seq=fact["seq"], path=out_path))
    else:
        try:
            with open(out_path, "x", encoding="utf-8") as f:
                f.write(seals.seal_text(sealed))
        except OSError as exc:
            raise UsageError("the seal is recorded (event {seq}) but {path} cannot be written "
                             "({why}): `banco show {seq}` has its signature", seq=fact["seq"],
                             path=out_path, why=Fact(exc.strerror, "os")) from None
    click.echo(_("sealed game {game} at event {seq} (head {head}...), referee {referee}, key "
                 "{fingerprint}\nrecorded as event {event} (SealRecorded); seal file {path}"
                 ).format(game=game, seq=d["seq"], head=d["head"][:12], referee=d["referee"],
                          fingerprint=d["fingerprint"], event=fact["seq"], path=out_path))
    click.echo(sealed.line)
