"""The one table of banco's command words: each word in English and Italian, and for the words
written at the table (the turn, the estate, the rule sets' own, the referee's writes) its
arguments and its options in both languages.

Read by the click adapter (cli/command_table.py, cli/main.py), the shell and its completion
(cli/banker/), the phones' permissions (cli/web/permissions.py) and the parser
(cli/lines/parse.py).  Data only: no click, nothing printed."""

from __future__ import annotations

from typing import NamedTuple


class Arg(NamedTuple):
    name: str            # the builder's parameter
    many: bool = False   # click's nargs=-1: every word left
    required: bool = True
    whole: bool = False  # a whole number (click's INT, read as banco reads numbers)
    choice: tuple[str, ...] = ()  # the words it takes, if only these
    # what it names, for the shell's Tab (cli/banker/completion.py): "property", "space",
    # "deck", "card" (a deck's card), or who: "owner", "bidder", "debtor" (cli/lines/names.py WHO)
    kind: str | None = None
    metavar: str | None = None  # as the usage line says it (`D1 D2 [S]`); None: its NAME
    raw: bool = False    # its words as typed, options and all (`--give`: the word's own)


class Option(NamedTuple):
    names: tuple[str, ...]   # as click declares it: `--player`, `-p`
    dest: str                # the builder's parameter
    multiple: bool = False   # repeated: each value kept
    metavar: str | None = None
    help: str = ""           # click's help for it (English: the catalogs translate it)
    flag: bool = False       # click's is_flag: present or not, no value


class Word(NamedTuple):
    english: str
    italian: str | None
    kind: str                # "table" (a table action), "referee", "reading", "book" (the file)
    args: tuple[Arg, ...] = ()
    options: tuple[Option, ...] = ()
    loose: bool = False      # click's ignore_unknown_options: `-1` is a word (a bad number)
    records: bool = True     # takes --id KEY and --expect SEQ (cli/session.py's records)
    # a `--word` among its arguments is an unknown option (`roll 1 2 --playr`), not a word
    strays: bool = False


# the rulings a referee asks for (`ruling rent 27`), and their Italian words
RULING_KINDS = ("auction", "bankruptcy", "jail", "rent")
RULING_ALIASES = {"affitto": "rent", "asta": "auction", "bancarotta": "bankruptcy",
                  "prigione": "jail"}

PLAYER = Option(("--player", "-p"), "player", help="Check that it is this player's turn.")
PROPERTY = Arg("words", many=True, kind="property", metavar="PROPERTY")
PROPERTIES = Arg("words", many=True, kind="properties", metavar="PROPERTY...")  # one after another
DECK = Arg("deck", kind="deck")

