"""engine.describe: where a tile's track leads, in the map's coordinates (issue 9, rotations)."""

from __future__ import annotations

import json
from pathlib import Path

from engine import load_game
from engine.describe import rotation_words, track_ends
from engine.legal import legal_moves

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"


def _position(actions: int):  # the first tile lay of game 65394: T&P at I8
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:actions]
    return load_game(document).state


def test_a_curve_leads_to_the_two_neighbours_its_rotation_faces() -> None:
    state = _position(43)
    lay = next(m for m in legal_moves(state) if m["type"] == "lay_tile")
    choice = next(c for c in lay["choices"] if c["hex"] == "I8")
    rotations = next(t["rotations"] for t in choice["tiles"] if t["tile"].startswith("7-"))
    assert rotations == [3, 4]
    assert track_ends(state, "I8", "7", 3) == ["H9", "I10"]
    assert track_ends(state, "I8", "7", 4) == ["I10", "J9"]
    assert rotation_words(state, "I8", "7", 4) == "rotation 4: track to I10 and J9"


def test_every_exit_of_every_rotation_is_a_neighbour_of_the_hex() -> None:
    state = _position(43)
    hexdef = state.board.hexes["I8"].hexdef
    for rotation in range(6):
        ends = track_ends(state, "I8", "8", rotation)
        assert len(ends) == 2 and set(ends) <= set(hexdef.neighbors.values()) | {"the map edge"}
    assert len({tuple(track_ends(state, "I8", "8", r)) for r in range(6)}) == 6, "each rotation differs"


def test_a_dividend_account_matches_the_cash_that_moved() -> None:
    import copy

    from engine.describe import dividend_account

    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    actions = document["actions"][:300]  # (later runs are trusted from the log by load_game only)
    document["actions"] = []
    game = load_game(document)
    accounts = []
    for action in actions:
        if action["type"] != "dividend":
            game.process(action)
            continue
        before = copy.deepcopy(game.state)
        game.process(action)
        accounts.append(dividend_account(before, game.state, action["entity"]))
    # Game 65394's first payout: SP's $60 run, $6 for each of its 10 shares.
    assert "SP pays $6 a share: Player 3 $24, Player 4 $6, the SP treasury $30; share price stays $75." in accounts
    assert any(a.startswith("T&P keeps $140 in its treasury; share price $") for a in accounts)
    assert all(a is not None for a in accounts)


def test_private_income_is_in_the_log() -> None:
    state = _position(60)
    assert any(line.endswith(" from GRRRC") and " collects $" in line for line in state.log)
