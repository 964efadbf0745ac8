"""engine.describe: where a tile's track leads, in the map's coordinates (issue 9, rotations)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import load_game
from engine.describe import action_words, rotation_words, track_ends
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


USA_LOG = FIXTURE.parents[2] / "generated" / "18USA" / "randplay_18USA_4p_s8403.json"
SITE_ID = re.compile(r"\b[\w&]+-\d+\b|\d+,\d+")  # a tile or train copy ("57-1", "4-6"), a market cell


def test_an_action_is_told_in_the_words_of_the_table_not_the_site_s_ids() -> None:
    """Every action of a whole 18USA game and of 18Texas's fixture, told from the position it was
    made in (undo messages and passes read so): tiles by their printed number, trains by their
    kind, stations by hex, a par by its price."""
    told: dict[str, list[str]] = {}
    for path, count in ((USA_LOG, None), (FIXTURE, 300)):
        document = json.loads(path.read_text(encoding="utf-8"))
        names = {str(p["id"]): p["name"] for p in document["players"]}
        game = load_game({**document, "actions": []})
        for action in document["actions"][:count]:
            words = action_words(action, names, game.state)
            assert not SITE_ID.search(words), (action, words)
            told.setdefault(action["type"], []).append(words)
            game.process(action)
    assert "NP lays tile 7 in E25 (rotation 2)" in told["lay_tile"]  # the site's "7coal-0"
    assert "N&W buys a 2-train for $100" in told["buy_train"]  # "2-0"
    assert "NP discards a 5-train" in told["discard_train"]  # "5-3"
    assert "N&W places a station in B8" in told["place_token"]  # "B8-0-1"
    assert "MP places a station in D9" in told["place_token"]  # "D9-0-0"
    assert "T&P places a station in F9" in told["place_token"]  # "57-1-0", a laid tile's city
    assert any(words.endswith(" starts MP at $75") for words in told["par"])  # "75,4,3"
    # The 1817 family's actions in words too (undo messages said "B&O take loan", "P3 short").
    assert "B&O takes a loan" in told["take_loan"] and "MP repays a loan" in told["payoff_loan"]
    assert "P3 sells a share of NP short" in told["short"]
    assert "NP merges with B&O" in told["merge"] and "N&W converts to the next size" in told["convert"]
    assert {"P1 contributes P16", "P1 offers NP for sale"} <= set(told["assign"])


USA_FIXTURE = FIXTURE.parents[1] / "18USA" / "109372.json"


def _usa_position(actions: int):
    document = json.loads(USA_FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:actions]
    return load_game(document).state


def test_a_share_of_half_a_dividend_is_told_in_dollars_and_cents() -> None:
    from engine.describe import dividend_account

    before = _usa_position(235)  # 109372: PRR, a 2-share company, ran for $150
    after = before.snapshot()
    after.process({"type": "dividend", "entity": "PRR", "entity_type": "corporation", "kind": "half"})
    account = dividend_account(before, after, "PRR")
    assert account is not None and account.startswith("PRR pays $37.50 a share: Player 4 $75;"), account


def test_the_end_of_the_game_is_logged_in_words() -> None:
    assert _usa_position(1543).log[-1] == "The game ends (final phase)"  # not "final_phase"
