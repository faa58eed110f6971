"""Rows inserted many to a statement (ledger/store/many_rows.py), as the import writes events
and the read model's rows: every row once, in order, whatever the count against a statement's
size, and what INSERT OR IGNORE/REPLACE does to a row met twice, as executemany does."""

import sqlite3

import pytest

from banco.ledger.store.many_rows import PARAMETERS, ManyRows


@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:", isolation_level=None)
    c.execute("CREATE TABLE t (g INTEGER, a INTEGER, b TEXT, c TEXT, PRIMARY KEY (g, a))")
    yield c
    c.close()


def test_a_statement_binds_no_more_than_sqlite_allows_everywhere():
    many = ManyRows("INSERT INTO t (g, a, b, c)", 3)
    assert 1 + many.per * 3 <= PARAMETERS < 1 + (many.per + 1) * 3
    assert many.many.count("?1,") == many.per and "?1," in many.single


@pytest.mark.parametrize("count", [0, 1, 332, 333, 334, 1000])
def test_every_row_goes_in_once_in_order(conn, count):
    many = ManyRows("INSERT INTO t (g, a, b, c)", 3)
    rows = [(i, f"b{i}", None if i % 7 == 0 else "é" * (i % 3)) for i in range(count)]
    many.insert(conn, 9, rows)
    assert conn.execute("SELECT g, a, b, c FROM t ORDER BY rowid").fetchall() == \
        [(9, *r) for r in rows]


@pytest.mark.parametrize("verb,kept", [("OR IGNORE", "first"), ("OR REPLACE", "last")])
def test_a_row_met_twice_is_what_executemany_leaves(conn, verb, kept):
    many = ManyRows(f"INSERT {verb} INTO t (g, a, b, c)", 3)
    rows = [(i % 400, str(i), "x") for i in range(800)]  # each key twice, in two statements
    many.insert(conn, 1, rows)
    conn.executemany(f"INSERT {verb} INTO t (g, a, b, c) VALUES (2,?,?,?)", rows)
    one = conn.execute("SELECT a, b FROM t WHERE g=1 ORDER BY a").fetchall()
    two = conn.execute("SELECT a, b FROM t WHERE g=2 ORDER BY a").fetchall()
    assert one == two and one[0] == (0, "0" if kept == "first" else "400")
