"""Letters of other scripts that print as Latin ones: `Bea` and `Bеa` (a Cyrillic е) are two
names to the computer and one to the table.  A name's skeleton maps the Cyrillic and Greek
letters that look like Latin ones to those (after Unicode's confusables.txt, the letters a
table's names meet), then folds it as names are matched (case and accents ignored): two names
with one skeleton would be told apart by nobody at the table."""

from __future__ import annotations

from banco.ledger.base.names import fold

_LOOKALIKES = str.maketrans({
    # Cyrillic
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S", "Ԁ": "D", "Ү": "Y", "Ԛ": "Q",
    "Ԝ": "W", "Ӏ": "I",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y", "ё": "ë", "ї": "ï",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "ο": "o", "ν": "v", "ι": "i", "α": "a", "ρ": "p", "υ": "u", "κ": "k", "ϲ": "c", "ϳ": "j",
})

# the letters above, for the phones' page to show visibly where a typed word mixes them with
# Latin ones (cli/web/words.py)
LOOKALIKE_LETTERS = "".join(map(chr, _LOOKALIKES))


def skeleton(name: str) -> str:
    """What `name` looks like: its look-alike letters as Latin ones, NFKC, folded."""
    import unicodedata

    return fold(unicodedata.normalize("NFKC", name).translate(_LOOKALIKES))
