"""`/game map around:<hex or company> radius:<n>`: a close-up of part of the map, through the
terminal's command words on an imported 18USA game (109372's first 400 moves, its companies'
stations on the map) and through the real discord.py client against the fake Discord, with its
autocomplete. Bad centres and radii get a message that says what is allowed, and change nothing.
And a move that lays a tile is answered with a close-up of it besides the whole map."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot_helpers import imported, open_moderator
from fakediscord import FakeDiscord
from PIL import Image
from test_discord_e2e import WAIT, Table, pngs, stationmaster
from usa_script import USA_LOGS, decider

from bot.console_parse import parse_line
from bot.dispatch import handle
from bot.model import Actor, Command

FIXTURE = next(path for path in USA_LOGS if path.stem == "109372")
MOVES = 400
VIEWER = Actor(user_id=None, name="", manager=False)


def png_size(data: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(data)).size


async def test_the_map_around_a_hex_or_a_company_s_stations(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, FIXTURE, MOVES)
        state = (await moderator.sessions.get(game_id)).game.state  # type: ignore[union-attr]
        whole = await handle(moderator, game_id, VIEWER, Command("game map"))
        (whole_png,) = whole.pictures

        typed = parse_line("/game map around:d20 radius:1")  # as the terminal reads it
        assert typed is not None
        near = await handle(moderator, game_id, VIEWER, typed[1])
        assert near.ok and near.text == f"Game #{game_id}: map around D20 after move {MOVES}."
        (near_png,) = near.pictures
        assert near_png.name == "map-close-up.png"  # map.png stays the whole map
        default = await handle(moderator, game_id, VIEWER, Command("game map", {"around": "D20"}))
        widths = [png_size(p.data)[0] for p in (near_png, default.pictures[0], whole_png)]
        assert widths == sorted(widths) and widths[0] < widths[1] < widths[2] // 2

        # Around a company: each of its stations (UP has two, far apart).
        stations = [coord for coord, _ in state.board.token_hexes("UP")]
        assert len(stations) == 2
        around_up = await handle(moderator, game_id, VIEWER, Command("game map", {"around": "up", "radius": 1}))
        one = await handle(moderator, game_id, VIEWER, Command("game map", {"around": stations[0], "radius": 1}))
        assert around_up.ok and "map around UP after" in around_up.text and png_size(around_up.pictures[0].data)[1] > png_size(one.pictures[0].data)[1]
    finally:
        await repo.close()


async def test_a_bad_centre_or_radius_says_what_is_allowed_and_changes_nothing(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, FIXTURE, MOVES)
        before = await repo.last_seq(game_id)
        nowhere = await handle(moderator, game_id, VIEWER, Command("game map", {"around": "Z99"}))
        assert not nowhere.ok and not nowhere.pictures
        assert nowhere.text.startswith("Z99 is neither a hex of this map nor a company. Give a hex such as ")
        assert "a company with stations (" in nowhere.text and "UP" in nowhere.text
        long = await handle(moderator, game_id, VIEWER, Command("game map", {"around": "Q" * 3000}))
        assert not long.ok and long.text.startswith("Q" * 24 + "\u2026 is neither a hex") and len(long.text) < 400
        empty = await handle(moderator, game_id, VIEWER, Command("game map", {"around": " "}))
        assert not empty.ok and empty.text.startswith("around: names what to show close up: a hex such as ")
        state = (await moderator.sessions.get(game_id)).game.state  # type: ignore[union-attr]
        unplaced = next(corp for corp in state.corporations if not state.board.token_hexes(corp))
        idle = await handle(moderator, game_id, VIEWER, Command("game map", {"around": unplaced}))
        assert not idle.ok and idle.text.startswith(f"{unplaced} has no station on the map yet: give a hex instead")
        wide = await handle(moderator, game_id, VIEWER, Command("game map", {"around": "D20", "radius": 9}))
        assert not wide.ok and wide.text == "Radius 9 is not allowed: give 1 to 8 hexes."
        assert await repo.last_seq(game_id) == before

        # Suggestions: companies with stations first, then hexes by coordinate or place name.
        first = await moderator.close_up_choices(game_id, "")
        placed = [corp for corp in state.corporations if state.board.token_hexes(corp)]
        assert [value for _, value in first[:len(placed)]] == placed
        assert await moderator.close_up_choices(game_id, "chic") == [("D20 Chicago", "D20")]
    finally:
        await repo.close()


async def test_a_close_up_through_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    table = Table(fake)
    bob = table.users["bob"]
    async with stationmaster(fake, tmp_path / "bot.db") as bot:
        table.bot = bot
        started = await table.open("18USA", 5)
        whole_width = png_size(started.attachments[0].data)[0]

        offered = await (await fake.autocomplete(bob, "game", "map", focused="around", value="chic", options={},
                                                 channel=table.thread)).wait_choices(timeout=WAIT)
        assert offered == [{"name": "D20 Chicago", "value": "D20"}]
        near = await table.slash(bob, "game", "map", around="D20", radius=1)
        assert not near.ephemeral and "map around D20" in near.content and pngs(near) == ["map-close-up.png"]
        assert png_size(near.attachments[0].data)[0] * 3 < whole_width
        refused = await table.slash(bob, "game", "map", around="Z99")
        assert refused.ephemeral and "Z99 is neither a hex of this map nor a company" in refused.content
        assert not refused.attachments
        # Discord's client keeps the radius within 1-8; a request that does not is refused too.
        wide = await table.slash(bob, "game", "map", around="D20", radius=0)
        assert wide.ephemeral and not wide.attachments and wide.content == "Radius 0 is not allowed: give 1 to 8 hexes."


async def test_a_tile_lay_is_answered_with_a_close_up_of_it(tmp_path: Path) -> None:
    actions = json.loads(FIXTURE.read_text())["actions"]
    lays = [index for index in range(MOVES, len(actions)) if actions[index]["type"] == "lay_tile"][:2]
    repo, moderator = await open_moderator(tmp_path / "games.db", images=True)
    try:
        game_id = await imported(moderator, FIXTURE, lays[0])
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        shown = None
        for index in range(lays[0], lays[1] + 1):
            action = actions[index]
            who = decider(session.game.state, action)
            reply = await moderator.perform(game_id, Actor(None, who, False),
                                            Command("action", {"json": json.dumps(action)}))
            assert reply.ok, reply.text
            names = [picture.name for picture in reply.pictures]
            assert session.views is not None
            near = session.views.close_up
            if index in lays:
                assert names[:2] == ["map.png", "map-close-up.png"]
                whole, part = (png_size(picture.data) for picture in reply.pictures[:2])
                assert part[0] * 2 < whole[0]
                assert near is not None and near.highlight_hexes == {action["hex"]}
                assert "around " + action["hex"] in near.caption
            # Shown again only with the map, and only when it changed (the runs drawn near it).
            if "map-close-up.png" in names:
                assert "map.png" in names and near != shown
                shown = near
            else:
                assert "map.png" not in names or near == shown
    finally:
        await repo.close()