# Every command word, English first, its Italian alias, what it is, and for a table action
# what it takes.  The order is `banco --help`'s and the shell's.
WORDS: tuple[Word, ...] = (
    # the turn
    Word("roll", "tira", "table", (Arg("dice", many=True, metavar="D1 D2 [S]"),), (PLAYER,),
         loose=True, strays=True),
    Word("move", "muovi", "table", (Arg("spaces", whole=True),), (PLAYER,), loose=True),
    Word("go", "vai", "table", (Arg("words", many=True, kind="space", metavar="SPACE"),),
         (PLAYER,)),
    Word("advance", "avanza", "table", (), (PLAYER,)),
    Word("buy", "compra", "table", (), (PLAYER,)),
    Word("decline", "rifiuta", "table", (), (PLAYER,)),
    Word("bid", "offerta", "table", (Arg("bidder", kind="bidder"), Arg("amount")), loose=True),
    Word("hammer", "aggiudica", "table",
         (Arg("words", many=True, required=False, kind="property",
              metavar="[PROPERTY|PLAYER]"),)),
    Word("claim", "riscuoti", "table", (Arg("owner", kind="owner"),)),
    Word("card", "carta", "table",
         (DECK, Arg("words", many=True, kind="card", metavar="CARD... [pay|draw]")), (PLAYER,),
         loose=True, strays=True),
    Word("misdraw", "carta-sbagliata", "table",
         (DECK, Arg("words", many=True, kind="card", metavar="CARD...")), records=False),
    Word("shuffle", "mescola", "table", (DECK,), records=False),
    Word("pay-fine", "paga-multa", "table", (), (PLAYER,)),
    Word("use-card", "usa-carta", "table", (), (PLAYER,)),
    Word("pay", "paga", "table", (Arg("debtor", required=False, kind="debtor"),),
         (Option(("--with", "--con"), "deeds", multiple=True, metavar="PROPERTY=PRICE",
                 help="Pay partly with a deed free of buildings, at the price the creditor "
                      "puts on it; the rest in cash (vintage, 002 §Varie).  Repeat for several "
                      "deeds."),)),
    Word("undo", "annulla", "table"),
    # what players own
    Word("build", "costruisci", "table", (PROPERTY,), (PLAYER,), loose=True),
    Word("sell", "vendi", "table", (PROPERTY,), (PLAYER,), loose=True),
    Word("break-up", "smonta", "table", (PROPERTIES,)),
    Word("mortgage", "ipoteca", "table", (PROPERTY,), (PLAYER,)),
    Word("unmortgage", "riscatta", "table", (PROPERTY,), (PLAYER,)),
    Word("trade", "scambia", "table", (Arg("words", many=True, required=False, raw=True),),
         loose=True),
    Word("bankrupt", "bancarotta", "table",
         (Arg("words", many=True, required=False, kind="debtor", raw=True,
              metavar="[DEBTOR] [--lift PROPERTY...]"),), loose=True),
    Word("auction-building", "asta-edificio", "table",
         (Arg("kind", choice=("house", "hotel", "casa", "albergo")),
          Arg("wanted", many=True, required=False, raw=True, metavar="--wanted NAME=N...")),
         loose=True),
    # the rule sets beyond classic
    Word("deal", "distribuisci", "table", (Arg("player"), PROPERTIES)),
    Word("time-up", "tempo-scaduto", "table"),
    Word("auction-deed", "asta-contratto", "table", (PROPERTY,)),
    # the referee's writes (cli/lines/referee.py builds them; cli/referee/ declares the click
    # commands, whose options these are)
    Word("correct", "correggi", "referee", (Arg("words", many=True, raw=True),),
         (Option(("--move",), "move", flag=True), Option(("--owner",), "owner", flag=True),
          Option(("--reason",), "reason"), Option(("--referee",), "referee")), loose=True),
    Word("ruling", "decisione", "referee",
         (Arg("kind", choice=tuple(RULING_KINDS) + tuple(RULING_ALIASES)),
          Arg("words", many=True, raw=True)),
         (Option(("--record",), "record", flag=True), Option(("--referee",), "referee"),
          Option(("--claim-at",), "claim_at"), Option(("--json",), "as_json", flag=True)),
         loose=True),
    # setting up, reading, the file
    Word("new", "nuova", "book", (Arg("players", many=True),),
         (Option(("--rules",), "rules"), Option(("--edition",), "edition"),
          Option(("--final",), "final", flag=True), Option(("--first",), "first"),
          Option(("--uuid",), "uuid")), records=True),
    Word("state", "stato", "reading"),
    Word("board", "tabellone", "reading"),
    Word("cards", "carte", "reading", (Arg("deck", required=False, kind="deck"),)),
    Word("run", "esegui", "book"), Word("shell", None, "book"),
    Word("tournament", "torneo", "book"), Word("log", "registro", "reading"),
    Word("audit", "verifica", "reading"), Word("show", "mostra", "reading"),
    Word("replay", "rivedi", "reading"), Word("games", "partite", "reading"),
    Word("statement", "estratto", "reading"),
    Word("history", "storia", "reading", (Arg("words", many=True, kind="property"),)),
    Word("standings", "classifica", "reading"), Word("export", "esporta", "reading"),
    Word("import", "importa", "book"), Word("report", "resoconto", "reading"),
    # `copia` is `copy` (it was `backup`'s, a false friend beside `trasferisci`); a backup is
    # a `salvataggio`, as Italian software names it
    Word("backup", "salvataggio", "book"), Word("copy", "copia", "book"),
    Word("doctor", "diagnosi", "reading"), Word("keygen", "chiavi", "book"),
    Word("seal", "sigilla", "book"), Word("serve", "schermo", "book"),
    Word("token", None, "book"), Word("help", "aiuto", "reading"),
)

BY_ENGLISH = {w.english: w for w in WORDS}


def naming(kind: str) -> frozenset[str]:
    """The words with an argument that names a `kind` (Arg.kind): `naming("deck")`."""
    return frozenset(w.english for w in WORDS if any(a.kind == kind for a in w.args))


# who an argument names, for the words that take one player of a kind (`claim` Tab: owners)
WHO_NAMED = {w.english: a.kind for w in WORDS for a in w.args[:1]
             if a.kind in ("owner", "bidder", "debtor")}
