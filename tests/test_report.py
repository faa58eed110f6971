"""`banco report`: one self-contained HTML page of a game, checked as text and rendered in
headless Chromium (Debian's `chromium`; the test is skipped, saying why, where it is absent)."""

import re
import shutil
import subprocess
from html import unescape

import pytest
from format1 import OLD_DB
from games import lines, record

from banco.cli.words.facts import describe
from banco.ledger.book import Book
from banco.projections.readings.report import board_cell, report_html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_NETWORK = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--no-first-run", "--disable-sync",
              "--enable-logging=stderr", "--v=0"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """The classic-4p game with a ruling recorded, a correction, and a command undone."""
    db = record(str(tmp_path_factory.mktemp("report") / "r.db"), "classic-4p")
    book = Book(db)
    late = next(e["seq"] for e in book.events(1) if e["type"] == "RentClaimRefused")
    book.close()
    lines(db, f"ruling rent {late} --record --referee Rita",
          "correct Anna 50 --reason 'change miscounted' --referee Rita", "roll 2 3", "undo")
    return db


def page_of(db, game_id=1):
    book = Book(db)
    events = book.events(game_id)
    state = book.state(game_id)
    book.close()
    return report_html(events, game_id, describe, head=events[-1]["hash"]), state, events


def test_the_page_holds_the_final_table_chart_board_and_timeline(game):
    html, state, events = page_of(game)
    for p in state.players:
        assert f'data-cash="{p.cash}">{state.edition.money(p.cash)}</td>' in html
    assert html.count("<polyline") == len(state.players)
    assert html.count('class="sq"') == 40
    ids = re.findall(r'id="e(\d+)"', html)
    assert sorted(map(int, ids)) == [e["seq"] for e in events]  # one anchor per event
    assert set(re.findall(r'href="#e(\d+)"', html)) <= set(ids)  # every link lands
    assert events[-1]["hash"] in html


def test_rulings_corrections_late_claims_and_undos_are_highlighted_and_linked(game):
    html, state, events = page_of(game)
    highlights = html.split('id="highlights"')[1].split("</ol>")[0]
    late = next(e["seq"] for e in events if e["type"] == "RentClaimRefused")
    assert re.search(rf'<li class="late"><a class="seq" href="#e{late}">#{late}</a>', highlights)
    assert 'class="ruling"' in highlights and f'href="#e{late}">event {late}</a>' in highlights
    assert 'class="correction"' in highlights and "change miscounted" in highlights
    undo = next(e for e in events if e["type"] == "EventRetracted")
    assert f'href="#e{undo["seq"]}"' in highlights
    for seq in undo["data"]["seqs"]:  # the events it took back are struck through
        assert re.search(rf'<li id="e{seq}" class="undone">', html)


def test_the_page_loads_nothing(game):
    html, _, _ = page_of(game)
    assert "<script" not in html.lower() and "src=" not in html
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    assert "Content-Security-Policy\" content=\"default-src 'none'" in html


def test_a_game_from_before_commands_were_recorded(tmp_path):
    db = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, db)
    html, state, events = page_of(db)
    ids = re.findall(r'id="e(\d+)"', html)
    assert sorted(map(int, ids)) == [e["seq"] for e in events]
    assert "(no line recorded)" in html


def test_the_board_goes_round_from_via_at_the_bottom_right():
    assert [board_cell(p) for p in (0, 1, 10, 11, 20, 21, 30, 31, 39)] == [
        (11, 11), (11, 10), (11, 1), (10, 1), (1, 1), (1, 2), (1, 11), (2, 11), (10, 11)]
    cells = {board_cell(p) for p in range(40)}
    assert len(cells) == 40


def test_the_command_line(game, tmp_path, banco):
    out = tmp_path / "game.html"
    said = banco("--db", game, "report", "-o", str(out)).output
    assert said.startswith(f"game 1: report written to {out}")
    assert "exists" in banco("--db", game, "report", "-o", str(out), code=2).output
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_the_page_says_the_audit_passed_with_the_head_line(game, tmp_path, banco):
    out = tmp_path / "game.html"
    banco("--db", game, "report", "-o", str(out))
    html = out.read_text(encoding="utf-8")
    book = Book(game)
    last = book.events(1)[-1]
    book.close()
    line = f"banco/1/{last['seq']}/{last['hash'][:12]}"
    verdict = html.index('<p class="audit ok" id="audit">audit passed: the history shown is '
                         f'verified, head {line}</p>')
    assert verdict < html.index('id="final"')  # near the top, before the table


