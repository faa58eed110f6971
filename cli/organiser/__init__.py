"""The organiser's commands: games, statements, standings, export and import, the report, backups."""
