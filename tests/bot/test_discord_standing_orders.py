"""Standing orders (/auto) through the real discord.py client against tests/fakediscord, in a
5-player 18Texas game imported at its first stock round (the generated game s301: P4 to act
first; the Jay Gould par started SSW): orders set out of turn ping nobody; a stock round where
four players have share passes ends with one typed move, and only the player who must decide is
pinged; a buy-until-float order buys a share on each of its owner's turns, and when the company
has floated its end is told to its owner alone, in a direct message, with the reason."""

from __future__ import annotations

import json
from pathlib import Path

from fakediscord import FakeDiscord
from test_discord_e2e import pinged, stationmaster
from test_discord_usa_late import ImportedTable

DATA = Path(__file__).resolve().parents[1] / "data"
S301 = DATA / "generated" / "18Texas" / "randplay_18Texas_5p_s301.json"
STOCK_ROUND_1 = 7  # the log's first stock-round action


async def _table(fake: FakeDiscord, bot: object) -> ImportedTable:
    document = json.loads(S301.read_text())
    table = ImportedTable(fake, bot, [p["name"] for p in document["players"]])  # type: ignore[arg-type]
    await table.open(document, STOCK_ROUND_1)
    assert [p.name for p in table.state().acting_players()] == ["P4"]
    return table


async def test_a_stock_round_of_standing_orders_ends_with_one_typed_move(fake_discord: FakeDiscord,
                                                                        tmp_path: Path) -> None:
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table = await _table(fake_discord, bot)
        users = table.users
        for name in ("P5", "P1", "P2", "P3"):  # out of turn: nothing moves, nobody is pinged
            reply = await table.slash(users[name], "auto", "pass")
            assert not reply.ephemeral, reply.content
            assert f"{name} sets a standing order: pass" in reply.content and pinged(reply) == []
        shown = await table.slash(users["P1"], "auto", "show")
        assert shown.ephemeral and "Your standing order: pass in this stock round" in shown.content
        assert "Standing orders are also set for: P2, P3, P5" in shown.content
        status = await table.slash(users["P4"], "game", "status")
        assert "Standing orders: P1 (pass), P2 (pass), P3 (pass), P5 (pass)" in status.content

        reply = await table.slash(users["P4"], "pass")
        assert not reply.ephemeral, reply.content
        for name in ("P5", "P1", "P2", "P3"):
            assert f"{name} passes (standing order)" in reply.content, reply.content
        state = table.state()
        assert not state.round_title().startswith("Stock Round 1")  # the round is over
        assert state.programs.programs == {}  # and the orders with it
        deciding = [p.name for p in state.acting_players()]
        assert pinged(reply) == [users[name].id for name in deciding]
        # Orders that end with their round are not news: nobody is told privately.
        assert all(not fake_discord.direct_messages(user) for user in users.values())


async def test_a_buy_order_buys_on_its_owners_turns_and_its_end_is_told_to_its_owner(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table = await _table(fake_discord, bot)
        users = table.users
        started = await table.slash(users["P4"], "par", corporation="MKT", price=70)
        assert "P4 starts MKT" in started.content, started.content
        for name in ("P1", "P2", "P4"):
            await table.slash(users[name], "auto", "pass", unconditional=True)
        ordered = await table.slash(users["P3"], "auto", "buy", corporation="MKT", until="float")
        assert "P3 sets a standing order: buy a share of MKT from its treasury each turn until it floats" in (
            ordered.content)
        # P5 passes by hand each time; the orders play the rest, and P3 buys on each turn until MKT
        # floats; on P3's next turn the order ends and P3 decides.
        replies = []
        while table.state().programs.of("P3") is not None and len(replies) < 5:
            replies.append(await table.slash(users["P5"], "pass"))
            assert not replies[-1].ephemeral, replies[-1].content
        reply = replies[-1]
        text = "\n".join(r.content for r in replies)
        assert [r.content.count("P3 buys 10% of MKT for $70 (standing order)") for r in replies] == [1, 1, 1, 0], text
        assert "MKT floats" in replies[2].content
        assert "P3's standing order has ended (they are told why)." in reply.content
        state = table.state()
        assert state.corporations["MKT"].floated and state.programs.of("P3") is None
        assert [p.name for p in state.acting_players()] == ["P3"] and pinged(reply) == [users["P3"].id]
        (told,) = await fake_discord.wait_for(lambda: fake_discord.direct_messages(users["P3"]) or None,
                                              what="P3's direct message")
        assert told.content == ("Your standing order (buy a share of MKT from its treasury each turn until it "
                                "floats) has ended: MKT has floated: your order is done. The next decision is "
                                "yours.")
        assert all(not fake_discord.direct_messages(users[name]) for name in ("P1", "P2", "P4", "P5"))


async def test_away_passes_for_a_player_at_once_and_back_ends_it(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table = await _table(fake_discord, bot)
        users = table.users
        away = await table.slash(users["P4"], "auto", "away", until="2d")
        assert not away.ephemeral, away.content
        assert away.content.startswith("P4 is away until ") and "\nP4 passes (away until " in away.content
        assert [p.name for p in table.state().acting_players()] == ["P5"] and pinged(away) == [users["P5"].id]
        refused = await table.slash(users["P5"], "auto", "away", until="2020-01-01")
        assert refused.ephemeral and "has passed already" in refused.content
        back = await table.slash(users["P4"], "auto", "back")
        assert back.content == "P4 is back. The bot passed for them once meanwhile."
