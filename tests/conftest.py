"""Shared pytest configuration for the whole test suite."""

from typing import Any

import pytest

# --- fakediscord: the local Discord fake (tests/fakediscord/) ---------------------------------
# tests/ is on sys.path (rootdir conftest, no __init__.py), so the package imports as
# ``fakediscord``. Re-exporting the fixture makes ``fake_discord`` available to every test.
from fakediscord.fixtures import fake_discord  # noqa: F401

# --- a throwaway PostgreSQL server (tests/pg_server.py), started on first use -----------------
from pg_server import PostgresServer, ServerUnavailable


@pytest.fixture(scope="session")
def postgres_server():
    try:
        server = PostgresServer.start()
    except ServerUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


# --- how the suite is spread over the workers (tests/conftest.py's scheduler, pyproject.toml) ---
# A file's tests run together on one worker, sharing what its module keeps (a game replayed or
# played once for several tests), except in the files below, whose tests share nothing and each
# replay a whole log: they are handed out one by one, the two tests of one 18USA log together
# (test_18usa_replay.walked replays it once for both), and fill the end of the run evenly. The
# files that take longest start first, so that no long test is left running alone at the end
# while the other worker waits (their CPU seconds in a run of December 2026).
USA_REPLAY = "tests/engine/titles/g18usa/test_18usa_replay.py"  # ~180 whole 18USA logs
SPREAD = {USA_REPLAY, "tests/engine/titles/g18texas/test_18texas_replay.py"}  # ~110 18Texas replays
FIRST = (
    "tests/bot/test_console.py",  # whole games through the terminal (120 s)
    "tests/engine/titles/g18texas/test_18texas_properties.py",  # 14 random games (70 s)
    "tests/bot/test_discord_usa_whole_game.py",  # one test: a whole game through Discord (60 s)
    "tests/bot/test_usa_table.py",  # 55 s
    "tests/bot/test_typed_random_play.py",  # 40 s
    "tests/engine/titles/g18usa/test_18usa_properties.py",
    "tests/bot/test_usa_whole_game.py",  # one test: a whole game typed in the terminal (35 s)
    "tests/bot/test_terminal_hardening.py",
    "tests/bot/test_hostile_input.py",
    "tests/bot/test_terminal_pictures.py",
    "tests/bot/test_bounded_reads.py",
)


def work_unit(nodeid: str) -> str:
    """What runs together on one worker: the test's file, or in SPREAD the test alone (in the
    18USA replays, the tests of one log)."""
    path = nodeid.split("::", 1)[0]
    if path not in SPREAD:
        return path
    if path == USA_REPLAY and nodeid.endswith("]"):
        return "18USA log " + nodeid[nodeid.index("[") + 1:-1]
    return nodeid


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    ranks = {path: rank for rank, path in enumerate(FIRST)}

    def order(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        return (0, ranks[path]) if path in ranks else (2, 0) if path in SPREAD else (1, 0)

    items.sort(key=order)  # stable: the collection's order within each rank


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's scheduling by scope (`--dist loadscope`) with `work_unit` as the scope, in the
    order above. (Its `--dist loadgroup` marks do not group tests under pytest 9: xdist 3.8
    renames a test's `_nodeid`, which pytest 9 no longer reads.)"""
    from xdist.scheduler import LoadScopeScheduling

    class ByWorkUnit(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    config.option.loadscopereorder = False  # keep the order of `pytest_collection_modifyitems`
    return ByWorkUnit(config, log)
