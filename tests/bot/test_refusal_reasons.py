"""A refused command says what was wrong and what is allowed, on real positions of 109372
(18USA), even where the command's options do not make a whole action.

Before: "/lay is not possible now." (an auction, before action 0); "/buy is not possible now:
name the certificates as a list of share ids" (the engine's complaint about an action the bot
made without its shares); "/buy is not possible now." (Player 2 in Stock Round 1 before action
84, with no company started: the step takes buys but none is offered).
"""

from __future__ import annotations

from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.dispatch import handle
from bot.model import Actor, Command

USA = next(path for path in USA_LOGS if path.stem == "109372")
PLAYER_1, PLAYER_2 = Actor(user_id=None, name="Player 1"), Actor(user_id=None, name="Player 2")


def refusal(text: str) -> str:
    return text.split("\nNow:")[0]


async def test_a_word_whose_action_the_bot_cannot_make_hears_what_the_round_waits_for(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "reasons.db")
    try:
        game = await imported(moderator, USA, 0)
        lay = await handle(moderator, game, PLAYER_1, Command("lay", {"hex": "E11", "tile": "57", "rotation": 2}))
        assert not lay.ok and refusal(lay.text) == (
            "/lay is not possible now: Player 1 is to auction private companies; what you can do now: /bid, /pass."
        ), lay.text
        buy = await handle(moderator, game, PLAYER_1, Command("buy", {"corporation": "NYC"}))
        assert not buy.ok and refusal(buy.text) == (
            "/buy is not possible now: Player 1 is to auction private companies; what you can do now: /bid, /pass."
        ), buy.text
        loan = await handle(moderator, game, PLAYER_1, Command("loan", {}))
        assert not loan.ok and refusal(loan.text) == (
            "/loan is not possible now: Player 1 is to auction private companies; what you can do now: /bid, /pass."
        ), loan.text
        assert await repo.last_seq(game) == 0
    finally:
        await repo.close()


async def test_a_word_the_step_takes_but_offers_nothing_for_says_so(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "nothing.db")
    try:
        game = await imported(moderator, USA, 84)
        buy = await handle(moderator, game, PLAYER_2, Command("buy", {"corporation": "NYC"}))
        assert not buy.ok and refusal(buy.text) == (
            "/buy is not possible now: there is nothing you can /buy now; what you can do now: /bid, /pass."
        ), buy.text
        assert await repo.last_seq(game) == 84
    finally:
        await repo.close()


async def test_a_company_not_started_is_started_in_18usa_by_a_bid(tmp_path: Path) -> None:
    """18USA has no /par: a company starts by a bid for its president's certificate (11.6).
    Before: '/short is not possible now: GN has not been started.'"""
    repo, moderator = await open_moderator(tmp_path / "start.db")
    try:
        game = await imported(moderator, USA, 84)
        short = await handle(moderator, game, PLAYER_2, Command("short", {"corporation": "GN"}))
        assert not short.ok and refusal(short.text) == (
            "/short is not possible now: GN has not been started; start it with /bid (a bid for its president's "
            "certificate in a stock round, which opens an auction)."), short.text
        assert await repo.last_seq(game) == 84
    finally:
        await repo.close()


async def test_a_tile_that_does_not_fit_hears_the_tiles_that_do_with_their_rotations(tmp_path: Path) -> None:
    """Before action 175 MKT (Player 3) lays track. Before: 'tile 57 cannot be laid on E25; tiles
    that fit: 7, 7coal, 8, 8coal, 9, 9coal' (no rotations) and 'tile 8 fits on E25 only as ...;
    not rotation 2'."""
    repo, moderator = await open_moderator(tmp_path / "lay.db")
    try:
        game = await imported(moderator, USA, 175)
        player_3 = Actor(user_id=None, name="Player 3")
        tile = await handle(moderator, game, player_3, Command("lay", {"hex": "E25", "tile": "57", "rotation": 2}))
        assert not tile.ok and refusal(tile.text) == (
            "tile 57 does not fit E25; tiles that fit E25: 7 (rotations 0, 1), 7coal (rotations 0, 1), "
            "8 (rotations 1, 5), 8coal (rotations 1, 5), 9 (rotations 1, 4), 9coal (rotations 1, 4)."), tile.text
        rotation = await handle(moderator, game, player_3, Command("lay", {"hex": "E25", "tile": "8", "rotation": 2}))
        assert not rotation.ok and refusal(rotation.text) == (
            "tile 8 does not fit E25 in rotation 2; it fits E25 as rotation 1: track to E23 and D26; "
            "rotation 5: track to E23 and F26."), rotation.text
        # Typed at the console, where options may be left out: which one, and what it can be.
        no_tile = await handle(moderator, game, player_3, Command("lay", {"hex": "D24"}))
        assert not no_tile.ok and refusal(no_tile.text) == (
            "/lay needs a tile (tile:); tiles that fit D24: 5 (rotations 0, 5), 6 (rotation 4)."), no_tile.text
        no_rotation = await handle(moderator, game, player_3, Command("lay", {"hex": "D24", "tile": "5"}))
        assert not no_rotation.ok and refusal(no_rotation.text) == (
            "tile 5 needs a rotation (rotation:); it fits D24 as rotation 0: track to E23 and D22; "
            "rotation 5: track to E23 and E25."), no_rotation.text
        assert await repo.last_seq(game) == 175
    finally:
        await repo.close()


