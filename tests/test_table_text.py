"""What the table reads: `state` (deeds by colour group, `next:`, `--at` notes), the header
rows of `standings`, `statement`, `history` and `games`, and `board` with its amounts."""

import json

import pytest


@pytest.fixture
def azzurro(banco):
    """Anna completes the light-blue group and builds; Bruno mortgages Via Accademia."""
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "3", "3")  # Anna: Bastioni Gran Sasso (doubles)       events 6-9
    banco("buy")  # 10-12
    banco("roll", "1", "2")  # Anna: Viale Vesuvio                        13-16
    banco("buy")  # 17-19
    banco("roll", "4", "4")  # Bruno: Viale Monterosa (doubles)           20-23
    banco("decline")  # 24-26
    banco("bid", "anna", "10")  # 27-28
    banco("hammer")  # 29-31
    banco("build", "bastioni", "gran", "sasso")  # 32-33
    banco("build", "viale", "monterosa")  # 34-35
    banco("roll", "1", "2")  # Bruno: Via Accademia                       36-39
    banco("buy")  # 40-42
    banco("mortgage", "via", "accademia")  # 43-44
    # (each command's first event is its CommandRecorded)
    return banco


def test_state_lists_deeds_by_colour_group_with_completeness(azzurro):
    out = azzurro("state").output
    assert out.splitlines()[3] == "player          cash  where"
    assert ("Anna          1170 M  Viale Vesuvio\n"
            "    azzurro 3/3: Bastioni Gran Sasso [1h], Viale Monterosa [1h], Viale Vesuvio\n"
            "Bruno         1430 M  Via Accademia\n"
            "    rosa 1/3: Via Accademia (M)\n"
            "Carla         1500 M  Via!\n") in out
    assert out.rstrip().endswith("next: Carla to `roll D1 D2`\nlast: mortgage via accademia "
                                 "(events 43-44, 0 s ago)")
    # the marks in the table's language: "[1h]" and "(M)" (also the money's M) are English
    out = azzurro("--lang", "it", "state").output
    assert "    azzurro 3/3: Bastioni Gran Sasso [1c], Viale Monterosa [1c], Viale Vesuvio\n" in out
    assert "    rosa 1/3: Via Accademia (ipot.)\n" in out


def test_state_stations_and_long_groups_wrap():
    from helpers import POS, new_table, own

    from banco.cli.words.table_text import deed_groups

    table = own(new_table(), "Anna", "Stazione Sud", "Stazione Nord", "Viale dei Giardini",
                "Parco della Vittoria")
    assert deed_groups(table, "Anna") == ["stazioni 2/4: Stazione Sud, Stazione Nord",
                                          "blu 2/2: Viale dei Giardini, Parco della Vittoria"]
    table = table._replace(buildings=tuple(5 if p in (POS["Viale dei Giardini"],
                                                       POS["Parco della Vittoria"]) else 0
                                           for p in range(40)),
                           mortgaged=frozenset({POS["Stazione Sud"]}))
    lines = deed_groups(table, "Anna")
    assert lines[0] == "stazioni 2/4: Stazione Sud (M), Stazione Nord"
    assert lines[1] == "blu 2/2: Viale dei Giardini [hotel], Parco della Vittoria [hotel]"
    long = own(new_table(), "Anna", *[s.name for s in table.edition.properties])
    long = long._replace(buildings=(5,) * 40, mortgaged=frozenset())
    assert all(len(x) <= 84 for x in deed_groups(long, "Anna"))


def test_state_at_ends_with_next(azzurro):
    out = azzurro("state", "--at", "19").output  # after Anna's buy: Bruno's turn
    assert "game 1 at event 19" in out and out.rstrip().endswith("next: Bruno to `roll D1 D2`")
    assert "note:" not in out


def test_state_at_inside_a_command_says_so(azzurro):
    out = azzurro("state", "--at", "38").output  # Bruno's roll: dice 37, move 38, offer 39
    assert ("note: event 38 is inside a command (events 36-39): the table is half-way, after "
            "CommandRecorded, DiceRolled, TokenMoved and before PurchaseOffered") in out
    assert "next: the command goes on to event 39 (`state --at 39` shows where it ended)" in out
    assert "Bruno to `roll D1 D2`" not in out