# The Italian word shown for each English one (help, completion, suggestions, the phones'
# pads): English -> Italian, one a command, from WORDS alone.  Whatever says a word reads it here,
# never by turning ALIASES round, which also holds the words read but never shown.
ITALIAN_WORDS = {w.english: w.italian for w in WORDS if w.italian}
# Italian words read (a line is recorded as typed and `run` replays transcripts) but never
# shown: `trasferisci`, copy's in an older banco; `chiedi`, the word on an Italian phone's claim
# button (CHIEDI 4 M ad Anna), which a family then typed in the shell and was told "no command
# called 'chiedi'" while the claim's window ran out.  No word names two commands.
FORMER = {"trasferisci": "copy", "chiedi": "claim"}
# Every Italian word read -> its English word (the same command; the line is recorded as
# typed): the words shown, and the former ones.
ALIASES = {**{it: en for en, it in ITALIAN_WORDS.items()}, **FORMER}
TABLE_ACTIONS = frozenset(w.english for w in WORDS if w.kind == "table")
REFEREE_ACTIONS = frozenset(w.english for w in WORDS if w.kind == "referee")

# A pay-or-draw card's choice said alone (`draw`, `pesca`): `card DECK N draw`.
CHOICE_ALONE = {"draw": "draw", "pesca": "draw", "pescare": "draw"}

# The Italian names of click's own options (each command's --referee, --reason, ...): an
# Italian message names what an Italian banker or referee types, and it works when typed.
# --db, --game, --lang, --json, --id, --host and --port stay as they are, in every language.
ITALIAN_OPTIONS = {
    "--referee": "--arbitro", "--reason": "--motivo", "--rules": "--regole",
    "--repair": "--ripara", "--record": "--registra", "--seal": "--sigillo",
    "--pubkey": "--chiave-pubblica", "--move": "--sposta", "--owner": "--proprietario",
    "--resume": "--riprendi", "--revoke": "--revoca", "--list": "--elenco",
    "--out": "--uscita", "--final": "--finale", "--fresh": "--da-capo",
    "--skip-refused": "--salta-rifiutate", "--at": "--al", "--claim-at": "--richiesta-al",
    "--tail": "--ultimi", "--player": "--giocatore", "--edition": "--edizione",
    "--force": "--forza", "--expect-head": "--impronta-attesa",
}
# The Italian words for the options a command parses among its own words:
# `scambia Anna Bruno --dai via roma --ricevi 100` is `trade ... --give ... --get`.
OPTION_ALIASES = {"--dai": "--give", "--ricevi": "--get", "--libera": "--lift",
                  "--fino-a": "--to", "--vogliono": "--wanted"}
# The options that say where, how and in which language to record a line, not what happened
# at the table; each takes a value.
CONTEXT_OPTIONS = frozenset({"--db", "--game", "--id", "--expect", "--lang"})

# `sell PROPERTY all`: every building of the group (`vendi via roma tutto`)
ALL_WORDS = frozenset({"all", "tutto", "tutti", "tutte"})
# The words a command reads among its arguments, in Italian too: a card's choice (`carta
# probabilita 11 paga`), a building (`asta-edificio casa`, `costruisci verde albergo`) and a
# get-out-of-jail card in a trade (`--dai carta-prigione`).  The Italian messages name these.
VALUE_ALIASES = {"paga": "pay", "pesca": "draw", "casa": "house", "albergo": "hotel",
                 "carta-prigione": "jail-card"}
# The Speedy die's faces, `b` and `m` for short
SPEEDY_WORDS = {"1": "1", "2": "2", "3": "3", "bus": "bus", "b": "bus", "mr": "mr", "m": "mr"}


def english_word(word: str) -> str:
    """The English command word a typed one names (`riscuoti` is `claim`, `ROLL` is `roll`:
    caps lock is no other word); any other word as it is."""
    low = word.lower()
    if low != word and (low in BY_ENGLISH or low in ALIASES or low in CHOICE_ALONE):
        word = low
    return ALIASES.get(word, word)


def italian_word(english: str) -> str:
    """The Italian word of an English one (the English where it has none)."""
    return ITALIAN_WORDS.get(english, english)


def spoken_option(option: str, language: str) -> str:
    """A click option's name as `language` types it (`--giocatore` in Italian)."""
    if language != "it":
        return option
    return ITALIAN_OPTIONS.get(option) or _ITALIAN_OWN.get(option, option)


_ITALIAN_OWN = {english: italian for italian, english in OPTION_ALIASES.items()}
_ENGLISH_OPTION = {**{italian: english for english, italian in ITALIAN_OPTIONS.items()},
                   **OPTION_ALIASES}


def english_option_words(args) -> list[str]:
    """A command line's words with the options typed in Italian said in English (`--al 3`,
    `--al=3` are `--at 3`, `--at=3`; `--dai` is `--give`)."""
    out = []
    for word in args:
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            english = _ENGLISH_OPTION.get(name.lower())
            if english is not None:
                word = english + eq + value
        out.append(word)
    return out


def english_value(word: str) -> str:
    """An argument word as the command reads it: its English word if it is an Italian one."""
    low = word.lower()
    return VALUE_ALIASES.get(low, low)
