"""Every text the terminal front end shows, in English and German.

    t(lang, key, **kw)  ->  TEXTS[lang][key].format(**kw)

Both languages hold exactly the same keys (a test checks it). Keys are grouped by prefix:
`cli.*` the generic front end (main.py), `help.*` option help, `ab.*` Abluxxen (abluxxen_ui.py),
`ko.*` Kombio (kombio_ui.py, and the Kombio options and texts of main.py).
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
    "help.rounds": ("Classic: number of games of the CL-5 match, a multiple of the number of "
                    "players (default: the number of players)."),
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
    "ab.why.shadow.you": ("Your {set} shadowluxxes: take {size} cards of one number lower than "
                          "{value} from the shadow display into your hand (DU-4)."),
    "ab.why.shadow": ("{name}'s {set} shadowluxxes: {name} takes cards of one number from the "
                      "shadow display (DU-4)."),
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
    "ab.log.shadow.you": "You shadowluxx {set} from the shadow display into your hand (DU-4)",
    "ab.log.shadow": "{name} shadowluxxes {set} from the shadow display into the hand (DU-4)",
    "ab.log.shadow_rest": "; {rest} stay there",
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
    "ab.err_rounds_multiple": ("--rounds {rounds}: a classic match of {n} players has a multiple "
                               "of {n} games ({examples}, ...), so that every player starts "
                               "equally often (CL-5)"),
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
    "help.rounds": ("Classic: Anzahl der Spiele der Serie nach CL-5, ein Vielfaches der "
                    "Spielerzahl (Standard: die Spielerzahl)."),
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
    "ab.why.shadow.you": ("Deine {set} schattenluxxt: nimm {size} Karten einer Zahl kleiner als "
                          "{value} aus der Schattenauslage auf die Hand (DU-4)."),
    "ab.why.shadow": ("Die {set} von {name} schattenluxxt: {name} nimmt Karten einer Zahl aus "
                      "der Schattenauslage (DU-4)."),
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
    "ab.log.shadow.you": "Du schattenluxxt {set} aus der Schattenauslage auf die Hand (DU-4)",
    "ab.log.shadow": "{name} schattenluxxt {set} aus der Schattenauslage auf die Hand (DU-4)",
    "ab.log.shadow_rest": "; {rest} bleiben dort",
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
    "ab.err_rounds_multiple": ("--rounds {rounds}: eine Classic-Serie mit {n} Spielern hat ein "
                               "Vielfaches von {n} Spielen ({examples}, …), damit jeder gleich "
                               "oft Startspieler ist (CL-5)"),
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

# -- Kombio (kombio_ui.py; the Kombio options of main.py) ---------------------------------------
KO_EN: dict[str, str] = {
    "ko.app": "Rule-exact card games in the terminal: Abluxxen (Linko!) and Kombio.",
    "ko.help.game": "The game: abluxxen or kombio.",
    "ko.opt.target": ("Kombio: the game ends after the round in which a total reaches this "
                      "(default 100, KO-16)."),
    "ko.opt.memory": ("Kombio: as at a real table, a card you saw is shown only for a few "
                      "seconds, then hidden again as ? (you have to remember it)."),
    "ko.opt.memory_seconds": ("Kombio: how long a card you saw stays visible with --memory "
                              "(default 5 s; implies --memory)."),
    "ko.opt.snap_seconds": "Kombio: seconds you have to snap in each snap window (default 2).",
    "ko.err_not_for": "{option} is an option of Kombio, not of {game}",
    "ko.err_players": "Kombio is for 2 to 6 players, not {n}",
    "ko.err_target": "--target must be at least 1, not {n}",
    "ko.err_seconds": "{option} must be more than 0 and at most 600 seconds, not {n}",
    "ko.err_variant": "Kombio has no variant {variant!r}",
    "ko.err_rounds": ("--rounds is not for Kombio: a game runs over rounds until a total reaches "
                      "--target (KO-4, KO-16)"),
    "ko.forced": "Only one choice: {decision} (confirmed automatically)",
    # the table
    "ko.title": "Kombio · round {round} · target {target}",
    "ko.title.over": "Kombio · final grids of round {round} · target {target}",
    "ko.head": "{name} · seat {seat} · {cards} · total {total}",
    "ko.head.plain": "{name} · {cards} · total {total}",
    "ko.cards.1": "1 card",
    "ko.cards.n": "{n} cards",
    "ko.head.called": " · called Kombio",
    "ko.head.taboo": " · called Kombio: taboo (KO-12)",
    "ko.pile": "Discard pile: top card {top} ({cards})",
    "ko.pile.empty": "Discard pile: empty",
    "ko.pile.snapped": " — put there by a snap: it cannot be taken or snapped (KO-9)",
    "ko.deck": "Deck: {cards}",
    "ko.drawn.you": "Your drawn card: {card}",
    "ko.drawn.of": "Drawn card of {name}: {card}",
    "ko.known.own": "Your cards: you know {k} of {n}",
    "ko.known.list": " — {cards}; known sum {sum}",
    "ko.known.others": "What you know of the others' cards: {cards}",
    "ko.known.nothing": "nothing",
    "ko.turns_left.1": "{name} called Kombio: 1 more turn, then the round ends (KO-12).",
    "ko.turns_left.n": "{name} called Kombio: {n} more turns, then the round ends (KO-12).",
    "ko.turns_left.you.1": "You called Kombio: 1 more turn, then the round ends (KO-12).",
    "ko.turns_left.you.n": "You called Kombio: {n} more turns, then the round ends (KO-12).",
    "ko.memory_note": ("Memory mode: a card you saw is shown for {secs} s (at least at the "
                       "decision where it first appears), then hidden again as ?."),
    "ko.totals": "Totals: {list} (target {target})",
    "ko.window": "Snap window on the {top}: {k} of {n} answered",
    # why
    "ko.why.over": "The game is over.",
    "ko.why.turn.you": "Your turn: {options} (KO-5).",
    "ko.why.turn": "{name}'s turn: draw, take the top discard card or call Kombio (KO-5).",
    "ko.opt_draw": "draw",
    "ko.opt_take": "take the {top} from the discard pile into a slot",
    "ko.opt_kombio": "call Kombio",
    "ko.or": " or ",
    "ko.why.drawn.you": ("You drew {acard}: put it into one of your slots (replace S; that card "
                         "goes onto the discard pile) or discard it{action} (KO-5.1)."),
    "ko.why.drawn.action": " and use its action: {what}",
    "ko.why.drawn": "{name} drew a card and looks at it.",
    "ko.act.peek_own": "look at one of your own cards",
    "ko.act.peek_other": "look at a card of another player",
    "ko.act.swap": "swap any two cards on the table without looking",
    "ko.act.13": "look at any card, then swap it with any other card if you want",
    "ko.act.14": "look at any two cards, then swap them if you want",
    "ko.act.short.peek_own": "peek at an own card",
    "ko.act.short.peek_other": "peek at another's card",
    "ko.act.short.swap": "swap two cards",
    "ko.act.short.13": "peek, then maybe swap",
    "ko.act.short.14": "peek at two, then maybe swap",
    "ko.why.action.you": "Use the {act}: {what} (`{how}`), or skip it (KO-6).",
    "ko.why.action": "{name} may use the {act} (action: {what}) (KO-6).",
    "ko.why.swap13.you": ("You looked at {card}: swap it with any other card (`swap P.S`) or "
                          "keep things as they are (KO-6)."),
    "ko.why.swap14.you": ("You looked at {c1} and {c2}: swap them (`swap`) or keep things as "
                          "they are (KO-6)."),
    "ko.why.swap": "{name} looked at {cards} and may swap (KO-6).",
    "ko.why.snap.you": ("Snap window on the {top}: if you think a card on the table is {atop}, "
                        "snap it; otherwise pass (KO-8..KO-10)."),
    "ko.why.snap": "Snap window on the {top}: {name} decides ({k} of {n} answered, KO-10).",
    "ko.why.give.you": ("Your snap of {card} was right: give one of your cards into the empty "
                        "slot {pos} (`give S`, KO-8)."),
    "ko.why.give": ("{name} snapped {card} right and gives one of their cards into the empty "
                    "slot {pos} (KO-8)."),
    "ko.why.hand_over.you": ("{snapper} snapped your {pos} wrongly (it is {avalue}, not {atop}): "
                             "hand the card over to {snapper} (`hand-over`) or {snapper} takes a "
                             "penalty card (`penalty`) (KO-8)."),
    "ko.why.hand_over": ("{snapper} snapped {card} wrongly (it is {avalue}, not {atop}): {name} "
                         "hands the card over or gives {snapper_obj} a penalty card (KO-8)."),
    "ko.timed.prompt": "{secs} s to snap: `{example}` or Enter to pass> ",
    "ko.timed.timeout": "No snap in time: pass.",
    # cards in words
    "ko.a": "a {card}",
    "ko.an": "an {card}",
    "ko.card.yours": "your {pos}",
    "ko.card.own": "their own {pos}",
    "ko.card.of": "{name}'s {pos}",
    "ko.slot_word": "card {s}",
    "ko.slot.yours": "your slot {s}",
    "ko.slot.of": "{name}'s slot {s}",
    "ko.log.give_web.you": "You give {card} into {pos}",
    "ko.log.give_web": "{name} gives {card} into {pos}",
    "ko.you_obj": "you",
    "ko.list_and": " and ",
    # log lines
    "ko.log.draw.you": "You draw {acard}",
    "ko.log.draw.seen": "{name} draws {acard}",
    "ko.log.draw": "{name} draws a card and looks at it",
    "ko.log.replace.you": "You put the {card} into your slot {pos} and discard the {old} from there",
    "ko.log.replace.seen": "{name} puts the {card} into slot {pos} and discards the {old} from there",
    "ko.log.replace": "{name} puts the drawn card into slot {pos} and discards the {old} from there",
    "ko.log.discard.you": "You discard the drawn {card}",
    "ko.log.discard": "{name} discards the drawn {card}",
    "ko.log.action": " (action: {what})",
    "ko.log.take.you": ("You take the {card} from the discard pile into your slot {pos} and "
                        "discard the {old} from there"),
    "ko.log.take": ("{name} takes the {card} from the discard pile into slot {pos} and discards "
                    "the {old} from there"),
    "ko.log.kombio.you": "You call Kombio! Every other player has one more turn (KO-12)",
    "ko.log.kombio": "{name} calls Kombio! Every other player has one more turn (KO-12)",
    "ko.log.taboo.you": "; your cards are taboo now",
    "ko.log.taboo": "; {name}'s cards are taboo now",
    "ko.log.peek.you": "You peek at {card}: {avalue}",
    "ko.log.peek.you_memory": "You peek at {card} (it shows in the grid for a moment: remember it)",
    "ko.log.peek.seen": "{name} peeks at {card}: {avalue}",
    "ko.log.peek": "{name} peeks at {card}",
    "ko.log.peek2.you": "You peek at {c1} ({v1}) and {c2} ({v2})",
    "ko.log.peek2.you_memory": ("You peek at {c1} and {c2} (they show in the grid for a moment: "
                                "remember them)"),
    "ko.log.peek2.seen": "{name} peeks at {c1} ({v1}) and {c2} ({v2})",
    "ko.log.peek2": "{name} peeks at {c1} and {c2}",
    "ko.log.swap.you": "You swap {c1} and {c2}",
    "ko.log.swap": "{name} swaps {c1} and {c2}",
    "ko.log.keep.you": "You leave the cards where they are",
    "ko.log.keep": "{name} leaves the cards where they are",
    "ko.log.skip.you": "You do not use the {act}",
    "ko.log.skip": "{name} does not use the {act}",
    "ko.log.pass.you": "You pass",
    "ko.log.pass": "{name} passes",
    "ko.log.snap.you": "You snap {card}",
    "ko.log.snap": "{name} snaps {card}",
    "ko.log.nobody": "Nobody snaps the {top}",
    "ko.log.right.you": "You snap {card}: right, {avalue}",
    "ko.log.right": "{name} snaps {card}: right, {avalue}",
    "ko.log.wrong.you": "You snap {card}: wrong, {avalue}, not {atop}",
    "ko.log.wrong": "{name} snaps {card}: wrong, {avalue}, not {atop}",
    "ko.log.first": " (also snapped: {others}; {name} was first, KO-10)",
    "ko.log.right_own": "; it goes onto the discard pile (KO-8)",
    "ko.log.right_other.you": "; it goes onto the discard pile and you give one of your cards into {pos} (KO-8)",
    "ko.log.right_other": "; it goes onto the discard pile and {name} gives one of their cards into {pos} (KO-8)",
    "ko.log.penalty_own.you": "; you take a penalty card into {pos} (KO-8)",
    "ko.log.penalty_own": "; {name} takes a penalty card into {pos} (KO-8)",
    "ko.log.no_penalty": "; no penalty card: the deck and the discard pile are used up (KO-14)",
    "ko.log.wrong_other.you": ("; you choose: hand the card over to {name_obj} or a penalty card "
                               "for {name_obj} (KO-8)"),
    "ko.log.wrong_other": ("; {owner} chooses: hand the card over to {name_obj} or a penalty "
                           "card for {name_obj} (KO-8)"),
    "ko.log.give.you": "You give your {card} into the empty slot {pos}",
    "ko.log.give": "{name} gives {card} into the empty slot {pos}",
    "ko.log.hand_over.you": "You hand {card} over to {snapper_obj}{into}",
    "ko.log.hand_over": "{name} hands {card} over to {snapper_obj}{into}",
    "ko.log.penalty.you": "You let {snapper_obj} take a penalty card{into}",
    "ko.log.penalty": "{name} lets {snapper_obj} take a penalty card{into}",
    "ko.log.into": " (into {pos})",
    # the end of a round
    "ko.round.over": "Round {round} is over: {reason}.",
    "ko.round.reason_call": "every other player had one more turn after the Kombio call (KO-12)",
    "ko.round.reason_empty": "a grid is empty (KO-13)",
    "ko.round.row": "  {name}: sum {sum}{extra} = {score} (total {total})",
    "ko.round.cards": "  {name} reveals: {cards}",
    "ko.round.none": "Nobody called Kombio: everybody scores the sum of their cards (KO-15).",
    "ko.round.alone.you": ("You called Kombio and alone had the lowest sum ({sum}): you score "
                           "{sum}, everybody else adds +10 (KO-15)."),
    "ko.round.alone": ("{name} called Kombio and alone had the lowest sum ({sum}): {name} scores "
                       "{sum}, everybody else adds +10 (KO-15)."),
    "ko.round.not_alone.you": ("You called Kombio but did not alone have the lowest sum ({sum}; "
                               "lowest of the others: {low}): you add +15, the others score "
                               "their sums (KO-15)."),
    "ko.round.not_alone": ("{name} called Kombio but did not alone have the lowest sum ({sum}; "
                           "lowest of the others: {low}): {name} adds +15, the others score "
                           "their sums (KO-15)."),
    "ko.round.empty_zero": " A player with no cards scores 0.",
    "ko.round.next.you": "Round {round}: you start (KO-4).",
    "ko.round.next": "Round {round}: {name} starts (KO-4).",
    "ko.round.target": "The target {target} is reached by {names}: the game is over (KO-16).",
    # the end of the game
    "ko.sum.title": "Result",
    "ko.sum.player": "Player",
    "ko.sum.round": "R{i}",
    "ko.sum.total": "Total",
    "ko.sum.winner": "winner",
    "ko.sum.reached": "The target {target} is reached by {names} (KO-16): the lowest total wins.",
    "ko.sum.tie_last": "Tie at {total} ({tied}): the lowest score in the last round decides (KO-16).",
    "ko.sum.with_last": "{name} with {score} in the last round",
    "ko.sum.tie_still": ("Tie at {total} ({tied}), also in the last round ({score}): all of them "
                         "win (KO-16)."),
    "ko.sum.winners.1": "Winner: {names}",
    "ko.sum.winners.n": "Winners: {names}",
    "ko.help": (
        "Kombio decisions (a card on the table is P.S: seat P, slot S, e.g. 2.4):\n"
        "  your turn: draw | take S (the top discard card into your slot S) | kombio\n"
        "  after draw: replace S | discard (a discarded 7..14 gives its action)\n"
        "  actions: peek P.S (7/8 own card, 9/10 another's, 13 any) | peek P.S P.S (14) | "
        "swap P.S P.S (11/12) | then swap P.S (13) / swap (14) / keep | skip\n"
        "  snap window: snap P.S (that card is the same value as the top discard card) | pass "
        "(Enter) — you have --snap-seconds to answer, then it is a pass\n"
        "  after snaps: give S (right snap on another's card) | hand-over | penalty (wrong snap "
        "on your card)\n"
        "The grid shows ? for a card you have not seen. With --memory a card you saw is shown "
        "only for a few seconds (--memory-seconds, default 5; at least at the decision where it "
        "first appears), then it is ? again: remember it, as at a real table."),
}

KO_DE: dict[str, str] = {
    "ko.app": "Regelgenaue Kartenspiele im Terminal: Abluxxen (Linko!) und Kombio.",
    "ko.help.game": "Das Spiel: abluxxen oder kombio.",
    "ko.opt.target": ("Kombio: die Partie endet nach der Runde, in der eine Summe diesen Wert "
                      "erreicht (Standard 100, KO-16)."),
    "ko.opt.memory": ("Kombio: wie am echten Tisch wird eine gesehene Karte nur ein paar "
                      "Sekunden gezeigt und dann wieder als ? verdeckt (merk sie dir)."),
    "ko.opt.memory_seconds": ("Kombio: wie lange eine gesehene Karte mit --memory sichtbar "
                              "bleibt (Standard 5 s; schaltet --memory ein)."),
    "ko.opt.snap_seconds": "Kombio: Sekunden zum Schnappen in jedem Schnappfenster (Standard 2).",
    "ko.err_not_for": "{option} ist eine Option von Kombio, nicht von {game}",
    "ko.err_players": "Kombio ist für 2 bis 6 Spieler, nicht für {n}",
    "ko.err_target": "--target muss mindestens 1 sein, nicht {n}",
    "ko.err_seconds": "{option} muss größer als 0 und höchstens 600 Sekunden sein, nicht {n}",
    "ko.err_variant": "Kombio hat keine Variante {variant!r}",
    "ko.err_rounds": ("--rounds gibt es bei Kombio nicht: eine Partie läuft über Runden, bis eine "
                      "Summe --target erreicht (KO-4, KO-16)"),
    "ko.forced": "Nur eine Möglichkeit: {decision} (automatisch bestätigt)",
    # the table
    "ko.title": "Kombio · Runde {round} · Ziel {target}",
    "ko.title.over": "Kombio · Karten am Ende von Runde {round} · Ziel {target}",
    "ko.head": "{name} · Platz {seat} · {cards} · Summe {total}",
    "ko.head.plain": "{name} · {cards} · Summe {total}",
    "ko.cards.1": "1 Karte",
    "ko.cards.n": "{n} Karten",
    "ko.head.called": " · hat Kombio gerufen",
    "ko.head.taboo": " · hat Kombio gerufen: tabu (KO-12)",
    "ko.pile": "Ablagestapel: oben {top} ({cards})",
    "ko.pile.empty": "Ablagestapel: leer",
    "ko.pile.snapped": " — durch Schnappen abgelegt: darf nicht genommen oder beschnappt werden (KO-9)",
    "ko.deck": "Nachziehstapel: {cards}",
    "ko.drawn.you": "Deine gezogene Karte: {card}",
    "ko.drawn.of": "Gezogene Karte von {name}: {card}",
    "ko.known.own": "Deine Karten: du kennst {k} von {n}",
    "ko.known.list": " — {cards}; bekannte Summe {sum}",
    "ko.known.others": "Was du von den Karten der anderen kennst: {cards}",
    "ko.known.nothing": "nichts",
    "ko.turns_left.1": "{name} hat Kombio gerufen: noch 1 Zug, dann endet die Runde (KO-12).",
    "ko.turns_left.n": "{name} hat Kombio gerufen: noch {n} Züge, dann endet die Runde (KO-12).",
    "ko.turns_left.you.1": "Du hast Kombio gerufen: noch 1 Zug, dann endet die Runde (KO-12).",
    "ko.turns_left.you.n": "Du hast Kombio gerufen: noch {n} Züge, dann endet die Runde (KO-12).",
    "ko.memory_note": ("Gedächtnis-Modus: eine gesehene Karte wird {secs} s gezeigt (mindestens "
                       "bei der Entscheidung, bei der sie zuerst erscheint), dann wieder als ? "
                       "verdeckt."),
    "ko.totals": "Summen: {list} (Ziel {target})",
    "ko.window": "Schnappfenster auf die {top}: {k} von {n} haben geantwortet",
    # why
    "ko.why.over": "Die Partie ist vorbei.",
    "ko.why.turn.you": "Du bist am Zug: {options} (KO-5).",
    "ko.why.turn": ("{name} ist am Zug: ziehen, die oberste Karte des Ablagestapels nehmen oder "
                    "Kombio rufen (KO-5)."),
    "ko.opt_draw": "ziehe eine Karte",
    "ko.opt_take": "nimm die {top} vom Ablagestapel an einen Platz",
    "ko.opt_kombio": "rufe Kombio",
    "ko.or": " oder ",
    "ko.why.drawn.you": ("Du hast {acard} gezogen: lege sie an einen deiner Plätze (replace S; "
                         "die Karte dort kommt auf den Ablagestapel) oder lege sie ab{action} "
                         "(KO-5.1)."),
    "ko.why.drawn.action": " und nutze ihre Aktion: {what}",
    "ko.why.drawn": "{name} hat eine Karte gezogen und schaut sie an.",
    "ko.act.peek_own": "eine eigene Karte ansehen",
    "ko.act.peek_other": "eine Karte eines anderen Spielers ansehen",
    "ko.act.swap": "zwei beliebige Karten auf dem Tisch ungesehen tauschen",
    "ko.act.13": "eine beliebige Karte ansehen und sie dann, wenn du willst, mit einer anderen tauschen",
    "ko.act.14": "zwei beliebige Karten ansehen und sie dann, wenn du willst, tauschen",
    "ko.act.short.peek_own": "eigene Karte ansehen",
    "ko.act.short.peek_other": "fremde Karte ansehen",
    "ko.act.short.swap": "zwei Karten tauschen",
    "ko.act.short.13": "ansehen, dann vielleicht tauschen",
    "ko.act.short.14": "zwei ansehen, dann vielleicht tauschen",
    "ko.why.action.you": "Nutze die {act}: {what} (`{how}`), oder verzichte (skip) (KO-6).",
    "ko.why.action": "{name} darf die {act} nutzen (Aktion: {what}) (KO-6).",
    "ko.why.swap13.you": ("Du hast {card} angesehen: tausche sie mit einer beliebigen anderen "
                          "Karte (`swap P.S`) oder lass alles, wie es ist (keep) (KO-6)."),
    "ko.why.swap14.you": ("Du hast {c1} und {c2} angesehen: tausche sie (`swap`) oder lass "
                          "alles, wie es ist (keep) (KO-6)."),
    "ko.why.swap": "{name} hat {cards} angesehen und darf tauschen (KO-6).",
    "ko.why.snap.you": ("Schnappfenster auf die {top}: wenn du glaubst, dass eine Karte auf dem "
                        "Tisch {atop} ist, schnapp sie; sonst passe (KO-8..KO-10)."),
    "ko.why.snap": ("Schnappfenster auf die {top}: {name} entscheidet ({k} von {n} haben "
                    "geantwortet, KO-10)."),
    "ko.why.give.you": ("Du hast {card} richtig geschnappt: gib eine deiner Karten in den leeren "
                        "Platz {pos} (`give S`, KO-8)."),
    "ko.why.give": ("{name} hat {card} richtig geschnappt und gibt eine eigene Karte in den "
                    "leeren Platz {pos} (KO-8)."),
    "ko.why.hand_over.you": ("{snapper} hat deine Karte {pos} falsch geschnappt (sie ist {avalue}, "
                             "nicht {atop}): gib die Karte an {snapper} ab (`hand-over`) oder "
                             "{snapper} bekommt eine Strafkarte (`penalty`) (KO-8)."),
    "ko.why.hand_over": ("{snapper} hat {card} falsch geschnappt (sie ist {avalue}, nicht {atop}): "
                         "{name} gibt die Karte ab oder gibt {snapper_obj} eine Strafkarte (KO-8)."),
    "ko.timed.prompt": "{secs} s zum Schnappen: `{example}` oder Enter zum Passen> ",
    "ko.timed.timeout": "Nicht rechtzeitig geschnappt: passe.",
    # cards in words
    "ko.a": "eine {card}",
    "ko.an": "eine {card}",
    "ko.card.yours": "deine Karte {pos}",
    "ko.card.own": "die eigene Karte {pos}",
    "ko.card.of": "die Karte {pos} von {name}",
    "ko.slot_word": "{s}",
    "ko.slot.yours": "deinen Platz {s}",
    "ko.slot.of": "Platz {s} von {name}",
    "ko.log.give_web.you": "Du gibst {card} in {pos}",
    "ko.log.give_web": "{name} gibt {card} in {pos}",
    "ko.you_obj": "dich",
    "ko.list_and": " und ",
    # log lines
    "ko.log.draw.you": "Du ziehst {acard}",
    "ko.log.draw.seen": "{name} zieht {acard}",
    "ko.log.draw": "{name} zieht eine Karte und schaut sie an",
    "ko.log.replace.you": "Du legst die {card} an deinen Platz {pos} und wirfst die {old} von dort ab",
    "ko.log.replace.seen": "{name} legt die {card} an Platz {pos} und wirft die {old} von dort ab",
    "ko.log.replace": "{name} legt die gezogene Karte an Platz {pos} und wirft die {old} von dort ab",
    "ko.log.discard.you": "Du legst die gezogene {card} ab",
    "ko.log.discard": "{name} legt die gezogene {card} ab",
    "ko.log.action": " (Aktion: {what})",
    "ko.log.take.you": ("Du nimmst die {card} vom Ablagestapel an deinen Platz {pos} und wirfst "
                        "die {old} von dort ab"),
    "ko.log.take": ("{name} nimmt die {card} vom Ablagestapel an Platz {pos} und wirft die {old} "
                    "von dort ab"),
    "ko.log.kombio.you": "Du rufst Kombio! Alle anderen haben noch einen Zug (KO-12)",
    "ko.log.kombio": "{name} ruft Kombio! Alle anderen haben noch einen Zug (KO-12)",
    "ko.log.taboo.you": "; deine Karten sind jetzt tabu",
    "ko.log.taboo": "; die Karten von {name} sind jetzt tabu",
    "ko.log.peek.you": "Du siehst dir {card} an: {avalue}",
    "ko.log.peek.you_memory": ("Du siehst dir {card} an (sie steht kurz im Raster: merk sie dir)"),
    "ko.log.peek.seen": "{name} sieht sich {card} an: {avalue}",
    "ko.log.peek": "{name} sieht sich {card} an",
    "ko.log.peek2.you": "Du siehst dir {c1} ({v1}) und {c2} ({v2}) an",
    "ko.log.peek2.you_memory": ("Du siehst dir {c1} und {c2} an (sie stehen kurz im Raster: merk "
                                "sie dir)"),
    "ko.log.peek2.seen": "{name} sieht sich {c1} ({v1}) und {c2} ({v2}) an",
    "ko.log.peek2": "{name} sieht sich {c1} und {c2} an",
    "ko.log.swap.you": "Du vertauschst {c1} und {c2}",
    "ko.log.swap": "{name} vertauscht {c1} und {c2}",
    "ko.log.keep.you": "Du lässt die Karten, wo sie sind",
    "ko.log.keep": "{name} lässt die Karten, wo sie sind",
    "ko.log.skip.you": "Du nutzt die {act} nicht",
    "ko.log.skip": "{name} nutzt die {act} nicht",
    "ko.log.pass.you": "Du passt",
    "ko.log.pass": "{name} passt",
    "ko.log.snap.you": "Du schnappst {card}",
    "ko.log.snap": "{name} schnappt {card}",
    "ko.log.nobody": "Niemand schnappt auf die {top}",
    "ko.log.right.you": "Du schnappst {card}: richtig, {avalue}",
    "ko.log.right": "{name} schnappt {card}: richtig, {avalue}",
    "ko.log.wrong.you": "Du schnappst {card}: falsch, {avalue}, nicht {atop}",
    "ko.log.wrong": "{name} schnappt {card}: falsch, {avalue}, nicht {atop}",
    "ko.log.first": " (auch geschnappt: {others}; {name} war zuerst, KO-10)",
    "ko.log.right_own": "; sie kommt auf den Ablagestapel (KO-8)",
    "ko.log.right_other.you": ("; sie kommt auf den Ablagestapel und du gibst eine deiner Karten "
                               "in {pos} (KO-8)"),
    "ko.log.right_other": ("; sie kommt auf den Ablagestapel und {name} gibt eine eigene Karte "
                           "in {pos} (KO-8)"),
    "ko.log.penalty_own.you": "; du bekommst eine Strafkarte an {pos} (KO-8)",
    "ko.log.penalty_own": "; {name} bekommt eine Strafkarte an {pos} (KO-8)",
    "ko.log.no_penalty": ("; keine Strafkarte: Nachzieh- und Ablagestapel sind aufgebraucht "
                          "(KO-14)"),
    "ko.log.wrong_other.you": ("; du wählst: die Karte an {name_obj} abgeben oder eine "
                               "Strafkarte für {name_obj} (KO-8)"),
    "ko.log.wrong_other": ("; {owner} wählt: die Karte an {name_obj} abgeben oder eine "
                           "Strafkarte für {name_obj} (KO-8)"),
    "ko.log.give.you": "Du gibst deine Karte {card} in den leeren Platz {pos}",
    "ko.log.give": "{name} gibt {card} in den leeren Platz {pos}",
    "ko.log.hand_over.you": "Du gibst {card} an {snapper_obj} ab{into}",
    "ko.log.hand_over": "{name} gibt {card} an {snapper_obj} ab{into}",
    "ko.log.penalty.you": "Du lässt {snapper_obj} eine Strafkarte nehmen{into}",
    "ko.log.penalty": "{name} lässt {snapper_obj} eine Strafkarte nehmen{into}",
    "ko.log.into": " (an {pos})",
    # the end of a round
    "ko.round.over": "Runde {round} ist vorbei: {reason}.",
    "ko.round.reason_call": "nach dem Kombio-Ruf hatten alle anderen noch einen Zug (KO-12)",
    "ko.round.reason_empty": "ein Raster ist leer (KO-13)",
    "ko.round.row": "  {name}: Summe {sum}{extra} = {score} (gesamt {total})",
    "ko.round.cards": "  {name} deckt auf: {cards}",
    "ko.round.none": ("Niemand hat Kombio gerufen: alle bekommen die Summe ihrer Karten "
                      "(KO-15)."),
    "ko.round.alone.you": ("Du hast Kombio gerufen und allein die niedrigste Summe ({sum}): du "
                           "bekommst {sum}, alle anderen +10 dazu (KO-15)."),
    "ko.round.alone": ("{name} hat Kombio gerufen und allein die niedrigste Summe ({sum}): "
                       "{name} bekommt {sum}, alle anderen +10 dazu (KO-15)."),
    "ko.round.not_alone.you": ("Du hast Kombio gerufen, aber nicht allein die niedrigste Summe "
                               "({sum}; niedrigste der anderen: {low}): du bekommst +15 dazu, die "
                               "anderen ihre Summen (KO-15)."),
    "ko.round.not_alone": ("{name} hat Kombio gerufen, aber nicht allein die niedrigste Summe "
                           "({sum}; niedrigste der anderen: {low}): {name} bekommt +15 dazu, die "
                           "anderen ihre Summen (KO-15)."),
    "ko.round.empty_zero": " Wer keine Karten hat, bekommt 0.",
    "ko.round.next.you": "Runde {round}: du beginnst (KO-4).",
    "ko.round.next": "Runde {round}: {name} beginnt (KO-4).",
    "ko.round.target": "Das Ziel {target} erreicht: {names}. Die Partie ist vorbei (KO-16).",
    # the end of the game
    "ko.sum.title": "Ergebnis",
    "ko.sum.player": "Spieler",
    "ko.sum.round": "R{i}",
    "ko.sum.total": "Summe",
    "ko.sum.winner": "gewinnt",
    "ko.sum.reached": ("Das Ziel {target} erreicht: {names} (KO-16). Die niedrigste Summe "
                       "gewinnt."),
    "ko.sum.tie_last": ("Gleichstand mit {total} ({tied}): es entscheidet die niedrigste "
                        "Punktzahl der letzten Runde (KO-16)."),
    "ko.sum.with_last": "{name} mit {score} in der letzten Runde",
    "ko.sum.tie_still": ("Gleichstand mit {total} ({tied}), auch in der letzten Runde ({score}): "
                         "alle gewinnen (KO-16)."),
    "ko.sum.winners.1": "Es gewinnt: {names}",
    "ko.sum.winners.n": "Es gewinnen: {names}",
    "ko.help": (
        "Kombio-Entscheidungen (eine Karte auf dem Tisch heißt P.S: Platz P, Feld S, z. B. 2.4):\n"
        "  dein Zug: draw (ziehen) | take S (oberste Ablagekarte an dein Feld S) | kombio\n"
        "  nach draw: replace S | discard (eine abgelegte 7..14 gibt ihre Aktion)\n"
        "  Aktionen: peek P.S (7/8 eigene Karte, 9/10 fremde, 13 beliebige) | peek P.S P.S (14) | "
        "swap P.S P.S (11/12) | dann swap P.S (13) / swap (14) / keep | skip\n"
        "  Schnappfenster: snap P.S (diese Karte hat denselben Wert wie die oberste Ablagekarte) "
        "| pass (Enter) — du hast --snap-seconds Zeit, danach gilt pass\n"
        "  nach dem Schnappen: give S (richtig auf eine fremde Karte) | hand-over | penalty "
        "(falsch auf deine Karte)\n"
        "Das Raster zeigt ? für eine Karte, die du nicht gesehen hast. Mit --memory wird eine "
        "gesehene Karte nur ein paar Sekunden gezeigt (--memory-seconds, Standard 5; mindestens "
        "bei der Entscheidung, bei der sie zuerst erscheint), danach ist sie wieder ?: merk sie "
        "dir, wie am echten Tisch."),
}

EN.update(KO_EN)
DE.update(KO_DE)

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
