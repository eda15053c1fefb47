"""How much the sampled tests play. `make test` runs a sample of the long runs (the property
test's seeded games, the batched simulators' differential games, OpenSpiel's perfect-recall
games, one cell per row of each browser matrix, each server test on one of its two databases)
so that the suite can run often; `make test-full` sets CARDTABLE_FULL=1 and runs every test at
its full size, and the tests marked `full` (tests/conftest.py deselects them otherwise). A
sample is the start of the full run's seeds, or a fixed choice of its cells, so `make
test-full` covers all that `make test` plays and the rest. SLOW_FIRST orders the folders.
"""

from __future__ import annotations

import os

#: True in `make test-full` (CARDTABLE_FULL=1)
FULL = os.environ.get("CARDTABLE_FULL", "") not in ("", "0")


def sample(full: int, quick: int) -> int:
    """`full` in the full run, else `quick` (the number a test plays in `make test`)."""
    return full if FULL else quick


def deselect_full(config, items: list, full: bool | None = None) -> None:
    """Unless this is the full run, drop the tests marked `full` from `items` and report them
    as deselected (never counted as passed or skipped). tests/conftest.py calls it."""
    if FULL if full is None else full:
        return
    dropped = [it for it in items if it.get_closest_marker("full")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [it for it in items if not it.get_closest_marker("full")]


def database_sample(items: list, databases: list[str]) -> None:
    """Mark `full` the cells of the database matrix that `make test` leaves out: each test that
    takes the `database` (or `fresh_db`) fixture, or has a parameter whose value is a database
    kind ("sqlite", "postgresql": a test's own matrix), runs there on one database, picked by a checksum of its module
    and name (the same on every xdist worker and every run), so that the tests of a module are
    spread over both; `make test-full` runs every test on every database."""
    import zlib

    import pytest

    for item in items:
        spec = getattr(item, "callspec", None)
        param = next((p for p, v in (spec.params.items() if spec is not None else ())
                      if p in DATABASE_FIXTURES or (isinstance(v, str) and v in databases)),
                     None)
        if param is None:
            continue
        name = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        if spec.params[param] != databases[zlib.crc32(name.encode()) % len(databases)]:
            item.add_marker(pytest.mark.full)


#: the fixtures whose parameter is the database (a module's shared one, a test's fresh one)
DATABASE_FIXTURES = ("database", "fresh_db")


def database_kinds(test: str) -> list:
    """The parameters of a test's own database matrix (not the `database` fixture, which
    `database_sample` samples): SQLite and PostgreSQL, one of them marked `full`, picked by a
    checksum of `test` (its name), so that `make test` runs it on one database and `make
    test-full` on both."""
    import zlib

    import pytest

    kinds = ["sqlite", "postgresql"]
    keep = kinds[zlib.crc32(test.encode()) % 2]
    return [k if k == keep else pytest.param(k, marks=pytest.mark.full) for k in kinds]


#: What `make test` leaves to `make test-full`: the slower cells and siblings of a journey that
#: `make test` plays once, each with the test that covers its feature in `make test` (a test id
#: relative to tests/, or a test's name for all its cells). Every entry is marked `full`
#: (tests/conftest.py), so CI, which runs both, still plays it; tests/test_make.py checks that
#: each entry names a test that exists.
LEFT_TO_FULL: dict[str, str] = {
    # the browser: a journey per game or language in make test, the others here
    "web/test_journeys.py::test_friends_at_a_private_table[duel]": "[kombio]",
    "web/test_journeys.py::test_friends_at_a_private_table[abluxxen]": "[kombio]",
    "web/test_table_layout.py::test_every_decision_in_view[duel-de]": "[basic-de]",
    "web/test_table_layout.py::test_every_decision_in_view[advanced-en]": "[classic-en]",
    "web/test_table_layout.py::test_every_decision_in_view[expert-de]": "[basic-de]",
    "web/test_table_layout.py::test_every_decision_in_view[kombio2-en]": "[kombio3-de]",
    "web/test_table_layout.py::test_every_decision_in_view[kombio4-en]": "[kombio3-de]",
    "web/test_table_layout.py::test_every_decision_in_view[kombio5-de]": "[kombio3-de]",
    "web/test_table_layout.py::test_every_decision_in_view[kombio6-en]": "[kombio3-de]",
    "web/test_web_one_language.py::test_a_whole_game_in_one_language[de-abluxxen]": "[de-kombio]",
    "web/test_web_one_language.py::test_a_whole_game_in_one_language[en-kombio]": "[de-kombio]",
    "web/test_learn_journey.py::test_a_newcomer_learns_to_play_on_a_phone_in_german[abluxxen.duel]":
        "[kombio.basic]; tests/cli/test_cli_learn.py plays every lesson",
    "web/test_learn_journey.py::test_a_newcomer_learns_to_play_on_a_phone_in_german[abluxxen.basic]":
        "[kombio.basic]; tests/cli/test_cli_learn.py plays every lesson",
    "web/test_web_resilience.py::test_server_killed_and_restarted":
        "server/test_restart.py::test_kill9_and_resume; the page's reconnection: "
        "test_socket_dropped_silent_and_offline",
    "web/test_web_friends.py::test_two_accounts_become_friends_and_one_invites_the_other_to_play":
        "web/test_web_friends_rated.py (friends, an invitation, a rated game)",
    "web/test_web_ratings.py::test_two_accounts_play_a_rated_game_and_the_ratings_show":
        "web/test_web_friends_rated.py (a rated game, the ratings shown)",
    "web/test_web_games.py::test_duel_game":
        "test_phone_lobby_snap_window_and_duel; web/test_table_layout.py (duel's decisions)",
    "web/test_rule_links.py::test_a_kombio_replay_links_its_rules[de]": "[en]",
    "web/test_table_talk.py::test_two_players_talk[en]": "[de]",
    "web/test_replay_words.py::test_the_decisions_are_listed_in_words[abluxxen-en]":
        "[abluxxen-de]",
    "web/test_replay_words.py::test_the_decisions_are_listed_in_words[kombio-de]": "[kombio-en]",
    "web/test_coach_journey.py::test_the_coach_answers_at_a_bot_table[en-size0]": "[de-size1]",
    # the browser: the longer journeys of a feature whose routes the server tests play in make
    # test, and the second cells of a check made once in make test
    "web/test_web_games.py::test_lobby_and_abluxxen_game_with_reload":
        "web/test_table_layout.py::test_every_decision_in_view[basic-de] (a whole Abluxxen game); "
        "web/test_web_resilience.py::test_socket_dropped_silent_and_offline (the page reconnects)",
    "web/test_web_play_now.py::test_two_strangers_play_now_a_rated_duel_to_its_end":
        "server/test_queue.py (pairing, bots after the wait, rated, through the routes)",
    "web/test_web_email.py::test_a_player_confirms_an_address_and_resets_a_forgotten_password":
        "server/test_email.py (the link from the test SMTP server's message, through the routes)",
    "web/test_plugin_browser.py::test_the_plugin_game_is_offered_played_and_explained":
        "test_plugin_game.py (the example game installed, in the terminal and on the server)",
    "web/test_web_accounts.py::test_a_guest_signs_up_keeps_the_games_and_finds_them_on_a_phone":
        "server/test_accounts.py; web/test_web_logged_in.py (a logged-in player on a phone)",
    "web/test_web_pace.py::test_pace_in_the_create_form_and_the_deadline_at_the_table":
        "server/test_pace.py; web/test_web_join_facts.py (the pace on the join page)",
    "web/test_table_people.py::test_lobby_lists_running_games_and_pages_are_accessible":
        "test_replay_is_accessible (axe on a page); web/test_journeys.py (the lobby)",
    "web/test_replay_rules.py::test_replay_steps_with_buttons_keys_and_slider":
        "test_replay_in_german_on_a_phone; web/test_coach_journey.py::test_the_replay_shows_the_review",
    "web/test_replay_rules.py::test_a_seat_view_shows_only_that_seats_cards[abluxxen]":
        "[kombio]; web/test_replay_api.py::test_a_seat_sees_only_its_own_hand",
    "web/test_table_layout.py::test_every_decision_in_view[classic-en]": "[basic-de]",
    "web/test_table_polish.py::test_penalty_card_keeps_the_cards_in_place":
        "test_called_kombio_fits_a_phone_seat_panel (Kombio's seat panel)",
    "web/test_web_moderation.py::test_a_blocked_player_cannot_take_a_seat_at_the_blockers_table":
        "server/test_moderation.py (blocks through the routes)",
    "web/test_web_mod_actions.py::test_a_moderator_warns_one_player_and_suspends_another":
        "web/test_web_mod_queue.py (the queue's actions); server/test_ban_cut.py",
    "web/test_create_refused.py::test_a_refused_table_shows_why_in_view_on_a_phone":
        "server/test_table_quotas.py (the refusals and their words)",
    "web/test_table_signals_focus.py::test_focus_stays_in_the_table_after_each_keyboard_move_in_kombio":
        "test_focus_stays_in_the_table_after_each_keyboard_move",
    "web/test_learn_in_view.py::test_every_lesson_step_in_view_on_a_phone[abluxxen.duel-de]":
        "[abluxxen.basic-de]",
    "web/test_learn_in_view.py::test_every_lesson_step_in_view_on_a_phone[kombio.basic-de]":
        "[abluxxen.basic-de]; web/test_learn_journey.py (Kombio's lesson on a German phone)",
    "web/test_leave.py::test_my_games_offers_only_to_watch_a_game_the_player_left":
        "test_a_player_leaves_and_a_bot_plays_the_seat",
    # the server: sizing runs and second cells
    "server/test_accounts_migration.py::test_a_database_of_revision_0003_upgrades_and_its_games_go_on":
        "server/test_ratings_migration.py (an old revision upgraded), server/test_rollback.py",
    "server/test_restart.py::test_kill9_and_resume[sqlite-kombio]": "[sqlite-abluxxen]",
    "server/test_database_password.py::test_the_password_is_not_on_any_command_line[password file-entry1]":
        "[password file-entry0]",
    "server/test_database_password.py::test_the_password_is_not_on_any_command_line[environment-entry0]":
        "[environment-entry1]",
    # the terminal and the research API: the console-script twins of in-process checks, the
    # largest cells of a matrix
    "cli/test_cli_play.py::test_bad_arguments_console_script":
        "test_bad_arguments_exit_2 (the same arguments in process); cli/test_cli_replay.py::"
        "test_illegal_action_exit_2_nothing_on_stdout (the console script's exit status)",
    "cli/test_cli_kombio.py::test_bad_arguments_console_script": "test_bad_arguments_exit_2",
    "cli/test_cli_replay.py::test_malformed_record_console_script":
        "test_malformed_record_exit_2_one_line",
    "rl/test_openspiel.py::test_random_simulation[python_cardtable_abluxxen-params2]":
        "[python_cardtable_abluxxen-params1] (the duel)",
    "core/test_decision_json.py::test_kombio_decisions_as_json[6-100]": "[5-100]",
    # the rest: a second backend, strength runs
    "sim/test_tournament.py::test_ray_gives_the_results_of_jobs_1":
        "test_jobs_2_gives_the_results_of_jobs_1 (the same tournament over processes)",
    "bots/test_ismcts.py::test_beats_random_abluxxen": "test_same_view_same_choice; "
        "the strength tables (make bench-bots)",
}


def leave_to_full(items: list, root) -> None:
    """Mark `full` the tests LEFT_TO_FULL names (an id relative to tests/, with or without its
    parameters)."""
    import pytest

    for item in items:
        try:
            rel = item.path.relative_to(root).as_posix()
        except ValueError:
            continue
        name = getattr(item, "originalname", item.name)
        if f"{rel}::{item.name}" in LEFT_TO_FULL or f"{rel}::{name}" in LEFT_TO_FULL:
            item.add_marker(pytest.mark.full)


#: the folders whose tests take longest, run first (tests/conftest.py), so that the workers do
#: not end on one of them; the browser tests (web) run after every other test, as the last
#: folder: Playwright keeps an event loop running in a worker's main thread from its first
#: browser test on, where a later `asyncio.run` would be refused (pytest-xdist's default `load`
#: hands each worker its tests in this order)
SLOW_FIRST = ("server", "rl", "core", "cli", "kombio", "bots", "sim")
LAST = "web"


def slow_first(items: list, root) -> None:
    """Sort `items` (stably) by the folder under tests/ they are in: SLOW_FIRST's first, LAST's
    last, the others between."""
    def rank(item) -> int:
        try:
            folder = item.path.relative_to(root).parts[0]
        except ValueError:
            folder = ""
        if folder == LAST:
            return len(SLOW_FIRST) + 1
        return SLOW_FIRST.index(folder) if folder in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)
