"""The board's index of stations (`Board.stations`, `token_hexes`, `station_slots`) is kept
between questions and must never answer for an older position, however a slot was changed:
through the board, written straight into a city's slots, a tile laid over stations, a copy or a
pickle of the board."""

from __future__ import annotations

import copy
import pickle

from engine.core.board import Board
from engine.titles.g18usa.data import load_data


def board() -> Board:
    data = load_data()
    return Board(data["map"], data["tiles"])


def scanned(b: Board) -> dict[str, list[tuple[str, int, int]]]:
    """The stations read off the map slot by slot, nothing kept."""
    found: dict[str, list[tuple[str, int, int]]] = {}
    for coord, state in b.hexes.items():
        for city, slots in enumerate(state.tokens):
            for slot, token in enumerate(slots):
                if token is not None:
                    found.setdefault(token, []).append((coord, city, slot))
    return found


def assert_index_current(b: Board) -> None:
    expected = scanned(b)
    assert {company: list(places) for company, places in b.stations().items()} == expected
    for company, places in expected.items():
        assert b.station_slots(company) == places
        assert b.token_hexes(company) == list(dict.fromkeys((coord, city) for coord, city, _ in places))
    assert b.token_hexes("nobody") == [] and b.station_slots("nobody") == []


def test_the_index_follows_every_kind_of_change() -> None:
    b = board()
    assert_index_current(b)
    b.hexes["E23"].tokens[0][0] = "PRR"  # written straight into the city
    assert b.token_hexes("PRR") == [("E23", 0)]
    assert_index_current(b)
    b.add_extra_slot("E23", 0, "B&O")
    assert_index_current(b)
    b.hexes["D28"].tokens[0].append("PRR")
    assert_index_current(b)
    b.hexes["D28"].tokens[0].pop()
    b.remove_token("E23", 0, 0)
    assert b.token_hexes("PRR") == []
    assert_index_current(b)
    b.hexes["E23"].tokens = [["NYC"]]  # the city's slots replaced by a plain list
    assert b.token_hexes("NYC") == [("E23", 0)]
    b.hexes["E23"].tokens[0][0] = None
    assert b.token_hexes("NYC") == []
    assert_index_current(b)


def test_a_tile_laid_over_a_station_moves_it_in_the_index() -> None:
    b = board()
    b.place_tile("E21", b.tiles["57"], "57-0", 0)
    b.hexes["E21"].tokens[0][0] = "PRR"
    assert b.token_hexes("PRR") == [("E21", 0)]
    green = next(name for name in b.tiles["57"].upgrades_to if b.legal_rotations(b.hexes["E21"], b.tiles[name]))
    rotation = b.legal_rotations(b.hexes["E21"], b.tiles[green])[0]
    b.place_tile("E21", b.tiles[green], f"{green}-0", rotation)
    assert "PRR" in b.hexes["E21"].corporations_here()
    assert_index_current(b)


def test_copies_and_pickles_keep_their_own_index() -> None:
    b = board()
    b.hexes["E23"].tokens[0][0] = "PRR"
    assert_index_current(b)
    clone = copy.deepcopy(b)
    revived = pickle.loads(pickle.dumps(b))
    clone.hexes["D28"].tokens[0][0] = "PRR"
    revived.remove_token("E23", 0, 0)
    assert b.token_hexes("PRR") == [("E23", 0)]
    assert set(clone.token_hexes("PRR")) == {("D28", 0), ("E23", 0)}
    assert revived.token_hexes("PRR") == []
    for each in (b, clone, revived):
        assert_index_current(each)


def test_kept_answers_last_until_a_tile_a_rotation_or_a_slot_changes() -> None:
    b = board()
    calls: list[int] = []

    def answer() -> int:
        calls.append(1)
        return len(calls)

    assert b.kept("question", answer) == 1
    assert b.kept("question", answer) == 1
    b.place_tile("E21", b.tiles["9"], "9-0", 1)
    assert b.kept("question", answer) == 2
    b.hexes["E21"].rotation = 2  # turned straight on the hex
    assert b.kept("question", answer) == 3
    b.hexes["E23"].tokens[0][0] = "PRR"
    assert b.kept("question", answer) == 4
    clone = copy.deepcopy(b)
    assert clone.kept("question", answer) == 5  # a copy keeps its own answers
    assert b.kept("question", answer) == 4


def test_a_kept_answer_worked_out_while_another_thread_moves_its_own_board() -> None:
    """The bot replays games in threads while its event loop plays others: another thread's
    changes to its own board are not this answer changing the map (they only make it be worked
    out again next time); a change made by the answer itself still is."""
    import threading

    mine, theirs = board(), board()
    started, moved = threading.Event(), threading.Event()

    def other_game() -> None:
        started.wait(10)
        for slot in range(200):
            theirs.hexes["E23"].tokens[0][0] = f"C{slot}"
        moved.set()

    def slow_answer() -> int:
        started.set()
        assert moved.wait(10)
        return 7

    thread = threading.Thread(target=other_game)
    thread.start()
    assert mine.kept("slow", slow_answer) == 7
    thread.join()

    def changing() -> int:
        mine.hexes["E23"].tokens[0][0] = "PRR"
        return 1

    try:
        mine.kept("changing", changing)
    except AssertionError as error:
        assert "may not change the map" in str(error)
    else:
        raise AssertionError("an answer that changed the map was kept")
