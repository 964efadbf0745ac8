"""Issue 9, "clarity players asked for": what replies, autocomplete and the terminal say."""

from __future__ import annotations

from pathlib import Path

from bot_helpers import actor, open_moderator, opening_command, started_game

from engine.legal import legal_moves


async def _until(moderator, game_id: int, wanted: str) -> str:
    """Play the simple opening until the acting player has a `wanted` move; their name."""
    for _ in range(40):
        session = await moderator.sessions.get(game_id)
        state = session.game.state
        if any(m["type"] == wanted for m in legal_moves(state)):
            return state.acting_players()[0].name
        name, command = opening_command(state)
        assert (await moderator.perform(game_id, actor(name), command)).ok
    raise AssertionError(f"no {wanted} move came up")


async def test_the_jay_gould_par_offers_the_real_cost_in_price_order(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        owner = await _until(moderator, game_id, "par")
        choices = await moderator.suggest(game_id, actor(owner), "par", "price", "", {})
        prices = [value for _, value in choices]
        assert prices == sorted(prices) and len(prices) >= 4
        assert all(label == f"${value} (free president's certificate)" for label, value in choices)
        wrong = await moderator.perform(game_id, actor(owner), _par(moderator, game_id, 1))
        assert not wrong.ok
        listed = [int(p.strip(" $.")) for p in wrong.text.split("can start at ")[1].split(", not")[0].split(",")]
        assert listed == sorted(listed)
    finally:
        await repo.close()


def _par(moderator, game_id: int, price: int):
    from bot.model import Command

    session = moderator.sessions._cache[game_id]
    corp = next(m for m in legal_moves(session.game.state) if m["type"] == "par")["choices"][0]["corporation"]
    return Command("par", {"corporation": corp, "price": price})
