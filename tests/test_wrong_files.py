"""A file of the wrong kind given to `run` or `import` is named for what it is, by its first
bytes (cli/file_kinds.py), exit 2 and nothing written: a SQLite database (use --db or `banco
copy`), a gzip or zip file, UTF-16 text.  Text that is not UTF-8 says where: its line, the
byte and its offset.  A UTF-8 byte-order mark is read past by both."""

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

BANCO = str(Path(sys.executable).parent / "banco")


@pytest.fixture
def database(banco, tmp_path):
    db = str(tmp_path / "games.db")
    banco("--db", db, "new", "Anna", "Bruno")
    return db


@pytest.mark.parametrize("command,what", [("run", "a transcript"),
                                          ("import", "a banco export")])
def test_a_database_is_named_with_what_to_do(banco, database, tmp_path, command, what):
    other = str(tmp_path / "other.db")
    out = banco("--db", other, command, database, code=2).output
    assert (f"{database} is a SQLite database, not {what}: give it as --db to read or play its "
            f"games (`banco --db {database} games`), or bring them into {other} with `banco "
            f"copy {database} {other}`") in out
    assert not os.path.exists(other)


@pytest.mark.parametrize("command,what", [("run", "a transcript"),
                                          ("import", "a banco export")])
def test_a_compressed_file_is_named(banco, tmp_path, command, what):
    packed = tmp_path / "game.jsonl.gz"
    packed.write_bytes(gzip.compress(b"new Anna Bruno\n"))
    out = banco(command, str(packed), code=2).output
    assert (f"{packed} is a gzip file, not {what}: gunzip it first (`gunzip -k {packed}`)"
            in out)
    zipped = tmp_path / "game.zip"
    zipped.write_bytes(b"PK\x03\x04" + bytes(40))
    assert f"{zipped} is a zip archive, not {what}: unzip it first" in banco(
        command, str(zipped), code=2).output
    wide = tmp_path / "wide.banco"
    wide.write_bytes("new Anna Bruno\n".encode("utf-16"))
    assert f"{wide} is UTF-16 text, not {what}: banco reads UTF-8" in banco(
        command, str(wide), code=2).output
    assert not os.path.exists(banco.db)


def test_text_not_utf8_says_its_line_byte_and_offset(tmp_path):
    """The byte's value and where it is: 'byte 30' was the offset, said as if a byte's value."""
    script = tmp_path / "latin1.banco"
    script.write_bytes("new Anna Bruno\nroll 1 2 # caffè\n".encode("latin-1"))
    r = subprocess.run([BANCO, "--db", str(tmp_path / "t.db"), "run", str(script)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert ("is not a transcript: it is not UTF-8 text (line 2 holds the byte 0xe8, at offset "
            "30)") in r.stderr
    # after a byte-order mark: the offset in the file, the mark counted
    script.write_bytes(b"\xef\xbb\xbf" + "new Anna Bruno\n\xe8\n".encode("latin-1"))
    r = subprocess.run([BANCO, "--db", str(tmp_path / "t.db"), "run", str(script)],
                       capture_output=True, text=True)
    assert "(line 2 holds the byte 0xe8, at offset 18)" in r.stderr
    assert not (tmp_path / "t.db").exists()


def test_an_export_saved_with_a_bom_imports(banco, database, tmp_path):
    exported = banco("--db", database, "export").output.encode()
    marked = tmp_path / "marked.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + exported)
    out = banco("--db", str(tmp_path / "new.db"), "import", str(marked)).output
    assert "as game 1: Anna, Bruno" in out and "chain intact, audit passed" in out
