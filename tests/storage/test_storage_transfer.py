"""Export/import of 18xx.games documents: round trip, and hostile files refused whole."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from pathlib import Path

import pytest
from backends import Backend
from storage_helpers import FIXTURE, minimal_game

from storage import GameRepository, ImportRefused, export_document, import_document
from storage.cli import export_game, import_game
from storage.transfer import DEFAULT_MAX_IMPORT_BYTES, document_seed, refusal_message


async def _db_with_a_game(backend: Backend) -> dict:
    """A database that already holds a game, so "unchanged" is checked on real content."""
    async with await backend.open() as repo:
        game_id = await repo.create_game(*minimal_game())
        await repo.append_action(game_id, 1, {"type": "pass"}, None)
    return await backend.contents()


# -- round trip (needs the engine) ------------------------------------------------------


async def test_import_then_export_gives_the_same_game(
    repo: GameRepository, fixture_doc: dict
) -> None:
    game_id = await import_document(repo, FIXTURE.read_bytes())
    loaded = await repo.load_game(game_id)
    assert loaded.game.status == "finished"
    exported = export_document(loaded)
    assert exported["actions"] == fixture_doc["actions"]
    assert exported["players"] == fixture_doc["players"]
    assert exported["title"] == fixture_doc["title"]
    assert exported["settings"] == {"seed": 65394, "optional_rules": []}
    assert exported["status"] == "finished"
    assert exported["result"] == fixture_doc["result"]
    assert exported["id"] == game_id
    json.dumps(exported)  # a plain JSON document


def test_cli_functions_round_trip(tmp_path: Path, fixture_doc: dict) -> None:
    db = tmp_path / "cli.db"
    game_id = import_game(FIXTURE, db)
    exported = export_game(game_id, db)
    assert exported["actions"] == fixture_doc["actions"]
    assert exported["result"] == fixture_doc["result"]


# -- hostile files refused before the engine is needed ----------------------------------


def _refusals_without_engine(tmp_path: Path) -> dict[str, tuple[bytes, str]]:
    raw = FIXTURE.read_bytes()
    doc = json.loads(raw)
    not_a_list = dict(doc, actions={"type": "pass"})
    no_type = copy.deepcopy(doc)
    del no_type["actions"][5]["type"]
    return {
        "bad JSON": (b'{"title": "18Texas", players: []}', "not valid JSON"),
        "truncated": (raw[: len(raw) // 2], "not valid JSON"),
        "empty": (b"", "not valid JSON"),
        "not an object": (b"[1, 2, 3]", "must be a JSON object"),
        "actions not a list": (json.dumps(not_a_list).encode(), "'actions' must be a list"),
        "action without type": (json.dumps(no_type).encode(), "action 6 must be an object"),
        "players missing": (json.dumps(dict(doc, players=None)).encode(), "'players'"),
        "seed not a number": (json.dumps(dict(doc, settings={"seed": [1]})).encode(), "seed"),
        "not UTF-8": (b'{"title": "\xff"}', "not UTF-8 text"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "bad JSON",
        "truncated",
        "empty",
        "not an object",
        "actions not a list",
        "action without type",
        "players missing",
        "seed not a number",
        "not UTF-8",
    ],
)
async def test_malformed_files_are_refused_and_nothing_is_written(
    tmp_path: Path, backend: Backend, case: str
) -> None:
    raw, message = _refusals_without_engine(tmp_path)[case]
    before = await _db_with_a_game(backend)
    async with await backend.open() as repo:
        with pytest.raises(ImportRefused, match=re.escape(message)):
            await import_document(repo, raw)
    path = tmp_path / "hostile.json"
    path.write_bytes(raw)
    with pytest.raises(ImportRefused, match=re.escape(message)):
        # import_game runs its own event loop (it is called from the sync CLI).
        await asyncio.to_thread(import_game, path, backend.url)
    assert await backend.contents() == before


async def test_file_over_the_size_limit_is_refused_before_parsing(
    tmp_path: Path, backend: Backend
) -> None:
    before = await _db_with_a_game(backend)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:  # valid JSON, only too big: the size alone refuses it
        handle.write(FIXTURE.read_bytes())
        handle.write(b" " * DEFAULT_MAX_IMPORT_BYTES)
    with pytest.raises(ImportRefused, match=f"limit is {DEFAULT_MAX_IMPORT_BYTES} bytes"):
        await asyncio.to_thread(import_game, huge, backend.url)
    with pytest.raises(ImportRefused, match="limit is 1000 bytes"):
        await asyncio.to_thread(import_game, FIXTURE, backend.url, max_bytes=1000)
    async with await backend.open() as repo:
        with pytest.raises(ImportRefused, match="limit"):
            await import_document(repo, b"{" * 2000, max_bytes=1000)  # not even parsed
    assert await backend.contents() == before


# -- hostile files the engine refuses (need the engine) ---------------------------------


async def test_unknown_title_is_refused(backend: Backend, fixture_doc: dict) -> None:
    before = await _db_with_a_game(backend)
    raw = json.dumps(dict(fixture_doc, title="1830")).encode()
    async with await backend.open() as repo:
        with pytest.raises(ImportRefused, match="unknown title '1830'"):
            await import_document(repo, raw)
    assert await backend.contents() == before


def _corrupt(doc: dict, position: int, **changes: object) -> bytes:
    bad = copy.deepcopy(doc)
    bad["actions"][position - 1].update(changes)
    return json.dumps(bad).encode()


@pytest.mark.parametrize(
    ("position", "changes"),
    [
        (2, {"price": 1}),  # the JG bid of 200 lowered to 1
        (None, {"hex": "Z99"}),  # the first tile lay, on a hex the map does not have
    ],
)
async def test_illegal_action_is_refused_naming_its_position(
    backend: Backend, fixture_doc: dict, position: int | None, changes: dict
) -> None:
    if position is None:
        position = next(
            n for n, a in enumerate(fixture_doc["actions"], start=1) if a["type"] == "lay_tile"
        )
    assert fixture_doc["actions"][position - 1].keys() >= changes.keys()
    before = await _db_with_a_game(backend)
    async with await backend.open() as repo:
        with pytest.raises(ImportRefused) as info:
            await import_document(repo, _corrupt(fixture_doc, position, **changes))
    message = str(info.value)
    action_id = fixture_doc["actions"][position - 1]["id"]
    assert message.startswith(f"illegal action at position {position} (id {action_id}"), message
    assert len(message.split(":", 1)[1].strip()) > 5, message  # the engine's reason
    assert await backend.contents() == before


def test_seed_follows_the_18xx_games_rule() -> None:
    assert document_seed({"id": 1, "settings": {"seed": 42}}) == 42
    assert document_seed({"id": 1, "settings": {"seed": "17"}}) == 17
    # missing or empty: the first run of digits in the id
    assert document_seed({"id": "randplay_18Texas_3p_s101", "settings": {}}) == 18
    assert document_seed({"id": 65394, "settings": {"seed": ""}}) == 65394
    assert document_seed({"settings": None}) == 0


def test_refusal_message_uses_file_positions_whatever_the_engine_counts_from() -> None:
    document = {"actions": [{"type": "bid", "id": 1}, {"type": "bid", "id": 5}]}
    for engine_index in (1, 2):  # 0-based or 1-based engine numbering
        error = ValueError(f"action {engine_index} (id 5, bid): too low")
        assert refusal_message(document, error) == (
            "illegal action at position 2 (id 5, bid): too low"
        )
    assert refusal_message(document, ValueError("odd")) == "illegal game log: odd"


async def test_rule_options_survive_export_and_import(repo: GameRepository, fixture_doc: dict) -> None:
    """A site log is stored with the site's readings spelt out; an export carries them in our own
    key (18xx.games' optional_rules keeps only its variants); a game played by the printed rules
    re-imports by the printed rules."""
    site_id = await import_document(repo, FIXTURE.read_bytes())
    site = (await repo.load_game(site_id)).game
    assert site.options and all(option.startswith("site_") for option in site.options)
    exported = export_document(await repo.load_game(site_id))
    assert exported["settings"]["optional_rules"] == []
    assert exported["stationmaster"]["rule_options"] == list(site.options)

    printed = copy.deepcopy(fixture_doc)
    printed["actions"] = printed["actions"][:1]  # the opening bid is legal by both readings
    printed["stationmaster"] = {"rule_options": []}
    printed_id = await import_document(repo, json.dumps(printed))
    assert (await repo.load_game(printed_id)).game.options == ()
    assert export_document(await repo.load_game(printed_id))["stationmaster"] == {"rule_options": []}

    bad_bid = copy.deepcopy(printed)
    bad_bid["actions"][0]["price"] = 82  # fine on the site, not a multiple of $5 by rule 10
    with pytest.raises(ImportRefused, match="multiples of \\$5"):
        await import_document(repo, json.dumps(bad_bid))