def test_a_history_that_fails_its_audit_is_still_written_marked(game, tmp_path, banco):
    """A banker's undo forged behind the referee's correction: the page says where the audit
    failed, linked to that event in the timeline; the page is written all the same."""
    from forge import append_forged_undo

    db = tmp_path / "forged.db"
    shutil.copy(game, db)
    book = Book(str(db))
    corrected = next(e["seq"] for e in book.events(1) if e["type"] == "CashCorrected")
    book.close()
    last = append_forged_undo(db, 1, corrected)
    out = tmp_path / "game.html"
    said = banco("--db", str(db), "report", "-o", str(out), code=3).output  # as audit's
    assert f"game 1: FAILED at event {last + 2}" in said
    html = out.read_text(encoding="utf-8")
    assert f'<p class="audit bad" id="audit">audit FAILED at event <a href="#e{last + 2}">' \
           f"{last + 2}</a>: " in html
    assert "the banker&#x27;s undo does not reach behind a referee&#x27;s decision" in html
    assert f'<li id="e{last + 2}" class="undo">' in html  # the link lands in the timeline
    assert html.index('id="audit"') < html.index('id="final"')
    # a chain broken by an edit (no re-chaining): marked too, the rows shown as stored
    import sqlite3

    from forge import drop_triggers

    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET recorded_at='2026-11-29T23:59:59.000000Z' WHERE game_id=1 "
                 "AND seq=5")
    conn.commit()
    conn.close()
    said = banco("--db", str(db), "report", "-o", str(out), "--force", code=3).output
    assert "game 1: FAILED at event 5" in said
    html = out.read_text(encoding="utf-8")
    assert 'audit FAILED at event <a href="#e5">5</a>' in html and 'id="e5"' in html


# --- in a browser ---------------------------------------------------------------------------

def render(path, tmp_path) -> tuple[str, list[str]]:
    """The DOM Chromium builds from a file, and the console messages it logged."""
    result = subprocess.run(
        [CHROMIUM, *NO_NETWORK, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         path.as_uri()], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    return result.stdout, console


needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (Debian: apt-get install "
                             "chromium; .ci/run installs it where it can)")


@needs_chromium
def test_chromium_shows_the_final_cash_and_logs_no_console_message(game, tmp_path):
    html, state, _ = page_of(game)
    path = tmp_path / "game.html"
    path.write_text(html, encoding="utf-8")
    dom, console = render(path, tmp_path)
    assert console == []
    final = dom.split('id="final"')[1].split("</table>")[0]
    for p in state.players:
        row = re.search(rf'<tr data-player="{p.name}">(.*?)</tr>', final, re.S).group(1)
        cells = [unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        assert cells[1] == state.edition.money(p.cash)
    assert dom.count("<polyline") == len(state.players)


@needs_chromium
def test_the_console_check_catches_an_error_and_a_blocked_load(tmp_path):
    """The browser check can fail: a page that logs an error, or tries to load from the
    network under the report's policy, is caught."""
    noisy = tmp_path / "noisy.html"
    noisy.write_text("<!DOCTYPE html><p>x</p><script>console.error('boom')</script>",
                     encoding="utf-8")
    assert any("boom" in m for m in render(noisy, tmp_path)[1])
    html, _, _ = page_of(old_copy(tmp_path))
    loads = tmp_path / "loads.html"
    loads.write_text(html.replace("</body>", '<img src="http://example.invalid/x.png"></body>'),
                     encoding="utf-8")
    assert any("Content Security Policy" in m for m in render(loads, tmp_path)[1])


def old_copy(tmp_path):
    db = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, db)
    return db


def test_a_command_appended_meanwhile_is_in_neither_the_page_nor_its_verdict(game, tmp_path,
                                                                             monkeypatch):
    """The page and its audit are of the game as it stood when the report began: a command
    recorded at another terminal once the audit is under way is in neither, and the head
    shown is that moment's, in the page's head and in the verdict alike."""
    from click.testing import CliRunner

    from banco.cli.main import cli
    from banco.ledger.records.seals import head_line
    from banco.projections.audit import audit_games

    db = str(tmp_path / "game.db")
    shutil.copy(game, db)
    book = Book(db)
    before = list(book.stream(1))
    book.close()
    audit = audit_games.audit_game

    def play_then_audit(*args, **kw):
        lines(db, "roll 4 5")  # at another terminal, as the report runs
        return audit(*args, **kw)

    monkeypatch.setattr(audit_games, "audit_game", play_then_audit)
    out = tmp_path / "page.html"
    said = CliRunner().invoke(cli, ["--db", db, "report", "-o", str(out)])
    assert said.exit_code == 0, said.output
    book = Book(db)
    now = list(book.stream(1))
    book.close()
    assert len(now) > len(before)  # the command was recorded
    text = out.read_text(encoding="utf-8")
    line = head_line(1, before[-1]["seq"], before[-1]["hash"])
    assert f"verified, head {line}</p>" in text
    assert f'{before[-1]["hash"]} ({line})</p>' in text  # the page's own head: the same
    assert f"{len(before)} events)" in said.output
    assert f'id="e{now[-1]["seq"]}"' not in text
