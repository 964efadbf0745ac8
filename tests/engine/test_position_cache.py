"""Board.fingerprint and the answers kept per position (on the 18USA map): any change on the
board is a new position; a copy of the board is the same position but keeps its own answers."""

from __future__ import annotations

import copy

from engine.core.board import Board, Marker
from engine.core.position_cache import cached, forget
from engine.titles.g18usa.data import load_data


def board() -> Board:
    data = load_data()
    return Board(data["map"], data["tiles"])


def test_every_kind_of_change_gives_a_new_fingerprint() -> None:
    b = board()
    seen = [b.fingerprint()]
    b.place_tile("E21", b.tiles["9"], "9-0", 1)
    seen.append(b.fingerprint())
    b.place_tile("E21", b.tiles["9"], "9-0", 2)  # turned only
    seen.append(b.fingerprint())
    b.hexes["E23"].tokens[0][0] = "PRR"  # written straight into the city
    seen.append(b.fingerprint())
    b.add_extra_slot("E23", 0, "B&O")
    seen.append(b.fingerprint())
    b.hexes["E23"].markers.append(Marker("bridge", None, 10, "P2"))
    seen.append(b.fingerprint())
    tile_id = b.hexes["E23"].tile_id
    b.revalue_stop("E23", "city", 0, 70)
    assert b.hexes["E23"].tile_id == tile_id  # same tile id, other values
    seen.append(b.fingerprint())
    assert len({repr(fingerprint) for fingerprint in seen}) == len(seen)
    assert b.fingerprint() == seen[-1]


def test_answers_are_kept_until_the_board_changes_and_a_copy_keeps_its_own() -> None:
    b = board()
    calls: list[str] = []

    def answer() -> str:
        calls.append("computed")
        return f"answer {len(calls)}"

    assert cached(b, "question", answer) == "answer 1"
    assert cached(b, "question", answer) == "answer 1"
    clone = copy.deepcopy(b)
    assert clone.fingerprint() == b.fingerprint()
    assert cached(clone, "question", answer) == "answer 2"
    b.hexes["E23"].tokens[0][0] = "PRR"
    assert cached(b, "question", answer) == "answer 3"
    assert cached(clone, "question", answer) == "answer 2"
    forget(clone)
    assert cached(clone, "question", answer) == "answer 4"
