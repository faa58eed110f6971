"""The command line, in layers (each imports only from those below it):

    cli/main.py                                   the `banco` group, on top
    cli/banker, cli/referee, cli/organiser, cli/web   the commands
    cli/session.py, cli/execution.py, cli/groups.py, cli/command_table.py   what they share
    cli/library.py                                `import banco`'s service: a line or a typed
                                                  command executed, its words per call; no click
    cli/ruling_log.py, cli/referees.py            a ruling read from the book, a referee's name
    cli/lines                                     the table of words, a line into a typed
                                                  command, an outcome into words: no click
    cli/words                                     what banco says, at the bottom

cli/command_table.py names each command's module as a string: a command is imported when it
runs, and the shell and `run` reach cli/main.py's group by name (its ROOT), not by an import.
"""
