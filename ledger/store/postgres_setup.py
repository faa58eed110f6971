"""Install banco's tables in a PostgreSQL database and grant banco's role its rights (run once
by the database's owner, not by banco's role):

    python -m banco.ledger.store.postgres_setup postgresql://OWNER@HOST/DB --role banco

The tables belong to OWNER; the role named (the user of the URL every table's banco uses)
may read and append the log and keep the games index, the snapshots and the read model,
nothing more (ledger/store/postgres_schema.py).  Running it again changes nothing but the grants."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from banco.ledger.base.errors import BancoError
    from banco.ledger.store.canonical import now_text
    from banco.ledger.store.postgres_connection import connect
    from banco.ledger.store.postgres_schema import LOCKS, SCHEMA_LOCK, create, grant

    parser = argparse.ArgumentParser(prog="python -m banco.ledger.store.postgres_setup",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the database, as its owner")
    parser.add_argument("--role", action="append", default=[],
                        help="a role banco connects as (may be given more than once)")
    args = parser.parse_args(argv)
    try:
        conn = connect(args.url, 5.0)
    except BancoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    import psycopg

    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, SCHEMA_LOCK))
            create(conn, now_text())
            for role in args.role:
                grant(conn, role)
    except psycopg.Error as exc:
        print(f"error: {str(exc).strip().splitlines()[0]}", file=sys.stderr)
        return 4
    finally:
        conn.close()
    print(f"banco's tables are in place; granted to: {', '.join(args.role) or 'no role'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
