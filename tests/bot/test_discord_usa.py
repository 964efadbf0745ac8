"""An 18USA game through the real discord.py client against tests/fakediscord: `/game new
title:18USA`, the private auction, a stock round that starts companies on subsidy cities (home
station chosen from autocomplete) with a loan, and operating rounds with lays, loans, trains, a
run confirmed by its button and a dividend; the pictures are the 18USA ones."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, StoredMessage
from PIL import Image
from test_discord_e2e import WAIT, Table, pinged, pngs, stationmaster

from bot.model import Command
from engine.core.entities import Player
from engine.core.game import BaseGame
from engine.legal import legal_moves, move_decider

RUN_BUTTON = re.compile(r"sm:\d+:\d+:run:\d+")  # "Run for $N" names the total it runs


def subsidy_cash(state: Any, coord: str) -> int:
    return max((mark.value for mark in state.map_marks().get(coord, ()) if mark.kind == "subsidy"), default=0)


def usa_step(state: BaseGame, done: set[Any]) -> tuple[str, Command]:
    """A simple 18USA policy: one private bought in the auction, two companies started at $100 on
    the richest subsidy cities (each takes a loan in the stock round), then per operating turn one
    lay, one loan, a train if it has none, the proposed runs and a payout."""
    moves = legal_moves(state)
    by_type = {m["type"]: m for m in moves}
    assert moves, (state.round_label(), state.finished, state.log[-8:])
    move = moves[0]
    corp = str(move["entity"]) if move.get("entity_type") == "corporation" else None
    decider = move_decider(state, move)
    assert decider is not None, move
    who = decider.name
    label = state.round_label()
    bid = by_type.get("bid")
    if bid is not None and "company" in bid["choices"][0]:
        first = bid["choices"][0]
        if "auction bid" in done:  # one bid in the whole auction: that private is sold, the rest close
            return who, Command("pass")
        done.add("auction bid")
        return who, Command("bid", {"company": first["company"], "price": first["min"]})
    if "place_token" in by_type and label.startswith("Stock"):
        best = max(by_type["place_token"]["choices"], key=lambda c: subsidy_cash(state, c["hex"]))
        return who, Command("token", {"city": best["hex"]})
    if bid is not None:
        started = sum(1 for c in state.corporations.values() if c.ipoed)
        first = bid["choices"][0]
        owner = any(isinstance(c.owner, Player) and c.owner.name == who for c in state.companies.values())
        if started < 2 and first["min"] == 100 and (owner or started == 1):  # the private's owner first
            return who, Command("bid", {"company": first["corporation"], "price": 100})
        return who, Command("pass")
    gift = next((c for c in by_type.get("assign", {}).get("choices", []) if c.get("target_type") == "company"), None)
    if gift is not None:  # a private for the company being started (no company is offered for sale)
        return who, Command("contribute", {"company": gift["target"]})
    turn = (corp, label)
    if "lay_tile" in by_type and ("lay", turn) not in done:
        done.add(("lay", turn))
        choice = by_type["lay_tile"]["choices"][0]
        tile = choice["tiles"][0]
        return who, Command("lay", {"hex": choice["hex"], "tile": tile["tile"].rsplit("-", 1)[0],
                                    "rotation": tile["rotations"][0]})
    if "take_loan" in by_type and ("loan", turn) not in done:
        done.add(("loan", turn))
        return who, Command("loan")
    if "buy_train" in by_type and corp is not None and not state.corporations[corp].trains:
        return who, Command("train", {"train": by_type["buy_train"]["choices"][0]["train"].rsplit("-", 1)[0]})
    if "run_routes" in by_type:
        return who, Command("run")
    if "dividend" in by_type:
        return who, Command("dividend", {"kind": "payout"})
    return who, Command("pass")


async def test_an_18usa_game_from_new_to_a_run_and_a_dividend(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    alice, bob, carol = table.users["alice"], table.users["bob"], table.users["carol"]
    async with stationmaster(fake, db) as bot:
        table.bot = bot
        titles = await (await fake.autocomplete(alice, "game", "new", focused="title", value="usa",
                                                options={})).wait_choices(timeout=WAIT)
        assert titles == [{"name": "18USA (2-7 players)", "value": "18USA"}]
        created = await (await fake.invoke_slash(alice, "game", "new", options={
            "title": "18USA", "seed": 5, "site_rules": True})).wait_message(timeout=WAIT)
        (table.thread,) = fake.threads(fake.channel)
        assert "18USA game #1" in created.content
        await table.slash(bob, "game", "join")
        await table.slash(carol, "game", "join")
        started = await table.slash(alice, "game", "start")
        assert pngs(started) == ["map.png", "market.png", "table.png"]
        width, height = Image.open(io.BytesIO(started.attachments[0].data)).size
        assert max(width, height) <= 2400

        # A word of another title is refused, saying which are this game's.
        who = table.users[table.state().acting_players()[0].name]
        other = await table.slash(who, "par", corporation="ATSF", price=100)
        assert other.ephemeral and "/par is not a move in 18USA" in other.content and "/short" in other.content

        done: set[Any] = set()
        seen: set[str] = set()
        replies: list[StoredMessage] = []
        for _ in range(120):
            state = table.state()
            if any(c.startswith("dividend") for c in seen) and state.round_label().startswith("Operating"):
                break
            name, command = usa_step(state, done)
            user = table.users[name]
            if command.name == "token":  # the home station from autocomplete: the city and its subsidy
                typed = command.options["city"]
                cities = await (await fake.autocomplete(user, "token", focused="city", value=typed, options={},
                                                        channel=table.thread)).wait_choices(timeout=WAIT)
                assert cities[0]["value"] == typed and "Subsidy" in cities[0]["name"], cities
            if command.name == "bid" and state.round_label().startswith("Stock"):
                offered = await table.choices(user, "bid", "company")
                assert any(c["value"] == command.options["company"] and "from $100" in c["name"] for c in offered)
            message = table.public()[-1]
            run_button = next((b for b in message.custom_ids() if RUN_BUTTON.fullmatch(b)), None)
            if command.name == "run" and run_button is not None:  # the proposal's button
                assert "Proposed runs for" in message.content
                reply = await table.click(user, message, run_button)
            elif command.name == "run":  # no run to propose: the trains run for nothing
                command = Command("run none")
                reply = await table.slash(user, "run", routes="none")
            else:
                reply = await table.slash(user, command.name, **command.options)
            assert not reply.ephemeral, (command, reply.content)
            seen.add(command.name + ("" if command.name != "dividend" else ":" + command.options["kind"]))
            replies.append(reply)
            after = table.state()
            assert set(pinged(reply)) <= {table.users[p.name].id for p in after.acting_players()} | {
                table.users[p.name].id for p in after.players}
        assert {"bid", "token", "contribute", "loan", "lay", "train", "run", "dividend:payout"} <= seen, seen
        state = table.state()
        assert state.loans.outstanding() >= 2
        assert any(c.trains for c in state.corporations.values())
        # The bot's pictures of this game are 18USA's: the map after a lay, the market and table.
        laid = next(r for r in replies if r.content and "lays" in r.content)
        assert "map.png" in pngs(laid)
        status = await table.slash(alice, "game", "status")
        assert "Loans of $100" in status.content and "Set 1 of rounds" in status.content
