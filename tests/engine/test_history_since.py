"""Coming back to a game, checked on the whole 18USA game 109372: the digest of what happened
between two moves of a player (every action in between, the player's cash change as the
positions say), moments named in players' words, and the story's numbers.

The log is replayed twice, once for the history and once independently with the plain engine
(recording each position's cash and prices), and both are reused by every test here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.rng import seed_from_game
from engine.describe import log_by_action
from engine.errors import GameError
from engine.history import CHECKPOINT_EVERY, History
from engine.log import document_options, effective_actions, load_game, new_game
from engine.moments import resolve, rounds, short_title, suggestions
from engine.since import MORE, since
from engine.story import chart
from render.cli import truncate_log
from render.from_engine import table_view

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18USA" / "109372.json"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def _setup(document: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int, list[str]]:
    seed = seed_from_game(document["settings"].get("seed"), document.get("id"))
    return document["title"], document["players"], seed, document_options(document)


@pytest.fixture(scope="module")
def history(document: dict[str, Any]) -> History:
    return History.replay(*_setup(document), document["actions"])


@pytest.fixture(scope="module")
def positions(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The plain engine's replay: players' cash and share prices after each effective action
    (index 0: before any)."""
    title, players, seed, options = _setup(document)
    state = new_game(title, players, seed, options).state
    state.importing = True

    def facts() -> dict[str, Any]:
        return {"cash": {player.key: player.cash for player in state.players},
                "prices": {corp.id: state.share_price(corp) for corp in state.corporations.values()
                           if corp.id in state.market.position}}

    out = [facts()]
    for action in effective_actions(document["actions"]):
        state.apply(action)
        out.append(facts())
    return out


@pytest.fixture(scope="module")
def lines_by_action(document: dict[str, Any]) -> list[list[str]]:
    """The log lines each effective action wrote (its auto actions' too), by the describe
    module's own replay."""
    title, players, seed, options = _setup(document)
    _, parts = log_by_action(title, players, seed, options, document["actions"])
    kept = {id(action) for action in effective_actions(document["actions"])}
    out: list[list[str]] = []
    for part, lines in parts:
        if id(part) in kept:
            out.append([])
        out[-1] += lines
    return out


def test_the_history_records_every_action_and_ends_as_the_game_did(history: History,
                                                                  document: dict[str, Any]) -> None:
    assert len(history.entries) == len(effective_actions(document["actions"]))
    assert history.state.finished
    assert history.state.result() == {str(key): value for key, value in document["result"].items()}


def test_every_digest_between_two_moves_of_a_player_lists_every_action_between_and_the_cash_change(
        history: History, positions: list[dict[str, Any]], lines_by_action: list[list[str]]) -> None:
    rounds_seen = {entry.after.round for entry in history.entries}
    pairs = 0
    for player in history.names:
        moves = [entry.index for entry in history.entries if entry.decider == player and entry.is_move]
        assert len(moves) > 50
        for first, second in zip(moves, moves[1:], strict=False):
            digest = since(history, player, upto=second)
            between = history.entries[first + 1:second]
            assert digest.action_ids == [entry.action_id for entry in between]
            assert digest.last_move == history.entries[first].action_id
            # positions[n] is after n actions: after the first move, and just before the second.
            cash_then, cash_now = positions[first + 1]["cash"][player], positions[second]["cash"][player]
            assert digest.cash_change == cash_now - cash_then
            for happening in digest.happenings:
                words = " | ".join(happening.words)
                for line in lines_by_action[happening.index]:
                    if line in rounds_seen or line.endswith(" operates"):
                        continue
                    # The line itself, or without its actor's name in front.
                    assert any(word and line.endswith(word) for word in happening.words), (happening, line)
                before, after = positions[happening.index]["prices"], positions[happening.index + 1]["prices"]
                for corp, price in after.items():
                    if corp in before and before[corp] != price:
                        assert f"{corp} share price ${before[corp]} → ${price}" in words
            text = digest.text(limit=900)
            assert len(text) <= 900
            if len(between) > 0 and not text.endswith("`/game log`"):
                assert all(str(happening.actor) in text for happening in digest.happenings)
            pairs += 1
    assert pairs > 1000


def test_a_digest_cut_to_the_limit_counts_what_it_left_out(history: History) -> None:
    # The longest wait of any player between two of their moves.
    digest = max((since(history, player, upto=entry.index) for player in history.names
                  for entry in history.entries if entry.decider == player),
                 key=lambda digest: len(digest.happenings))
    assert len(digest.happenings) > 20
    first = digest.text(limit=400)
    assert len(first) <= 400
    left = int(first.rsplit("… and ", 1)[1].split(" ")[0])
    shown = len(digest.happenings) - left
    assert 0 < shown < len(digest.happenings)
    assert first.endswith(MORE.format(count=left))
    assert digest.text(limit=100_000).count("\n•") >= 1


