"""The referee's commands: the log, the audit, the replay, rulings, corrections, seals."""
