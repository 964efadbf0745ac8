"""18USA P6 (Import/Export Hub) is used in the company's track step, on a red area the company
reaches: while it could be, the site keeps the track step open after the tile actions (a pass
ends it); once P6 is used (it closes) the company goes straight on to its run.
"""

from __future__ import annotations

from usa_tracecheck import move_kinds as kinds
from usa_tracecheck import position_in as position

from engine.legal import legal_moves


def test_the_track_step_waits_while_p6_could_revalue_a_reachable_red_area() -> None:
    game = position("s8502", 241)  # NYC (P6, P7) has used its three tile actions
    nyc = game.corporations["NYC"]
    assert game.round.acting_entity(game) is nyc and game.owns(nyc, "P6")
    assert "run_routes" not in kinds(game) and "pass" in kinds(game)
    assign = [m for m in legal_moves(game) if m["type"] == "assign" and m["entity"] == "P6"]
    assert assign


def test_once_p6_is_gone_the_step_does_not_wait() -> None:
    game = position("s8502", 241)
    game.companies["P6"].closed = True
    assert not {"pass", "lay_tile"} & kinds(game)  # the track step has nothing left to wait for


def test_p6_is_offered_on_every_hex_of_the_red_areas_the_company_reaches() -> None:
    game = position("s8502", 241)
    move = next(m for m in legal_moves(game) if m["type"] == "assign" and m["entity"] == "P6")
    targets = {choice["target"] for choice in move["choices"]}
    assert targets and all(game.umap.red_area_hexes(coord) for coord in targets)
