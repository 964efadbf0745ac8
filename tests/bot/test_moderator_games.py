"""The Moderator over whole games: restart, export and import, run proposals, pictures and
final scores, on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import actor, open_moderator, play_opening, started_game

# The optimizer and the pictures are our own code: a broken import must fail these tests, not
# skip them (the bot itself would go on without them, quietly).
import engine.router  # noqa: F401
import render.from_engine  # noqa: F401
from bot import pictures
from bot.model import Actor, Command
from bot.moderator import Moderator
from engine import EXPORT_KEY
from engine.log import title_class
from storage import SqliteGameRepository

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
PNG = b"\x89PNG\r\n\x1a\n"


def fixture(upto: int | None = None) -> dict:
    document = json.loads(FIXTURE.read_text())
    if upto is not None:
        document["actions"] = document["actions"][:upto]
        document.pop("result", None)
    return document


async def test_a_restarted_moderator_continues_the_game(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    game_id = await started_game(moderator)
    await play_opening(moderator, game_id)
    before = (await moderator.status(game_id)).text
    await repo.close()

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        assert (await moderator.status(game_id)).text == before
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        president = session.game.state.acting_players()[0].name
        reply = await moderator.perform(game_id, actor(president), Command("pass"))
        assert reply.ok and "passes" in reply.text
    finally:
        await repo.close()


async def test_export_and_import_round_trip(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        await play_opening(moderator, game_id)
        exported = await moderator.export(game_id)
        document = exported.document
        assert document is not None and exported.pictures[0].name.endswith(".json")
        assert document["settings"]["optional_rules"] == [] and document["stationmaster"]["rule_options"] == []
        assert [a["id"] for a in document["actions"]] == list(range(1, len(document["actions"]) + 1))
        imported = await moderator.import_game(actor("Alice"), json.dumps(document))
        assert imported.ok, imported.text
        assert imported.game_id != game_id
        original = await moderator.sessions.get(game_id)
        copy = await moderator.sessions.get(imported.game_id)
        assert copy.loaded.game.options == original.loaded.game.options == ()
        assert original.game is not None and copy.game is not None
        assert copy.game.state.log == original.game.state.log
        assert copy.game.result() == original.game.result()
        refused = await moderator.import_game(actor("Alice"), b'{"title": "1830"}')
        assert not refused.ok and "Import refused" in refused.text
    finally:
        await repo.close()


async def test_a_finished_import_shows_final_scores_and_exports_its_result(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "table", True), FIXTURE.read_bytes())
        assert imported.ok and "finished" in imported.text
        status = await moderator.status(imported.game_id)
        assert "The game is over (bank). Final scores:\n1. Player 1 $5498\n2. Player 3 $5029" in status.text
        exported = await moderator.export(imported.game_id)
        assert exported.document["result"] == fixture()["result"]
        late = await moderator.perform(imported.game_id, Actor(None, "Player 1"), Command("pass"))
        assert not late.ok and "over" in late.text
    finally:
        await repo.close()


async def test_the_run_step_gets_a_proposal_and_run_confirms_it(tmp_path: Path) -> None:
    assert pictures.ROUTER
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "table", True), json.dumps(fixture(44)))
        game_id = imported.game_id
        president = Actor(None, "Player 3")  # terminal-style: seats matched by name
        laid = await moderator.perform(game_id, president, Command("lay", {"hex": "J7", "tile": "8", "rotation": 1}))
        assert laid.ok, laid.text
        assert "SP: run trains (/run)" in laid.text
        assert "Proposed runs for SP: 2-2: I14-I12-I10-I8-J7-J5 — 2-2 $60, total $60" in laid.text
        # The proposal's runs are the words /run routes: takes: a copy of them runs them.
        copied = laid.text.split("Proposed runs for SP: ", 1)[1].split(" — ", 1)[0]
        twice = await moderator.perform(game_id, president, Command("run", {"routes": f"{copied}; {copied}"}))
        assert not twice.ok and ("the runs name the train 2-2 twice and SP has only one: each train runs once "
                                 "(its trains: 2-2)") in twice.text, twice.text
        assert [b.verb for b in laid.buttons] == ["run:60"]
        ran = await moderator.perform(game_id, president, Command("run", {"routes": copied}))
        assert ran.ok and "SP runs for $60" in ran.text
        assert {b.verb for b in ran.buttons} == {"dividend:payout", "dividend:half", "dividend:withhold"}
        stored = (await repo.list_actions(game_id))[-1].action
        assert stored["routes"][0]["revenue"] == 60 and stored["routes"][0]["hexes"] == ["I14", "J5"]
        typed = await moderator.perform(game_id, president, Command("dividend", {"kind": "payout"}))
        assert typed.ok and "SP pays $60" in typed.text
        # What each holder and the treasury received, and the share price (issue 9, dividends).
        assert "SP pays $6 a share: Player 3 $24, Player 4 $6, the SP treasury $30; share price stays $75." \
            in typed.text
    finally:
        await repo.close()


async def test_runs_below_the_most_are_refused_with_the_way_to_run_the_proposal(tmp_path: Path) -> None:
    """The printed rule 12.4 (no `site_any_runs`): SP's 2-train can earn $60, so running nothing
    is refused, naming the best runs and how to run them; nothing is stored."""
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        document = fixture(44)
        site = [name for name in title_class("18Texas").RULE_OPTIONS if name.startswith("site_")]
        document[EXPORT_KEY] = {"rule_options": [name for name in site if name != "site_any_runs"]}
        imported = await moderator.import_game(Actor(None, "table", True), json.dumps(document))
        game_id = imported.game_id
        president = Actor(None, "Player 3")
        laid = await moderator.perform(game_id, president, Command("lay", {"hex": "J7", "tile": "8", "rotation": 1}))
        assert laid.ok, laid.text
        before = await repo.last_seq(game_id)
        refused = await moderator.perform(game_id, president, Command("run", {"routes": "none"}))
        assert not refused.ok
        assert ("That move is not allowed: SP's runs earn $0, but its trains can earn $60, no more (2-2: I14-J5 "
                "$60); a company must run for its highest earnings (12.4).\nTo run for $60: /run with no routes "
                "runs the proposed runs (or press “Run for $60” under the last move).") in refused.text
        assert await repo.last_seq(game_id) == before
        ran = await moderator.perform(game_id, president, Command("run"))
        assert ran.ok and "SP runs for $60" in ran.text
    finally:
        await repo.close()


async def test_runs_typed_by_hand_are_checked_by_the_engine(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "table", True), json.dumps(fixture(45)))
        game_id = imported.game_id
        president = Actor(None, "Player 3")
        before = await repo.last_seq(game_id)
        for routes, message in [
            ("2-2: I14-I12-Q99", "Q99 is not a hex of the map"),
            ("9-9: I14-I12-I10-I8-J7-J5", "SP has no train '9-9' to run; its trains: 2-2"),
            ("2-2: I14-I12-I10", "a run ends at a city, town or off-board area; I10 has none"),
            ("2-2: J15-I14-I12-I10-I8-J7-J5", "That move is not allowed: a 2-train may visit at most 2 stops"),
        ]:
            reply = await moderator.perform(game_id, president, Command("run", {"routes": routes}))
            assert not reply.ok and message in reply.text, reply.text
        assert await repo.last_seq(game_id) == before
        ok = await moderator.perform(game_id, president, Command("run", {"routes": "2: I14-I12-I10-I8-J7-J5"}))
        assert ok.ok and "SP runs for $60" in ok.text
    finally:
        await repo.close()


async def test_pictures_are_png_and_map_and_market_only_when_they_changed(tmp_path: Path) -> None:
    assert pictures.RENDER
    repo = await SqliteGameRepository.open(tmp_path / "games.db")
    moderator = Moderator(repo, images=True, router_budget=0.5)
    try:
        game_id = await started_game(moderator)
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        first = await moderator.perform(game_id, actor(player), Command("bid", {"company": "GRRRC", "price": 80}))
        assert [p.name for p in first.pictures] == ["map.png", "market.png", "table.png"]
        assert all(p.data.startswith(PNG) for p in first.pictures)
        player = session.game.state.acting_players()[0].name
        second = await moderator.perform(game_id, actor(player), Command("bid", {"company": "JG", "price": 200}))
        assert [p.name for p in second.pictures] == ["table.png"]  # a bid moves neither map nor market
        shown = await moderator.pictures(game_id, ("market",))
        assert [p.name for p in shown.pictures] == ["market.png"] and shown.pictures[0].data.startswith(PNG)
    finally:
        await repo.close()


async def test_a_raw_action_cannot_declare_extra_revenue(tmp_path: Path) -> None:
    """Issue 9 item 5: refused with a reason, not silently dropped; without it the run is made
    (issue 31: a figure equal to the engine's, 0, is taken)."""
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "table", True), json.dumps(fixture(45)))
        run = {"type": "run_routes", "entity": "SP", "entity_type": "corporation", "extra_revenue": 5000,
               "routes": [{"train": "2-2", "connections": [["I14", "I12", "I10", "I8", "J7", "J5"]]}]}
        before = len(await repo.list_actions(imported.game_id))
        refused = await moderator.perform(imported.game_id, Actor(None, "Player 3"),
                                          Command("action", {"json": json.dumps(run)}))
        assert not refused.ok and "extra_revenue is 5000, but the engine works out 0 for SP's run now" in refused.text
        assert len(await repo.list_actions(imported.game_id)) == before
        del run["extra_revenue"]
        reply = await moderator.perform(imported.game_id, Actor(None, "Player 3"),
                                        Command("action", {"json": json.dumps(run)}))
        assert reply.ok and "SP runs for $60" in reply.text
    finally:
        await repo.close()


async def test_undo_in_an_imported_game_replays_it_as_imported(tmp_path: Path) -> None:
    """After id 386 (a run the log values at $230, our engine at $240) an undo must still
    replay the log as an import does, trusting its recorded revenue."""
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        document = fixture()
        upto = next(i for i, a in enumerate(document["actions"]) if a["id"] == 388)
        imported = await moderator.import_game(Actor(None, "table", True), json.dumps(fixture(upto)))
        undone = await moderator.finish(await moderator.undo(imported.game_id, Actor(None, "table", True)))
        assert undone.ok, undone.text
        assert "Undone: MKT chooses payout" in undone.text and "revenue of $230" in undone.text
    finally:
        await repo.close()
