"""18USA at the table: a generated game's opening played with 18USA's command words reaches the
position the engine replays from the log; the words the title lacks are refused; the turn text
says what 18USA players need to know."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import open_moderator
from usa_script import USA_LOGS, accepted_prefix, script

from bot.console import TABLE, Console
from bot.dispatch import handle
from bot.model import Command
from bot.moderator import Moderator
from engine import load_game
from engine.core.game import BaseGame

LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8400")
OPENING = 230  # actions: into the third stock round (the whole game takes minutes)


def _printed(tile_id: str) -> str:
    """"57" for the tile "57-1": a command names the tile, the engine picks which copy."""
    return tile_id.rsplit("-", 1)[0]


def position(state: BaseGame) -> dict[str, Any]:
    """What two replays of one game must agree on (player ids aside: names are the same; tile
    copies aside: a command lays "a 57", a log names the copy; the log names the printed tile)."""
    return {
        "log": list(state.log),
        "round": state.round_label(),
        "players": [(p.name, p.cash) for p in state.players],
        "corporations": {c.id: (c.cash, state.share_price(c) if c.id in state.market.position else None,
                                [t.id for t in c.trains], state.loans.count(c.id))
                         for c in state.corporations.values()},
        "tiles": {coord: (_printed(h.tile_id), h.rotation) for coord, h in state.board.hexes.items()},
    }


async def console_game(moderator: Moderator, players: list[str], seed: int) -> tuple[Console, io.StringIO]:
    created = await moderator.create_game(TABLE, "18USA", seed=seed, site_rules=True, players=players)
    assert created.ok and created.game_id is not None, created.text
    assert (await handle(moderator, created.game_id, TABLE, Command("game start"), shuffle=False)).ok
    out = io.StringIO()
    return Console(moderator, created.game_id, None, out, strict=True), out


async def test_a_generated_game_played_with_18usa_words_reaches_the_replayed_position(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    actions = accepted_prefix(LOG, offered=True, limit=OPENING)
    lines = script(LOG, actions)
    words = {line.split(" /", 1)[1].split()[0] for line in lines}
    # Two sets of rounds: the auction, company starts with home stations and contributions,
    # loans, lays, trains, runs, dividends, a conversion and offers in the acquisition round.
    assert {"bid", "pass", "token", "contribute", "loan", "lay", "train", "run", "dividend", "convert",
            "offer"} <= words, words
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        console, out = await console_game(moderator, [p["name"] for p in document["players"]],
                                          document["settings"]["seed"])
        for line in lines:
            assert await console.line(line), f"{line}\n{out.getvalue()[-2000:]}"
        session = await moderator.sessions.get(console.game_id)
        assert session.game is not None
        played = session.game.state
    finally:
        await repo.close()
    replayed = load_game({**document, "actions": actions}).state
    assert position(played) == position(replayed)


# Three logs (the real game and two generated ones of other sizes): the engine's replay tests
# cover every log; these check the bot's import path, which is the same for all.
IMPORTED = [path for path in USA_LOGS if path.stem in ("109372", "randplay_18USA_5p_s8502", "randplay_18USA_6p_s8603")]


@pytest.mark.parametrize("log", IMPORTED, ids=[path.stem for path in IMPORTED])
async def test_an_18usa_log_imports_as_far_as_the_engine_plays_and_exports_as_imported(
        tmp_path: Path, log: Path) -> None:
    """As for 18Texas, a log the engine refuses midway is refused whole, naming the action, and
    nothing is stored; the part it plays imports, and exports with the same actions."""
    document = json.loads(log.read_text())
    played = accepted_prefix(log)
    assert len(played) > 100  # past the auction and into the first stock round at least
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        if len(played) < len(document["actions"]):
            refused = await moderator.import_game(TABLE, log.read_bytes())
            position = len(played) + 1
            assert not refused.ok and f"illegal action at position {position} " in refused.text, refused.text
            assert await repo.list_games() == []
        prefix = {**document, "actions": document["actions"][:len(played)]}
        imported = await moderator.import_game(TABLE, json.dumps(prefix))
        assert imported.ok and imported.game_id is not None, imported.text
        # A log the engine plays to its end (s8603) imports as a finished game.
        status = "finished" if len(played) == len(document["actions"]) else "active"
        assert f"Imported 18USA as game #{imported.game_id} ({len(played)} actions, {status})" in imported.text
        exported = (await moderator.export(imported.game_id)).document
        assert exported is not None
        assert exported["actions"] == prefix["actions"]
        assert exported["players"] == document["players"] and exported["title"] == "18USA"
    finally:
        await repo.close()


def test_the_tiles_offered_for_a_second_lay_say_what_it_costs() -> None:
    """s8403 after NP's first lay (the coal token in E25): autocomplete offers the tiles for H22
    with the $20 of a second tile action, the engine's price of the lay."""
    from bot.suggest import suggest
    from engine.legal import legal_moves

    document = json.loads(next(path for path in USA_LOGS if path.stem.endswith("s8403")).read_text())
    state = load_game({**document, "actions": document["actions"][:442]}).state
    president = state.corporations["NP"].president()
    assert president is not None
    labels = [label for label, _ in suggest(state, legal_moves(state), president.id, "lay", "tile", "",
                                            {"hex": "H22"})]
    assert labels and all(label.endswith(" — $20") for label in labels), labels
    first = load_game({**document, "actions": document["actions"][:441]}).state
    labels = [label for label, _ in suggest(first, legal_moves(first), president.id, "lay", "tile", "",
                                            {"hex": "H22"})]
    assert labels and not any("$" in label for label in labels), labels  # the first lay is free there
