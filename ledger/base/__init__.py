"""The words every other part of the ledger is written in: errors with their exit codes, messages
as templates (text), names as a banker types them, numbers as typed.  Imports nothing of banco."""
