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


async def test_the_terminal_lists_choices_and_what_fits_on_a_hex(tmp_path: Path) -> None:
    import io

    from bot_helpers import play_opening

    from bot.console import Console

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        out = io.StringIO()
        console = Console(moderator, game_id, None, out)
        await console.line("/moves")
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        assert f"@{player} /bid company: " in out.getvalue()
        # A move without @Name says to start with one, and nothing is done.
        await console.line("/bid company:GRRRC price:80")
        assert "error: Start a move with the name of the player making it, e.g. @" in out.getvalue()
        # A name that is no player's says who the players are, and nothing is done.
        await console.line("@Zelda /bid company:GRRRC price:80")
        names = ", ".join(f"@{s.display_name}" for s in session.seats)
        assert f"error: No player of this game is called Zelda: the players are {names}." in out.getvalue()
        assert await repo.last_seq(game_id) == 0
        await play_opening(moderator, game_id)
        president = next(p.name for p in (await moderator.sessions.get(game_id)).game.state.acting_players())
        lay = next(m for m in (await moderator.sessions.get(game_id)).game.legal_moves() if m["type"] == "lay_tile")
        coord = lay["choices"][0]["hex"]
        out.seek(0)
        out.truncate(0)
        await console.line(f"@{president} /lay hex:{coord}")
        listed = out.getvalue()
        assert listed.startswith(f"Tiles that fit on {coord}:") and "rotation" in listed and "track to" in listed
        assert "error" not in listed
        # After a move, an interactive terminal shows the next choices.
        console.hints = True
        out.seek(0)
        out.truncate(0)
        tile = lay["choices"][0]["tiles"][0]
        await console.line(f"@{president} /lay hex:{coord} tile:{tile['tile'].split('-')[0]} "
                           f"rotation:{tile['rotations'][0]}")
        assert "Choices (/moves lists them all):" in out.getvalue()
    finally:
        await repo.close()


async def test_game_end_by_the_creator_scores_the_game(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        refused = await moderator.finish(await moderator.end_game(game_id, actor("Dana")))
        assert not refused.ok and "Only the game's creator" in refused.text
        ended = await moderator.finish(await moderator.end_game(game_id, actor("Alice")))
        assert ended.ok and "The game is over (manually ended). Final scores:" in ended.text
        assert (await repo.get_game(game_id)).status == "finished"
        assert (await repo.list_actions(game_id))[-1].action["type"] == "end_game"
        exported = await moderator.export(game_id)
        assert set(exported.document["result"]) == {str(s.player_id) for s in
                                                    (await moderator.sessions.get(game_id)).seats}
    finally:
        await repo.close()


async def test_game_end_by_every_player_agreeing_and_a_move_cancels_it(tmp_path: Path) -> None:
    from bot.model import Command

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator, creator="Dana")  # Dana created it but does not play
        first = await moderator.finish(await moderator.end_game(game_id, actor("Bob")))
        assert first.ok and "Bob agrees to end game" in first.text and "still" in first.text
        assert await repo.last_seq(game_id) == 0
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        bid = next(m for m in legal_moves(session.game.state) if m["type"] == "bid")["choices"][0]
        assert (await moderator.perform(game_id, actor(player), Command("bid", {"company": bid["company"],
                                                                                 "price": bid["min"]}))).ok
        for name in ("Alice", "Bob"):
            waiting = await moderator.finish(await moderator.end_game(game_id, actor(name)))
            assert waiting.ok and "still" in waiting.text, "the move cancelled Bob's first agreement"
        # The raw 18xx.games end_game action is the same command.
        last = await moderator.perform(game_id, actor("Carol"), Command("action", {"json": '{"type": "end_game"}'}))
        assert last.ok and "Final scores" in last.text
        assert (await repo.get_game(game_id)).status == "finished"
    finally:
        await repo.close()


async def test_no_internal_words_reach_players(tmp_path: Path) -> None:
    from bot.replies import describe_action

    issued = {"type": "sell_shares", "entity": "SP", "entity_type": "corporation", "shares": ["SP_4", "SP_5"],
              "percent": 20}
    sold = {"type": "sell_shares", "entity": 7, "shares": ["SP_4", "SP_5"], "percent": 20}
    assert describe_action(issued) == "SP issues 2 share(s)"
    assert describe_action(sold, {"7": "Alice"}) == "Alice sells 20% of SP"
    assert describe_action({"type": "buy_shares", "entity": 7, "shares": ["MP_2"]}, {"7": "Alice"}) == \
        "Alice buys a share of MP"


async def test_a_game_abandoned_before_it_started_offers_no_join(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        created = await moderator.create_game(actor("Alice"), "18Texas", seed=3)
        assert created.buttons
        assert (await moderator.set_game_status(created.game_id, actor("Alice"), "abandoned", confirmed=True)).ok
        status = await moderator.status(created.game_id)
        assert "(abandoned)" in status.text and "never started" in status.text and status.buttons == []
    finally:
        await repo.close()


async def test_game_log_over_the_maximum_says_so(tmp_path: Path) -> None:
    from bot.model import Actor

    fixture = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = (await moderator.import_game(Actor(None, "table", True), fixture.read_bytes())).game_id
        few = await moderator.log_lines(game_id, 5)
        assert few.ok and len(few.text.splitlines()) == 5 and "/game export" not in few.text
        many = await moderator.log_lines(game_id, 500)
        assert many.text.startswith("(The last 60 of ") and "/game export gives the whole game" in many.text
        assert len(many.text.splitlines()) == 61
    finally:
        await repo.close()


def test_a_broken_bank_is_shown_as_broken() -> None:
    import json as _json

    from bot.replies import summary
    from engine import load_game

    document = _json.loads((Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" /
                            "65394.json").read_text())
    state = load_game(document).state
    assert state.finished and state.bank.cash <= 0
    assert "bank broken" in summary(state, [])


def test_a_step_where_only_pass_is_possible_says_why() -> None:
    import json as _json

    from bot.replies import whose_turn
    from engine import load_game

    document = _json.loads((Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" /
                            "65394.json").read_text())
    document["actions"] = document["actions"][:87]  # T&P to lay track, with no legal tile of its own
    state = load_game(document).state
    text, _ = whose_turn(state, legal_moves(state), [], lambda seat: "@x")
    assert "T&P: pass (/pass): there is no legal way to lay track now" in text
    assert "IGN: lay track (/lay)" in text  # the private's power still can


async def test_game_log_names_passes_as_the_live_replies_do(tmp_path: Path) -> None:
    from bot_helpers import play_opening

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        await play_opening(moderator, game_id)
        passes = [a for a in await repo.list_actions(game_id) if a.action["type"] == "pass"]
        assert passes
        log = (await moderator.log_lines(game_id, 60)).text
        session = await moderator.sessions.get(game_id)
        names = {str(s.player_id): s.display_name for s in session.seats}
        last = names[str(passes[-1].action["entity"])]
        assert f"{last} passes" in log
        assert log.count(" passes") >= min(len(passes), 5)
    finally:
        await repo.close()