async def test_a_wrong_dividend_train_or_source_is_named_with_what_is_allowed(tmp_path: Path) -> None:
    """Before 350 SR (Player 2) pays dividends; before 567 N&W (Player 3) must discard a train;
    before 609 Player 2 may buy PRR from its treasury only. Before: 'the dividend is one of
    payout, half, withhold', 'N&W can discard 3-1, ...', 'no share of PRR can be bought from
    the pool now', 'from: is treasury or pool'."""
    repo, moderator = await open_moderator(tmp_path / "wrong.db")
    try:
        player_3 = Actor(user_id=None, name="Player 3")
        game = await imported(moderator, USA, 350)
        dividend = await handle(moderator, game, PLAYER_2, Command("dividend", {"kind": "all"}))
        assert not dividend.ok and refusal(dividend.text) == (
            "kind:all is not a dividend SR may pay now; kind can be payout, half, withhold."), dividend.text
        game = await imported(moderator, USA, 567)
        discard = await handle(moderator, game, player_3, Command("discard", {"train": "4"}))
        assert not discard.ok and refusal(discard.text) == (
            "N&W has no train 4 to discard; it can discard 3-1, 2-12, 2-15, 2-16, 2-8, 2-9, 2+-3."), discard.text
        game = await imported(moderator, USA, 609)
        pool = await handle(moderator, game, PLAYER_2, Command("buy", {"corporation": "PRR", "from": "pool"}))
        assert not pool.ok and refusal(pool.text) == (
            "no share of PRR can be bought from the pool now; a share of PRR can be bought from the treasury "
            "($150)."), pool.text
        attic = await handle(moderator, game, PLAYER_2, Command("buy", {"corporation": "PRR", "from": "attic"}))
        assert not attic.ok and refusal(attic.text) == (
            "from:attic is neither treasury nor pool; from: can be treasury or pool."), attic.text
        assert await repo.last_seq(game) == 609
    finally:
        await repo.close()


TEXAS_S201 = Path(__file__).resolve().parents[1] / "data" / "generated" / "18Texas" / "randplay_18Texas_4p_s201.json"
USA_S8604 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8604")


async def test_what_must_come_first_is_named_by_its_word(tmp_path: Path) -> None:
    """Before 291 of s201 SAA (P3) is over its train limit; before 345 MP (P4) must buy a 6-train
    its president cannot pay for; before 126 of 109372 MKT's home station is not placed yet;
    before 1044 of s8604 MKT (P2) has too many stations. Before: 'must first discard a train',
    'sell shares first (or declare bankruptcy)', 'must be placed first (11.6)', 'must first
    remove one (14.3)': what to do, not what to type."""
    repo, moderator = await open_moderator(tmp_path / "first.db")
    try:
        async def said(log: Path, actions: int, name: str, command: Command) -> str:
            game = await imported(moderator, log, actions)
            reply = await handle(moderator, game, Actor(user_id=None, name=name), command)
            assert not reply.ok and await repo.last_seq(game) == actions
            return refusal(reply.text)

        assert await said(TEXAS_S201, 291, "P3", Command("train", {"train": "6", "price": 600})) == (
            "/train is not possible now: SAA is over its train limit and must first discard a train with /discard.")
        assert await said(TEXAS_S201, 345, "P4", Command("train", {"train": "6-0", "price": 600})) == (
            "/train is not possible now: the president must add $290 but has $288; sell shares first with /sell "
            "(or declare bankruptcy with /bankrupt).")
        assert await said(USA, 126, "Player 3", Command("train", {"train": "2", "price": 100})) == (
            "/train is not possible now: MKT's home station must be placed first with /token (11.6).")
        assert (await said(USA_S8604, 1044, "P2", Command("dividend", {"kind": "payout"}))).endswith(
            "MKT has too many stations on the map and must first remove one with /remove (14.3).")
    finally:
        await repo.close()


async def test_a_train_without_its_price_is_not_refused_for_the_price(tmp_path: Path) -> None:
    """Before 345 of s201 P4 must sell shares for MP's 6-train. Before: '/train is not possible
    now: a train purchase needs a price' (the engine's complaint about the action the bot tried
    without the price it would have filled in)."""
    repo, moderator = await open_moderator(tmp_path / "price.db")
    try:
        game = await imported(moderator, TEXAS_S201, 345)
        reply = await handle(moderator, game, Actor(user_id=None, name="P4"), Command("train", {"train": "6"}))
        assert not reply.ok and refusal(reply.text) == (
            "/train is not possible now: there is nothing you can /train now; what you can do now: /sell."), reply.text
    finally:
        await repo.close()


async def test_a_bid_without_a_price_hears_the_range(tmp_path: Path) -> None:
    """Before action 0 of 109372 Player 1 opens the private auction. Before: 'give the bid as a
    whole number of dollars, e.g. price:45' (P1's lowest bid is $15)."""
    repo, moderator = await open_moderator(tmp_path / "bid.db")
    try:
        game = await imported(moderator, USA, 0)
        bid = await handle(moderator, game, PLAYER_1, Command("bid", {"company": "P1"}))
        state = (await moderator.sessions.get(game)).game.state  # type: ignore[union-attr]
        cash = state.players[0].cash
        assert not bid.ok and refusal(bid.text) == (
            f"give your bid for P1 as a whole number of dollars (price:), from $15 to ${cash} in steps of $5."), \
            bid.text
        assert await repo.last_seq(game) == 0
    finally:
        await repo.close()
