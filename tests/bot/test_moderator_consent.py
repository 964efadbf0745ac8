"""Rule 12.6 consent through the Moderator: a train from a company with another president is
only bought once that president accepts; the offer survives a restart and lapses when the
game moves on. Same-president sales and the site's reading are not asked about."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from bot_helpers import USERS, actor, open_moderator
from offer_helpers import stored_game

from bot.console import Console
from bot.console_parse import parse_line
from bot.model import Command
from bot.moderator import Moderator, plain_mention
from bot.reminders import ReminderService
from storage import SqliteGameRepository

BUY = Command("train", {"train": "2-0"})  # SAA (Alice) asks for T&P's (Carol's) 2-0 at face value


@pytest.fixture
async def setup(tmp_path: Path):
    repo, moderator = await open_moderator(tmp_path / "games.db")
    yield repo, moderator
    await repo.close()


async def position(repo: SqliteGameRepository, moderator: Moderator, game_id: int) -> tuple:
    session = await moderator.sessions.get(game_id)
    assert session.game is not None
    state = session.game.state
    trains = {c.id: [t.id for t in c.trains] for c in state.corporations.values()}
    return await repo.last_seq(game_id), trains, {c.id: c.cash for c in state.corporations.values()}


async def test_a_train_of_another_president_waits_for_consent_even_after_a_restart(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    before = await position(repo, moderator, game_id)
    asked = await moderator.perform(game_id, actor("Alice"), BUY)
    assert asked.ok and not asked.private
    assert asked.text == ("<@1003> — SAA asks to buy your 2-train (2-0) from T&P for $100: accept or decline "
                          "(/game accept or /game decline)")
    assert asked.mentions == (USERS["Carol"],)
    assert [b.verb for b in asked.buttons] == ["accept", "decline"] and asked.seq == before[0]
    assert await position(repo, moderator, game_id) == before  # nothing bought yet

    # A restart keeps the offer; the whose-turn text says the game waits for Carol.
    fresh = Moderator(repo, images=False)
    status = await fresh.status(game_id)
    assert "Waiting for @Carol — SAA asks to buy your 2-train (2-0) from T&P for $100" in status.text
    assert "@Alice — SAA: buy a train" in status.text


async def test_only_the_seller_answers_and_accept_commits_the_buyers_move(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    seq, _, cash = await position(repo, moderator, game_id)
    await moderator.perform(game_id, actor("Alice"), BUY)
    for name in ("Alice", "Bob"):
        refused = await moderator.accept(game_id, actor(name))
        assert not refused.committed and refused.reply.private
        assert "Only Carol, whose train it is, answers this offer" in refused.reply.text
    outcome = await moderator.accept(game_id, actor("Carol"))
    assert outcome.committed, outcome.reply.text
    reply = await moderator.finish(outcome)
    assert reply.text.startswith("Carol accepts.\nSAA buys a 2-train from T&P for $100")
    after_seq, trains, after_cash = await position(repo, moderator, game_id)
    assert after_seq == seq + 1 and "2-0" in trains["SAA"] and "2-0" not in trains["T&P"]
    assert (after_cash["SAA"], after_cash["T&P"]) == (cash["SAA"] - 100, cash["T&P"] + 100)
    (stored,) = await repo.list_actions(game_id, after_seq=seq)
    assert stored.action["entity"] == "SAA" and stored.actor_user_id == USERS["Alice"]  # the buyer's move
    assert await repo.get_train_offer(game_id) is None
    again = await moderator.accept(game_id, actor("Carol"))
    assert not again.committed and "No train offer is waiting" in again.reply.text


async def test_decline_changes_nothing_and_tells_the_buyer(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    before = await position(repo, moderator, game_id)
    await moderator.perform(game_id, actor("Alice"), BUY)
    outcome = await moderator.decline(game_id, actor("Carol"))
    reply = await moderator.finish(outcome)
    assert reply.ok and not reply.private and not outcome.committed
    assert reply.text.startswith("<@1001> — Carol declines to sell the 2-train; SAA may buy another train or pass.")
    assert reply.mentions == (USERS["Alice"],)
    assert await position(repo, moderator, game_id) == before
    assert await repo.get_train_offer(game_id) is None
    assert "Waiting for" not in (await moderator.status(game_id)).text
    # The buyer goes elsewhere: the bank's next train.
    bought = await moderator.perform(game_id, actor("Alice"), Command("train", {"train": "2"}))
    assert bought.ok and "SAA buys a 2-train for $100" in bought.text


async def test_an_offer_lapses_when_the_game_moves_on(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    asked = await moderator.perform(game_id, actor("Alice"), BUY)
    stale_seq = asked.seq
    assert (await moderator.perform(game_id, actor("Alice"), Command("train", {"train": "2"}))).ok
    before = await position(repo, moderator, game_id)
    for expected in (None, stale_seq):
        refused = await moderator.accept(game_id, actor("Carol"), expected_seq=expected)
        assert not refused.committed and refused.reply.private
    assert "earlier position" in refused.reply.text
    assert await position(repo, moderator, game_id) == before
    assert "Waiting for" not in (await moderator.status(game_id)).text


async def test_a_raw_purchase_asks_too(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    raw = json.dumps({"type": "buy_train", "entity": "SAA", "entity_type": "corporation", "train": "2-0",
                      "price": 100})
    asked = await moderator.perform(game_id, actor("Alice"), Command("action", {"json": raw}))
    assert asked.ok and "asks to buy your 2-train (2-0)" in asked.text
    wrong = json.dumps({"type": "buy_train", "entity": "SAA", "entity_type": "corporation", "train": "2-0",
                        "price": 50})
    refused = await moderator.perform(game_id, actor("Alice"), Command("action", {"json": wrong}))
    assert not refused.ok and "face value" in refused.text  # no offer for a purchase the engine refuses


async def test_same_president_and_site_prices_buy_at_once(setup) -> None:
    repo, moderator = setup
    same = await stored_game(repo, "same")
    session = await moderator.sessions.get(same)
    assert session.game is not None
    move = next(m for m in session.game.legal_moves() if m["type"] == "buy_train")
    choice = next(c for c in move["choices"] if "min_price" in c)
    president = session.game.state.corporations[move["entity"]].president()
    assert president is not None
    bought = await moderator.perform(same, actor(president.name), Command("train", {"train": choice["train"],
                                                                                     "price": 1}))
    assert bought.ok and f"buys a 2-train from {choice['from']} for $1" in bought.text

    site = await stored_game(repo, "consent", options=("site_train_prices",))
    bought = await moderator.perform(site, actor("Alice"), Command("train", {"train": "2-0", "price": 50}))
    assert bought.ok and "SAA buys a 2-train from T&P for $50" in bought.text
    assert await repo.get_train_offer(site) is None


async def test_the_terminal_uses_the_same_words(setup) -> None:
    repo, _ = setup
    assert parse_line("@Bob /game accept") == ("Bob", Command("game accept"))
    moderator = Moderator(repo, images=False, mention=plain_mention, router_budget=0.5)
    game_id = await stored_game(repo, "consent")
    output = io.StringIO()
    console = Console(moderator, game_id, None, output)
    for line in ("@Alice /train train:2-0", "@Bob /game accept", "@Carol /game accept"):
        await console.line(line)
    text = output.getvalue()
    assert "@Carol — SAA asks to buy your 2-train (2-0) from T&P for $100: accept or decline" in text
    assert "error: Only Carol, whose train it is, answers this offer." in text
    assert "Carol accepts.\nSAA buys a 2-train from T&P for $100" in text


async def test_reminders_go_to_the_seller_while_an_offer_waits(setup) -> None:
    repo, moderator = setup
    game_id = await stored_game(repo, "consent")
    reminders = ReminderService(moderator, send=None)  # type: ignore[arg-type]  # due() sends nothing
    assert [seat.display_name for _, seat in await reminders.due(game_id)] == ["Alice"]
    await moderator.perform(game_id, actor("Alice"), BUY)
    assert [seat.display_name for _, seat in await reminders.due(game_id)] == ["Carol"]
    await moderator.decline(game_id, actor("Carol"))
    assert [seat.display_name for _, seat in await reminders.due(game_id)] == ["Alice"]
