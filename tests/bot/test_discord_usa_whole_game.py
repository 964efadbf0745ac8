"""A whole 18USA game through the real discord.py client against tests/fakediscord, from
`/game new` to the final scores: the generated game s8405 (1,173 actions, 4 players) started
with its seed and the site's readings, each logged move typed as 18USA's slash command by the
player who decides it (the words `usa_script` gives them). The game has the private auction,
company starts with subsidies and contributions, loans, second lays, resource tokens, shorts,
mergers, liquidations, shares sold in a cash crisis, a bankruptcy, an acquisition bid, Pullmans
and the end.
"""

from __future__ import annotations

import json
from typing import Any

from fakediscord import FakeDiscord, FakeUser, StoredMessage
from test_discord_e2e import WAIT, seen_answer, stationmaster
from usa_script import USA_LOGS, decider, made_by_itself, typed_parts

from bot.vocabulary import MOVES
from engine.log import document_options, new_game

S8405 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8405")


def seated(action: dict[str, Any], seats: dict[str, int]) -> dict[str, Any]:
    """The logged action with the site's player ids ("P1") as the bot's seat numbers."""
    moved = dict(action)
    if moved.get("entity_type") == "player":
        moved["entity"] = seats[str(moved["entity"])]
    if moved.get("auto_actions"):
        moved["auto_actions"] = [seated(part, seats) for part in moved["auto_actions"]]
    return moved


async def test_a_whole_18usa_game_from_new_to_the_scores_through_discord(fake_discord: FakeDiscord,
                                                                          tmp_path: Any) -> None:
    document = json.loads(S8405.read_text())
    # The bot seats the players in an order drawn from the seed; the log's nth player is
    # whoever the bot seats nth (seat n), so the game is the log's game.
    seats = {str(player["id"]): number for number, player in enumerate(document["players"], 1)}
    names = ["Ann", "Ben", "Cat", "Dan"]
    users: dict[str, FakeUser] = {name: fake_discord.add_user(name) for name in names}
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        created = await (await fake_discord.invoke_slash(users[names[0]], "game", "new", options={
            "title": "18USA", "seed": document["settings"]["seed"], "site_rules": True})).wait_message(timeout=WAIT)
        assert "18USA game #1" in created.content, created.content
        (thread,) = fake_discord.threads(fake_discord.channel)

        async def slash(user: FakeUser, *path: str, **options: Any) -> StoredMessage:
            handle = await fake_discord.invoke_slash(user, *path, options=options, channel=thread)
            return await seen_answer(fake_discord, handle)

        for name in names[1:]:
            joined = await slash(users[name], "game", "join")
            assert not joined.ephemeral, joined.content
        started = await slash(users[names[0]], "game", "start")
        assert not started.ephemeral, started.content

        def state() -> Any:
            session = bot.moderator.sessions._cache[1]
            assert session.game is not None
            return session.game.state

        # The words of each move come from the log's own position (a tile's copy number in the
        # log names a hex there; the bot numbers the copies it hands out itself).
        table = [{"id": player.id, "name": player.name} for player in state().players]
        assert [player["id"] for player in table] == [1, 2, 3, 4] and {p["name"] for p in table} == set(names)
        replica = new_game("18USA", table, document["settings"]["seed"], document_options(document)).state
        last = started
        for index, logged in enumerate(document["actions"]):
            action = seated(logged, seats)
            if made_by_itself(replica, action):  # the bot made it after the last move
                replica.apply(action)
                continue
            parts = typed_parts(replica, action)
            assert parts is not None, (index, action)
            word, options = parts
            kinds = {option.name: option.kind for option in MOVES[word].options}
            typed = {name: kinds[name](value) for name, value in options.items()}
            last = await slash(users[decider(replica, action)], word, **typed)
            assert not last.ephemeral, (index, action, last.content)
            replica.apply(action)  # without a safety copy: a refusal fails the test
        finished = state()
        assert finished.finished and replica.finished
        made = {stored.action["type"] for stored in bot.moderator.sessions._cache[1].actions}
        assert {"bid", "short", "take_loan", "payoff_loan", "merge", "convert", "sell_shares", "lay_tile",
                "place_token", "buy_train", "run_routes", "dividend", "discard_train", "bankrupt", "choose",
                "scrap_train", "assign"} <= made, made
        logged = {seats[str(player)]: value for player, value in document["result"].items()}
        assert {int(seat): value for seat, value in finished.result().items()} == logged
        by_name = sorted(((value, table[seat - 1]["name"]) for seat, value in logged.items()), reverse=True)
        scores = "\n".join(f"{place}. {name} ${value}" for place, (value, name) in enumerate(by_name, 1))
        assert f"Final scores:\n{scores}" in last.content, last.content
