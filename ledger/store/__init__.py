"""Persistence: the append-only event store and its hash chain, snapshots, seals and the file's
health.  Knows rows and games, not Monopoly."""
