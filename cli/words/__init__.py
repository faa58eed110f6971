"""What banco says and in which language: the catalogs, a fact as a line, a reason in words.

The layering inside: i18n.py (the catalogs) at the bottom, reasons.py (a fact's English data in
words) on it, the renderers above.  Importing the package imports reasons.py, which gives
ledger/base/text.py its sayers: a message holding a fact's reason is said in the user's
language wherever it is said, by i18n.say_error too; and verdicts.py, which gives
ledger/records/verdicts.py a ruling's words.
"""

from banco.cli.words import (
    reasons,  # noqa: F401  (its sayers registered: see above)
    verdicts,  # noqa: F401  (a verdict's words, registered likewise)
)
