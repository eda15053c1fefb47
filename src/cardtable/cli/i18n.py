"""Every text the terminal front end shows, in English and German.

    t(lang, key, **kw)  ->  TEXTS[lang][key].format(**kw)

Both languages hold exactly the same keys (a test checks it). Keys are grouped by prefix:
`cli.*` the generic front end (main.py), `help.*` option help, `ab.*` Abluxxen (abluxxen_ui.py).
Messages of the engine itself (IllegalDecision.reason, ConfigError) stay in English.
"""

from __future__ import annotations

import os

LANGS = ("en", "de")

EN: dict[str, str] = {
    # -- generic front end --------------------------------------------------------------------
    "cli.app": "Rule-exact card games in the terminal: Abluxxen (Linko!) and, later, Kombio.",
    "cli.version": "cardtable {version}",
    "cli.error": "cardtable: error: {msg}",
    "cli.you": "You",
    "cli.seat_name": "Seat {n}",
    "cli.bot_seat": "{name} (seat {seat}, {kind} bot)",
    "cli.seed": "Seed {seed} (play this deal again with --seed {seed})",
    "cli.players": "Players: {players}",
    "cli.player_seat": "{name} (seat {seat})",
    "cli.prompt": "Your decision> ",
    "cli.menu": "Legal decisions (type the text or its number; 'help', 'quit'):",
    "cli.forced": "Only one choice: {decision} (confirmed automatically, AB-21)",
    "cli.illegal": "Not allowed: {reason}",
    "cli.not_legal": "that is not legal now",
    "cli.bad_number": "There is no choice {n} (choose 1..{max})",
    "cli.empty_input": "Type a decision or a number from the menu ('help' explains).",
    "cli.help": ("Type a decision in the notation, or its number in the menu.\n"
                 "{game_help}\n"
                 "help: this text · quit: end the game now (saved with --save)"),
    "cli.saved": "Record saved to {path}",
    "cli.quit": "Game ended by you.",
    "cli.game_of": "Game {i} of {n}, start player: {name}",
    "cli.continue": "Press Enter for the next game ('quit' to stop)> ",
    "cli.replay_head": "Replay: {game}, {players} players, seed {seed}, {n} actions",
    "cli.replay_as": "Seen by {name} (seat {seat})",
    "cli.replay_pause": "Enter: next action> ",
    "cli.replay_unfinished": "The record ends before the game is over.",
    "cli.replay_final": "Final state",
    "cli.replay_step": "{i:>3}. {line}",
    # usage errors
    "cli.err_lang": "--lang must be 'de' or 'en', not {lang!r}",
    "cli.err_seat": "--seat {seat} does not exist: seats are 0..{max}",
    "cli.err_as": "--as {seat} does not exist: a {players}-player game has seats 0..{max}",
    "cli.err_bots_count": "--bots needs one bot name or {n} (one per other seat), not {k}",
    "cli.err_unknown_game": "unknown game {game!r} (known: {known})",
    "cli.err_unavailable": "the game {game!r} is not available yet: {module} is not installed",
    "cli.err_record": "malformed record: {msg}",
    # -- option help --------------------------------------------------------------------------
    "help.version": "Show the version and exit.",
    "help.play": "Play a game in the terminal against bots.",
    "help.replay": "Replay a game record: in words, or the final state as JSON.",
    "help.game": "The game: abluxxen (kombio comes later).",
    "help.variant": "Abluxxen: basic, advanced, expert, duel or classic (default basic).",
    "help.players": "Number of players (default 4; the duel 2).",
    "help.seat": "Your seat, 0-based (default 0).",
    "help.bots": ("Bots for the other seats in seat order, comma-separated (random, greedy); "
                  "one name is used for all."),
    "help.seed": "Seed of the deal (default: random, printed so the game can be repeated).",
    "help.lang": "Language: de or en (default: from LANG / LC_ALL).",
    "help.save": "Write the game record to FILE at the end or on quit (a match: FILE-1, FILE-2, ...).",
    "help.rounds": "Classic: number of games of the CL-5 match (default: number of players).",
    "help.start": "Starting seat (default 0).",
    "help.auto": "Confirm decisions with only one legal choice automatically (AB-21).",
    "help.file": "The game record (JSON, see NOTATION.md).",
    "help.json": "Print the state after the last action as JSON (the replay contract).",
    "help.as": "Show only what this seat may see.",
    "help.pause": "Pause for Enter between actions (default: only when stdout is a terminal).",
    # -- Abluxxen -----------------------------------------------------------------------------
    "ab.title": "Abluxxen · {variant}",
    "ab.variant.basic": "basic game",
    "ab.variant.advanced": "advanced game",
    "ab.variant.expert": "expert game",
    "ab.variant.duel": "duel",
    "ab.variant.classic": "classic",
    "ab.col.player": "Player",
    "ab.col.hand": "Hand",
    "ab.col.display": "Display (bottom → top, »top« exposed)",
    "ab.empty": "—",
    "ab.your_hand": "Your hand",
    "ab.hand_of": "Hand of {name}",
    "ab.jokers": "jokers",
    "ab.no_cards": "no cards",
    "ab.pool": "Pool",
    "ab.shadow": "Shadow display",
    "ab.supply": "Deck: {deck} cards · Discard pile: {discard} cards",
    "ab.turn": "Turn: {name}",
    # why
    "ab.why.over": "The game is over.",
    "ab.why.play.you": ("Your turn: play a set (cards of one number plus any jokers, or jokers "
                        "alone)."),
    "ab.why.play": "{name}'s turn: {name} plays a set.",
    "ab.why.shadow.you": ("Your {set} shadowluxxes: take one shadow stack of the same size "
                          "({size}) and a lower number than {value} into your hand (DU-4)."),
    "ab.why.shadow": "{name}'s {set} shadowluxxes: {name} picks a shadow stack (DU-4).",
    "ab.why.take.you": ("You abluxx {victim}: your {set} beat {victim}'s {vset}. Take them "
                        "({victim} then draws {n}) or leave them to {victim} (AB-11)."),
    "ab.why.take.victim": ("{name} abluxxes you: {name}'s {set} beat your {vset}. {name} takes "
                           "them or leaves them to you (AB-11)."),
    "ab.why.take": ("{name} abluxxes {victim}: {set} beat {vset}. {name} takes them or leaves "
                    "them to {victim} (AB-11)."),
    "ab.why.keep.you": ("{name} left your {vset} to you: keep them (back into your hand) or "
                        "discard them and draw {n} (AB-11)."),
    "ab.why.keep": ("{name} left the {vset} to {victim}: {victim} keeps them or discards them "
                    "and draws {n} (AB-11)."),
    "ab.why.draw.you.1": "You owe 1 more draw: a pool card or the top card of the deck (AB-12).",
    "ab.why.draw.you.n": "You owe {n} more draws: a pool card or the top card of the deck (AB-12).",
    "ab.why.draw.1": "{name} owes 1 more draw (AB-12).",
    "ab.why.draw.n": "{name} owes {n} more draws (AB-12).",
    "ab.why.deck_empty": " The deck is empty: only the pool is left (AB-13).",
    "ab.why.optional.you": "You abluxxed nobody: draw one card or pass (AB-15).",
    "ab.why.optional": "{name} abluxxed nobody: {name} may draw one card or pass (AB-15).",
    # log lines
    "ab.log.play.you": "You play {set}",
    "ab.log.play": "{name} plays {set}",
    "ab.log.hand_empty.you": " and have no cards left (AB-7)",
    "ab.log.hand_empty": " and has no cards left (AB-7)",
    "ab.log.shadow.you": "You shadowluxx the shadow stack {set} into your hand (DU-4)",
    "ab.log.shadow": "{name} shadowluxxes the shadow stack {set} into the hand (DU-4)",
    "ab.log.take.you": "You abluxx {whose} and take them ({victim} draws {n})",
    "ab.log.take": "{name} abluxxes {whose} and takes them",
    "ab.log.leave.you": "You abluxx {whose} and leave them to {victim}",
    "ab.log.leave": "{name} abluxxes {whose} and leaves them to {victim}",
    "ab.log.keep.you": "You keep your {set}",
    "ab.log.keep": "{name} keeps the {set}",
    "ab.log.discard.you": "You discard your {set} and must draw {n}",
    "ab.log.discard": "{name} discards the {set} and must draw {n}",
    "ab.log.draw_pool.you": "You draw {item} from the pool",
    "ab.log.draw_pool": "{name} draws {item} from the pool",
    "ab.log.draw_deck_seen.you": "You draw {card} from the deck",
    "ab.log.draw_deck_seen": "{name} draws {card} from the deck",
    "ab.log.draw_deck.you": "You draw from the deck",
    "ab.log.draw_deck": "{name} draws from the deck",
    "ab.log.pass.you": "You pass (no draw)",
    "ab.log.pass": "{name} passes (no draw)",
    "ab.log.other": "{name}: {decision}",
    "ab.whose.you": "your {set}",
    "ab.whose": "{name}'s {set}",
    "ab.to_you": "you",
    # summary
    "ab.sum.title": "Result",
    "ab.sum.display": "Display +",
    "ab.sum.hand": "Hand −",
    "ab.sum.score": "Score",
    "ab.sum.winner": "winner",
    "ab.sum.end_hand": "The game ended because {name} played the last hand card ({clause}).",
    "ab.sum.end_hand.you": "The game ended because you played your last hand card ({clause}).",
    "ab.sum.end_supply": "The game ended because the deck and the pool were used up ({clause}).",
    "ab.sum.winners.1": "Winner: {names}",
    "ab.sum.winners.n": "Winners: {names}",
    "ab.err_rounds": "--rounds is for --variant classic only (a CL-5 match)",
    "ab.sum.tie_fewer": ("Tie at {score} points ({tied}): the fewer hand cards decide "
                         "(AB-18)."),
    "ab.sum.with_hand": "{name} with {n} hand cards",
    "ab.sum.tie_still": ("Tie at {score} points ({tied}) with equal hand cards: all of them win "
                         "(AB-18)."),
    "ab.sum.tie_shared": "Tie at {score} points ({tied}): ties are not broken, all of them win (CL-4).",
    "ab.match.title": "Match (CL-5): running scores",
    "ab.match.game": "Game {i}",
    "ab.match.total": "Total",
    "ab.match.result": "Match over after {n} games. {winners}",
    "ab.match.winners.1": "Match winner: {names}",
    "ab.match.winners.n": "Match winners (tie, CL-4): {names}",
    "ab.list_and": " and ",
    "ab.help": ("Abluxxen decisions: play 7 7 X | play X X | shadow 5 (duel) | take | leave | "
                "keep | discard | draw deck | draw pool 8 | draw pool 3+13+X (duel group) | pass\n"
                "A set: cards of one number plus any jokers, or jokers alone (AB-5). It abluxxes "
                "a top layer of the same size and a lower number (AB-8)."),
}