def test_the_summary_says_the_players_cash_and_holdings_change(history: History) -> None:
    # Player 1's shares change between two of their moves somewhere in the game.
    player = "605"
    moves = [entry.index for entry in history.entries if entry.decider == player]
    changed = []
    for first, second in zip(moves, moves[1:], strict=False):
        before = history.entries[first].after.holdings[player]
        after = history.entries[second - 1].after.holdings[player]
        if before != after:
            changed.append((since(history, player, upto=second), before, after))
    assert changed
    digest, before, after = changed[0]
    corp = next(corp for corp in {**before, **after} if before.get(corp, 0) != after.get(corp, 0))
    assert f"{corp} {before.get(corp, 0)}% → {after.get(corp, 0)}%".replace("-", "short ") in digest.summary() \
        or f"{corp} " in digest.summary()


def test_moments_in_players_words(history: History, document: dict[str, Any]) -> None:
    moment = resolve(history, "OR 3.2")
    assert history.state_after(moment.count).round_title() == "Operating Round 3.2"
    assert history.state_after(moment.count - 1).round_title() != "Operating Round 3.2"
    assert moment.label.startswith("start of OR 3.2 (after action ")
    assert resolve(history, "start of OR 5").count == resolve(history, "OR 5.1").count
    assert resolve(history, "operating round 5.1").count == resolve(history, "or5.1").count
    end = resolve(history, "end of OR 3.2")
    assert history.state_after(end.count).round_title() != "Operating Round 3.2"
    assert history.state_after(end.count - 1).round_title() == "Operating Round 3.2"
    assert resolve(history, "SR 4").label.startswith("start of SR 4")
    last = resolve(history, "my last move", "605")
    assert history.entries[last.count - 1].decider == "605"
    assert all(entry.decider != "605" for entry in history.entries[last.count:])
    for wrong, said in (("XR 9", "no round 'XR 9'"), ("99999", "numbered 1 to"), ("", "name a moment")):
        with pytest.raises(GameError, match=said):
            resolve(history, wrong)
    assert suggestions(history, "or 3") == ["OR 3.2", "OR 3.1"]
    assert suggestions(history)[0] == "my last move"
    assert [short_title(title) for title, _ in rounds(history)][:4] == ["Auction", "SR 1", "OR 1.1", "MR 1.1"]


@pytest.mark.parametrize("action_id", [57, CHECKPOINT_EVERY + 13, 748])
def test_a_position_of_the_past_is_the_log_cut_there(history: History, document: dict[str, Any],
                                                      action_id: int) -> None:
    moment = resolve(history, str(action_id))
    rebuilt = history.state_after(moment.count)
    replayed = load_game(truncate_log(document, action_id)).state
    assert table_view(rebuilt) == table_view(replayed)
    assert rebuilt.round_title() == replayed.round_title()
    assert [(coord, hexstate.tile.name if hexstate.tile else None, hexstate.rotation)
            for coord, hexstate in rebuilt.board.hexes.items()] == \
        [(coord, hexstate.tile.name if hexstate.tile else None, hexstate.rotation)
         for coord, hexstate in replayed.board.hexes.items()]


def test_a_history_grows_with_the_log_and_knows_when_an_undo_changed_it(document: dict[str, Any]) -> None:
    actions = document["actions"][:120]
    history = History.replay(*_setup(document), actions[:60])
    assert history.matches(actions)
    history.extend(actions)
    assert len(history.entries) == len(effective_actions(actions))
    undo = {"type": "undo", "entity": actions[-1]["entity"], "entity_type": "player", "id": 999}
    assert not history.matches([*actions, undo])
    with pytest.raises(GameError, match="replay it again"):
        history.extend([*actions, undo])


def test_the_story_in_numbers(history: History, document: dict[str, Any]) -> None:
    values = chart(history, "values")
    assert values.x_labels[0] == "start" and values.x_labels[-1] == "AR 6.3"
    final = {series.name: series.points[-1] for series in values.series}
    names = {str(player["id"]): player["name"] for player in document["players"]}
    assert final == {names[str(key)]: value for key, value in document["result"].items()}
    prices = chart(history, "prices")
    colors = history.company_colors()
    assert all(series.color == colors[series.name] for series in prices.series)
    assert len(prices.x_labels) == len(values.x_labels)
    revenue = chart(history, "revenue")
    assert revenue.x_labels[0].startswith("OR ")
    # Each company's revenue in an operating round is what its logged runs earned.
    logged: dict[tuple[str, str], int] = {}
    for entry in history.entries:
        if entry.kind == "run_routes":
            action = entry.action
            earned = sum(route["revenue"] for route in action["routes"]) + int(action.get("extra_revenue") or 0)
            logged[(short_title(entry.made_in), str(action["entity"]))] = earned
    shown = {(heading, series.name): point for series in revenue.series
             for heading, point in zip(revenue.x_labels, series.points, strict=True) if point is not None}
    assert shown == logged
    with pytest.raises(ValueError, match="charts: values, prices, revenue"):
        chart(history, "pie")
