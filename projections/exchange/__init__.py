"""A game's (or a tournament's) history as a file a third party can verify, and the import that
verifies it."""