DE: dict[str, str] = {
    # -- generic front end --------------------------------------------------------------------
    "cli.app": "Regelgenaue Kartenspiele im Terminal: Abluxxen (Linko!) und später Kombio.",
    "cli.version": "cardtable {version}",
    "cli.error": "cardtable: Fehler: {msg}",
    "cli.you": "Du",
    "cli.seat_name": "Platz {n}",
    "cli.bot_seat": "{name} (Platz {seat}, Bot: {kind})",
    "cli.seed": "Startwert {seed} (dieselbe Verteilung wieder mit --seed {seed})",
    "cli.players": "Spieler: {players}",
    "cli.player_seat": "{name} (Platz {seat})",
    "cli.prompt": "Deine Entscheidung> ",
    "cli.menu": "Erlaubte Entscheidungen (Text oder Nummer eingeben; 'help', 'quit'):",
    "cli.forced": "Nur eine Möglichkeit: {decision} (automatisch bestätigt, AB-21)",
    "cli.illegal": "Nicht erlaubt: {reason}",
    "cli.not_legal": "das ist jetzt nicht erlaubt",
    "cli.bad_number": "Es gibt keine Auswahl {n} (wähle 1..{max})",
    "cli.empty_input": "Gib eine Entscheidung oder eine Nummer aus der Liste ein ('help' erklärt).",
    "cli.help": ("Gib eine Entscheidung in der Notation ein oder ihre Nummer in der Liste.\n"
                 "{game_help}\n"
                 "help: dieser Text · quit: Partie jetzt beenden (mit --save gespeichert)"),
    "cli.saved": "Partieprotokoll gespeichert in {path}",
    "cli.quit": "Partie von dir beendet.",
    "cli.game_of": "Spiel {i} von {n}, Startspieler: {name}",
    "cli.continue": "Enter für das nächste Spiel ('quit' zum Aufhören)> ",
    "cli.replay_head": "Wiedergabe: {game}, {players} Spieler, Startwert {seed}, {n} Züge",
    "cli.replay_as": "Aus der Sicht von {name} (Platz {seat})",
    "cli.replay_pause": "Enter: nächster Zug> ",
    "cli.replay_unfinished": "Das Protokoll endet, bevor die Partie vorbei ist.",
    "cli.replay_final": "Endstand",
    "cli.replay_step": "{i:>3}. {line}",
    # usage errors
    "cli.err_lang": "--lang muss 'de' oder 'en' sein, nicht {lang!r}",
    "cli.err_seat": "--seat {seat} gibt es nicht: die Plätze sind 0..{max}",
    "cli.err_as": "--as {seat} gibt es nicht: eine Partie mit {players} Spielern hat die Plätze 0..{max}",
    "cli.err_bots_count": "--bots braucht einen Bot-Namen oder {n} (einen je anderem Platz), nicht {k}",
    "cli.err_unknown_game": "unbekanntes Spiel {game!r} (bekannt: {known})",
    "cli.err_unavailable": "das Spiel {game!r} gibt es noch nicht: {module} ist nicht installiert",
    "cli.err_record": "fehlerhaftes Protokoll: {msg}",
    # -- option help --------------------------------------------------------------------------
    "help.version": "Version anzeigen und beenden.",
    "help.play": "Eine Partie im Terminal gegen Bots spielen.",
    "help.replay": "Ein Partieprotokoll wiedergeben: in Worten oder den Endstand als JSON.",
    "help.game": "Das Spiel: abluxxen (kombio folgt).",
    "help.variant": "Abluxxen: basic, advanced, expert, duel oder classic (Standard basic).",
    "help.players": "Anzahl der Spieler (Standard 4; das Duell 2).",
    "help.seat": "Dein Platz, ab 0 gezählt (Standard 0).",
    "help.bots": ("Bots für die anderen Plätze in Platzreihenfolge, durch Kommas getrennt "
                  "(random, greedy); ein Name gilt für alle."),
    "help.seed": "Startwert der Verteilung (Standard: zufällig, wird angezeigt).",
    "help.lang": "Sprache: de oder en (Standard: aus LANG / LC_ALL).",
    "help.save": "Partieprotokoll am Ende oder beim Beenden in FILE schreiben (Serie: FILE-1, FILE-2, ...).",
    "help.rounds": "Classic: Anzahl der Spiele der Serie nach CL-5 (Standard: Spielerzahl).",
    "help.start": "Startplatz (Standard 0).",
    "help.auto": "Entscheidungen mit nur einer Möglichkeit automatisch bestätigen (AB-21).",
    "help.file": "Das Partieprotokoll (JSON, siehe NOTATION.md).",
    "help.json": "Den Stand nach dem letzten Zug als JSON ausgeben (der Replay-Vertrag).",
    "help.as": "Nur zeigen, was dieser Platz sehen darf.",
    "help.pause": "Zwischen den Zügen auf Enter warten (Standard: nur wenn stdout ein Terminal ist).",
    # -- Abluxxen -----------------------------------------------------------------------------
    "ab.title": "Abluxxen · {variant}",
    "ab.variant.basic": "Grundspiel",
    "ab.variant.advanced": "Fortgeschrittene",
    "ab.variant.expert": "Experten",
    "ab.variant.duel": "Duell",
    "ab.variant.classic": "Klassik",
    "ab.col.player": "Spieler",
    "ab.col.hand": "Hand",
    "ab.col.display": "Auslage (unten → oben, »oben« offen)",
    "ab.empty": "—",
    "ab.your_hand": "Deine Hand",
    "ab.hand_of": "Hand von {name}",
    "ab.jokers": "Joker",
    "ab.no_cards": "keine Karten",
    "ab.pool": "Vorrat",
    "ab.shadow": "Schattenauslage",
    "ab.supply": "Nachziehstapel: {deck} Karten · Ablagestapel: {discard} Karten",
    "ab.turn": "Am Zug: {name}",
    # why
    "ab.why.over": "Die Partie ist vorbei.",
    "ab.why.play.you": ("Du bist am Zug: spiele Karten einer Zahl aus (plus beliebig viele Joker) "
                        "oder nur Joker."),
    "ab.why.play": "{name} ist am Zug und spielt Karten aus.",
    "ab.why.shadow.you": ("Deine {set} schattenluxxt: nimm einen Stapel der Schattenauslage "
                          "gleicher Größe ({size}) mit kleinerer Zahl als {value} auf die Hand "
                          "(DU-4)."),
    "ab.why.shadow": "Die {set} von {name} schattenluxxt: {name} wählt einen Schattenstapel (DU-4).",
    "ab.why.take.you": ("Du abluxxt {victim}: deine {set} schlagen die {vset} von {victim}. "
                        "Nimm sie (dann zieht {victim} {n} nach) oder lass sie {victim} (AB-11)."),
    "ab.why.take.victim": ("{name} abluxxt dich: die {set} von {name} schlagen deine {vset}. "
                           "{name} nimmt sie oder lässt sie dir (AB-11)."),
    "ab.why.take": ("{name} abluxxt {victim}: {set} schlagen {vset}. {name} nimmt sie oder "
                    "lässt sie {victim} (AB-11)."),
    "ab.why.keep.you": ("{name} lässt dir deine {vset}: nimm sie zurück auf die Hand oder lege "
                        "sie ab und ziehe {n} nach (AB-11)."),
    "ab.why.keep": ("{name} lässt {victim} die {vset}: {victim} nimmt sie zurück oder legt sie "
                    "ab und zieht {n} nach (AB-11)."),
    "ab.why.draw.you.1": ("Du musst noch 1 Karte nachziehen: eine Karte aus dem Vorrat oder die "
                          "oberste des Nachziehstapels (AB-12)."),
    "ab.why.draw.you.n": ("Du musst noch {n} Karten nachziehen: je eine Karte aus dem Vorrat "
                          "oder die oberste des Nachziehstapels (AB-12)."),
    "ab.why.draw.1": "{name} muss noch 1 Karte nachziehen (AB-12).",
    "ab.why.draw.n": "{name} muss noch {n} Karten nachziehen (AB-12).",
    "ab.why.deck_empty": " Der Nachziehstapel ist leer: nur der Vorrat bleibt (AB-13).",
    "ab.why.optional.you": "Du hast niemanden abgeluxxt: ziehe eine Karte oder passe (AB-15).",
    "ab.why.optional": ("{name} hat niemanden abgeluxxt: {name} darf eine Karte ziehen oder "
                        "passen (AB-15)."),
    # log lines
    "ab.log.play.you": "Du spielst {set}",
    "ab.log.play": "{name} spielt {set}",
    "ab.log.hand_empty.you": " und hast keine Karten mehr (AB-7)",
    "ab.log.hand_empty": " und hat keine Karten mehr (AB-7)",
    "ab.log.shadow.you": "Du schattenluxxt den Schattenstapel {set} auf die Hand (DU-4)",
    "ab.log.shadow": "{name} schattenluxxt den Schattenstapel {set} auf die Hand (DU-4)",
    "ab.log.take.you": "Du abluxxt {whose} und nimmst sie ({victim} zieht {n} nach)",
    "ab.log.take": "{name} abluxxt {whose} und nimmt sie",
    "ab.log.leave.you": "Du abluxxt {whose} und lässt sie {victim}",
    "ab.log.leave": "{name} abluxxt {whose} und lässt sie {victim}",
    "ab.log.keep.you": "Du nimmst deine {set} zurück",
    "ab.log.keep": "{name} nimmt die {set} zurück",
    "ab.log.discard.you": "Du legst deine {set} ab und musst {n} nachziehen",
    "ab.log.discard": "{name} legt die {set} ab und muss {n} nachziehen",
    "ab.log.draw_pool.you": "Du ziehst {item} aus dem Vorrat",
    "ab.log.draw_pool": "{name} zieht {item} aus dem Vorrat",
    "ab.log.draw_deck_seen.you": "Du ziehst {card} vom Nachziehstapel",
    "ab.log.draw_deck_seen": "{name} zieht {card} vom Nachziehstapel",
    "ab.log.draw_deck.you": "Du ziehst vom Nachziehstapel",
    "ab.log.draw_deck": "{name} zieht vom Nachziehstapel",
    "ab.log.pass.you": "Du passt (kein Nachziehen)",
    "ab.log.pass": "{name} passt (kein Nachziehen)",
    "ab.log.other": "{name}: {decision}",
    "ab.whose.you": "deine {set}",
    "ab.whose": "die {set} von {name}",
    "ab.to_you": "dir",
    # summary
    "ab.sum.title": "Ergebnis",
    "ab.sum.display": "Auslage +",
    "ab.sum.hand": "Hand −",
    "ab.sum.score": "Punkte",
    "ab.sum.winner": "gewinnt",
    "ab.sum.end_hand": "Die Partie endete, weil {name} die letzte Handkarte ausgespielt hat ({clause}).",
    "ab.sum.end_hand.you": "Die Partie endete, weil du deine letzte Handkarte ausgespielt hast ({clause}).",
    "ab.sum.end_supply": ("Die Partie endete, weil Nachziehstapel und Vorrat aufgebraucht waren "
                          "({clause})."),
    "ab.sum.winners.1": "Es gewinnt: {names}",
    "ab.sum.winners.n": "Es gewinnen: {names}",
    "ab.err_rounds": "--rounds gibt es nur mit --variant classic (eine Serie nach CL-5)",
    "ab.sum.tie_fewer": ("Gleichstand mit {score} Punkten ({tied}): es entscheiden die wenigeren "
                         "Handkarten (AB-18)."),
    "ab.sum.with_hand": "{name} mit {n} Handkarten",
    "ab.sum.tie_still": ("Gleichstand mit {score} Punkten ({tied}) und gleich vielen Handkarten: "
                         "alle gewinnen (AB-18)."),
    "ab.sum.tie_shared": ("Gleichstand mit {score} Punkten ({tied}): er wird nicht aufgelöst, "
                          "alle gewinnen (CL-4)."),
    "ab.match.title": "Serie (CL-5): Zwischenstand",
    "ab.match.game": "Spiel {i}",
    "ab.match.total": "Summe",
    "ab.match.result": "Die Serie ist nach {n} Spielen vorbei. {winners}",
    "ab.match.winners.1": "Die Serie gewinnt: {names}",
    "ab.match.winners.n": "Die Serie gewinnen (Gleichstand, CL-4): {names}",
    "ab.list_and": " und ",
    "ab.help": ("Abluxxen-Entscheidungen: play 7 7 X | play X X | shadow 5 (Duell) | take | "
                "leave | keep | discard | draw deck | draw pool 8 | draw pool 3+13+X "
                "(Duell-Gruppe) | pass\n"
                "Ausspielen: Karten einer Zahl plus beliebig viele Joker oder nur Joker (AB-5). "
                "Sie abluxxen eine oberste Lage gleicher Größe mit kleinerer Zahl (AB-8)."),
}

TEXTS: dict[str, dict[str, str]] = {"en": EN, "de": DE}


def t(lang: str, key: str, /, **kw) -> str:
    """The text `key` in `lang` (unknown language: English), formatted with `kw`."""
    table = TEXTS.get(lang, EN)
    text = table.get(key)
    if text is None:
        text = EN[key]
    return text.format(**kw) if kw else text


def default_lang(env: dict | None = None) -> str:
    """de if the locale (LC_ALL, LC_MESSAGES, LANG: the first one set) starts with 'de'."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"


def check_lang(lang: str | None) -> str:
    """The language to use: `lang` if given (de/en), else from the locale."""
    from cardtable.core.errors import ConfigError

    if lang is None:
        return default_lang()
    low = lang.lower()
    if low not in LANGS:
        raise ConfigError(t(default_lang(), "cli.err_lang", lang=lang))
    return low
