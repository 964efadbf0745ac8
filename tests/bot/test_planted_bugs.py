"""Issue 31: tests that catch the planted bugs a mutation run left alive, through a real
`stationmaster play` process on stored games.

- Undo of k moves when more than k are kept: the position is the one after the moves kept,
  and the last move in the log is the last one kept (an off-by-one in multi-step undo).
- A bridge private after its last token (18USA P2 and P21 have one, P22 two): no `/use` is
  offered for it, and one sent, as a command or as a raw action, is refused; while P22 has a
  token left, it is offered and taken.
- A raw `/action` whose entity is another player's seat or company is refused for that reason,
  though the move would be legal for its owner (before, only the engine's turn check stopped it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import cli, imported_at, play
from hostile_inputs import database_rows
from usa_script import USA_LOGS

from engine import load_game

USA = next(path for path in USA_LOGS if path.stem == "109372")
NOT_YOURS = "error: You act only for your own seat and the companies you preside."


def new_texas(db: Path) -> None:
    cli("play", "--players", "Alice,Bob,Carol", "--seed", "7", "--db", str(db), "--images", "none")


def usa_at(tmp_path: Path, upto: int, log: Path = USA) -> tuple[Path, dict[str, Any]]:
    return imported_at(tmp_path, log, upto)


def test_undoing_two_of_three_moves_keeps_the_first(tmp_path: Path) -> None:
    undone, once = tmp_path / "undone.db", tmp_path / "once.db"
    new_texas(undone)
    new_texas(once)
    bids = ["@Alice /bid company:GRRRC price:80", "@Bob /bid company:BBBCRC price:50", "@Carol /bid company:JG price:200"]
    made = play(undone, *bids, "/game undo steps:2", "/game log lines:1", "/game status")
    assert "Undone: Bob bids $50 on BBBCRC; Carol bids $200 on JG." in made, made
    after_undo = made.split("Undone: ", 1)[1]
    last_line = after_undo.split("\n18Texas game #1", 1)[0].splitlines()[-1]
    assert last_line == "Alice bids $80 for GRRRC", last_line  # /game log's last line: the move kept
    reference = play(once, bids[0], "/game status")
    status = lambda text: text[text.rindex("18Texas game #1 (active)"):]  # noqa: E731
    assert status(after_undo) == status(reference)  # the position is the one after the first move
    assert "@Bob — bid on a private company: BBBCRC from $50, GRRRC from $85" in status(after_undo)
    again = play(undone, "/game undo steps:2")
    assert "error: You can undo 1 to 1 move(s)." in again  # one move is left to undo, not two


# (log, private, actions before a turn of its owner's company, a hex a token of it would fit): P2
# and P21 were used once, P22 twice, before these positions. With a token left, each would be
# offered on that hex here (a mutation run made the count off by one: it was).
SPENT = [("109372", "P2", 239, "F18"), ("randplay_18USA_4p_s8400", "P21", 364, "E15"),
         ("109372", "P22", 1073, "C17")]


@pytest.mark.parametrize("log, company, upto, hexagon", SPENT)
def test_a_bridge_private_after_its_last_token_offers_and_takes_nothing(tmp_path: Path, log: str, company: str,
                                                                         upto: int, hexagon: str) -> None:
    db, document = usa_at(tmp_path, upto, next(path for path in USA_LOGS if path.stem == log))
    state = load_game(document).state
    owner = state.companies[company].owner
    president = owner.president().name
    before = database_rows(db)
    raw = json.dumps({"type": "assign", "entity": company, "entity_type": "company", "target": hexagon,
                      "target_type": "hex"})
    out = play(db, "/moves", f"@{president} /use private:{company} hex:{hexagon}", f"@{president} /action json:{raw}")
    listed = [line for line in out.splitlines() if line.startswith("  @")]  # /moves: a line a command
    assert f"@{president} — {owner.id}: " in out  # the owner operates: a token would be offered now
    assert listed and not any("/use" in line for line in listed), listed
    assert out.count("error: ") == 2 and "error: /use is not possible now" in out
    assert "error: That move is not allowed:" in out and "(assign is /use)" in out
    assert database_rows(db) == before


def test_american_bridge_offers_its_second_token(tmp_path: Path) -> None:
    db, document = usa_at(tmp_path, 264)  # P22 used once (action 194); MP operates
    president = load_game(document).state.companies["P22"].owner.president().name
    out = play(db, "/moves", f"@{president} /use private:P22 hex:F18")
    assert f"@{president} /use private: P22 — American Bridge Company" in out
    assert "error" not in out and len(database_rows(db)["actions"]) == 265


def test_a_raw_action_for_another_seat_or_company_is_refused_for_that(tmp_path: Path) -> None:
    db = tmp_path / "texas.db"
    new_texas(db)
    before = database_rows(db)
    bid = {"type": "bid", "company": "GRRRC", "price": 80}
    out = play(db, f"@Bob /action json:{json.dumps({**bid, 'entity': 'Alice'})}",
               f"@Bob /action json:{json.dumps({**bid, 'entity': 1, 'entity_type': 'player'})}")
    assert out.count(NOT_YOURS) == 2, out
    assert database_rows(db) == before
    made = play(db, f"@Alice /action json:{json.dumps({**bid, 'entity': 'Alice'})}")  # legal for its owner
    assert "Alice bids $80 for GRRRC" in made

    usa, document = usa_at(tmp_path, 457)  # SR (Player 2's) is to lay track; passing is legal for it
    state = load_game(document).state
    president = state.corporations["SR"].president().name
    other = next(player.name for player in state.players if player.name != president)
    before = database_rows(usa)
    passing = json.dumps({"type": "pass", "entity": "SR", "entity_type": "corporation"})
    refused = play(usa, f"@{other} /action json:{passing}")
    assert NOT_YOURS in refused, refused
    assert database_rows(usa) == before
    passed = play(usa, f"@{president} /action json:{passing}")
    assert "error" not in passed and len(database_rows(usa)["actions"]) == 458
