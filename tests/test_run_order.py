"""The default run's order: the files conftest.py starts first are files of the suite (a file
split or renamed and left there by its old name would silently run in its usual place, and a
long one could be handed to a worker last while the other idles)."""

from pathlib import Path

from conftest import LONGEST_FIRST


def test_the_longest_files_started_first_are_in_the_suite():
    here = Path(__file__).parent
    assert [name for name in LONGEST_FIRST if not (here / name).is_file()] == []
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