def test_state_at_marks_events_a_later_undo_took_back(azzurro):
    azzurro("undo")  # takes back the mortgage, event 44, by event 46
    azzurro("undo")  # takes back the buy, events 41-42, by event 48
    out = azzurro("state", "--at", "44").output
    assert "    rosa 1/3: Via Accademia (M)" in out
    assert "note: event 44 in this table was taken back later, by the undo at event 46" in out
    assert "note: events 41-42 in this table were taken back later, by the undo at event 48" in out
    out = azzurro("state", "--at", "41").output
    assert "event 41 in this table was taken back later, by the undo at event 48" in out
    assert "inside a command (events 40-42)" in out
    now = azzurro("state").output
    assert "note:" not in now and "rosa 1/3" not in now and "Bruno must `buy` or `decline`" in now


def test_read_commands_have_a_header_row(azzurro):
    lines = azzurro("standings").output.splitlines()
    assert lines[0].split() == ["player", "status", "net", "worth", "cash", "deeds"]
    assert lines[1].split() == ["1.", "Anna", "in", "play", "1590", "1170", "3"]
    lines = azzurro("statement", "bruno").output.splitlines()
    assert lines[0].split() == ["event", "amount", "balance", "from/to", "reason"]
    assert lines[1].split()[:4] == ["4", "+1500", "1500", "Bank"]
    lines = azzurro("history", "viale", "monterosa").output.splitlines()
    assert lines[0].split() == ["event", "owner", "what", "happened"]
    assert lines[1].split() == ["25", "Bank", "Bruno", "declined", "it"]
    lines = azzurro("games").output.splitlines()
    assert lines[0].split() == ["game", "started", "rules", "state", "players"]
    assert "classic" in lines[1] and "Anna, Bruno, Carla" in lines[1]


def test_board_shows_taxes_salary_and_jail_fine(banco, tmp_path):
    out = banco("board").output  # no game yet: the classic rule set
    assert "  0  Via!                    go          salary 200 M on passing or landing" in out
    assert "  4  Tassa Patrimoniale      tax         pay 200 M to the Bank" in out
    assert " 38  Tassa di Lusso          tax         pay 100 M to the Bank" in out
    assert " 10  Prigione                jail        fine 50 M to leave before rolling" in out
    assert "rents 4x dice or 10x dice" in out
    board = json.loads(banco("board", "--json").output)
    assert [(s["position"], s["amount"]) for s in board if s["amount"] is not None] == [
        (0, 200), (4, 200), (10, 50), (38, 100)]
    # a game's own rule set gives the salary and the fine
    house = tmp_path / "casa.toml"
    house.write_text('extends = "classic"\ngo_salary = 400\njail_fine = 100\n')
    banco("new", "A", "B", "--rules", str(house))
    out = banco("board").output
    assert "salary 400 M" in out and "fine 100 M" in out and "rule set casa" in out
    board = json.loads(banco("board", "--json").output)
    assert board[0]["amount"] == 400 and board[10]["amount"] == 100 and board[4]["amount"] == 200


def test_standings_and_state_columns_are_as_wide_as_what_they_hold(banco):
    # the columns were fixed: a long name or a wide one (emoji, CJK: two columns each) pushed
    # the numbers of its row out of line with the heading's
    from banco.cli.words.table_text import cell_width

    banco("new", "Anna", "Bartolomeo Massimiliano", "🎩Carla", "李雷")
    lines = banco("standings").output.splitlines()[:5]
    ends = {cell_width(line) for line in lines}
    assert len(ends) == 1, lines  # every row ends under `deeds`
    net = lines[0].index("net worth") + len("net worth")
    for line in lines[1:]:
        cut = len(line) - (cell_width(line) - net)  # the column where `net worth` ends
        assert line[:cut].endswith("1500") and line[cut:cut + 2] == "  ", line
    assert lines[2].split()[1:3] == ["Bartolomeo", "Massimiliano"]
    table = banco("state").output.splitlines()[3:8]
    assert table[0].split() == ["player", "cash", "where"]
    assert len({cell_width(line.split(" M ")[0]) for line in table[1:]}) == 1, table
    assert cell_width(table[0].split("cash")[0] + "cash") == cell_width(table[1].split(" M ")[0] + " M")
