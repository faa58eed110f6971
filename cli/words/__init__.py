"""What banco says and in which language: the catalogs, a fact as a line, a reason in words."""
