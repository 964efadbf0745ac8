"""Games played at the table with every kind of standing order export as the site expects them:
the `program_*` actions and each move's `auto_actions` in the site's form (no ids on automatic
moves, nothing null), and the export replayed with its automatic moves worked out again by the
engine (`stationmaster replay --recompute-programs`) reproduces every one of them. In the
terminal, with the log's seats (`Player 1` ...)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot_helpers import imported, open_moderator

from bot.cli import main
from bot.dispatch import handle
from bot.model import Actor, Command
from engine import load_game

DATA = Path(__file__).resolve().parents[1] / "data" / "fixtures"
TEXAS = DATA / "18Texas" / "65394.json"
USA = DATA / "18USA" / "109372.json"


def _seat(name: str) -> Actor:
    return Actor(None, name)


async def _export(moderator: Any, game_id: int, tmp_path: Path) -> dict[str, Any]:
    document = (await moderator.export(game_id)).document
    assert document is not None
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(document))
    return document


async def _pass_by_hand_while(moderator: Any, game_id: int, round_title: str) -> None:
    """Whoever is to act passes by hand while the round's title starts so (at most 12 times)."""
    for _ in range(12):
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        state = session.game.state
        if not state.round_title().startswith(round_title):
            return
        (player,) = state.acting_players()
        assert (await handle(moderator, game_id, _seat(player.name), Command("pass"))).ok
    raise AssertionError(f"still in {round_title} after 12 passes")


def _made_here(document: dict[str, Any], logged: int) -> list[dict[str, Any]]:
    return document["actions"][logged:]


def _check_site_form(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every automatic move without an id or a null, with its time; the automatic moves."""
    moves = [move for action in actions for move in action.get("auto_actions") or []]
    for move in moves:
        assert "id" not in move and "user" not in move and None not in move.values(), move
        assert isinstance(move.get("created_at"), int), move
    for action in actions:
        assert None not in action.values(), action
    return moves


async def test_an_18texas_stock_round_with_orders_exports_and_replays_with_its_moves_worked_out(
        tmp_path: Path, capsys: Any) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, TEXAS, 6)  # Stock Round 1: Player 2 to act
        orders = [("Player 1", "auto buy", {"corporation": "SAA", "until": "float"}),
                  ("Player 3", "auto pass", {"unconditional": True, "indefinite": True}),
                  ("Player 4", "auto pass", {}),
                  ("Player 2", "pass", {})]
        for name, word, options in orders:
            reply = await handle(moderator, game_id, _seat(name), Command(word, options))
            assert reply.ok, reply.text
        # Player 4 replaces the pass with a purchase order, then switches it off.
        for word, options in (("auto buy", {"corporation": "MP", "until": "2", "then_pass": True}),
                              ("auto off", {})):
            assert (await handle(moderator, game_id, _seat("Player 4"), Command(word, options))).ok
        await _pass_by_hand_while(moderator, game_id, "Stock Round 1")
        # /game log names the orders' moves as the replies did.
        log = (await handle(moderator, game_id, _seat("Player 2"), Command("game log", {"lines": 40}))).text
        assert "Player 3 passes (standing order)" in log and "Player 1 buys 10% of SAA for $70 (standing order)" in log
        document = await _export(moderator, game_id, tmp_path)
    finally:
        await repo.close()
    made = _made_here(document, 6)
    kinds = {action["type"] for action in made}
    assert {"program_buy_shares", "program_share_pass", "program_disable"} <= kinds
    moves = _check_site_form(made)
    assert {"buy_shares", "pass"} <= {move["type"] for move in moves}
    replayed = load_game(document, recompute=True)
    assert not replayed.state.round_title().startswith("Stock Round 1")
    assert main(["replay", "--recompute-programs", str(tmp_path / "exported.json")]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["automatic_moves_reproduced"] == len(moves)  # the first 6 logged actions carry none


async def test_18usa_orders_of_every_kind_export_and_replay_with_their_moves_worked_out(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, USA, 1079)  # Merger and Conversion Round 4.2: NYC to act
        refused = await handle(moderator, game_id, _seat("Player 3"), Command("auto mergers", {"companies": "UP"}))
        assert not refused.ok and "UP: not among your companies that can take part now (N&W, B&O)" in refused.text
        refused = await handle(moderator, game_id, _seat("Player 2"), Command("auto buy", {"corporation": "SR",
                                                                                         "until": "4"}))
        assert not refused.ok and "SR has no share in its treasury to buy" in refused.text
        for name, word, options in (
                ("Player 3", "auto mergers", {"companies": "B&O,N&W", "unless_others_act": False}),
                ("Player 4", "auto mergers", {}),  # NYC, to act, passes at once
                ("Player 1", "auto pass", {"indefinite": True}),  # kept until the next stock round
                ("Player 2", "auto buy", {"corporation": "TP", "until": "8"}),  # dropped when the round ends
                ("Player 2", "auto off", {})):
            reply = await handle(moderator, game_id, _seat(name), Command(word, options))
            assert reply.ok, reply.text
        await _pass_by_hand_while(moderator, game_id, "Merger")
        document = await _export(moderator, game_id, tmp_path)
    finally:
        await repo.close()
    made = _made_here(document, 1079)
    assert {action["type"] for action in made} >= {"program_merger_pass", "program_share_pass",
                                                   "program_buy_shares", "program_disable"}
    moves = _check_site_form(made)
    assert {"NYC", "B&O", "N&W"} <= {m["entity"] for m in moves if m["type"] == "pass"}
    load_game(document, recompute=True)
