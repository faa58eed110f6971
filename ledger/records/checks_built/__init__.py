"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.checks_built.part1 import CHECKS as _1
from banco.ledger.records.checks_built.part2 import CHECKS as _2
from banco.ledger.records.checks_built.part3 import CHECKS as _3
from banco.ledger.records.checks_built.part4 import CHECKS as _4
from banco.ledger.records.checks_built.part5 import CHECKS as _5

CHECKS = {**_1, **_2, **_3, **_4, **_5}
