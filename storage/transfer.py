"""Export and import of games as 18xx.games-shaped JSON documents.

Import checks in order of cost (size before parsing, syntax, shape, then a full replay
through the engine) and writes nothing until every check passed; the write is then a single
``create_game`` transaction, so a refused import leaves the database exactly as it was.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from storage.errors import ImportRefused
from storage.import_checks import check_action_times, check_seed, left_out
from storage.limits import MAX_ACTIONS, MAX_IMPORT_BYTES, LimitError, check_names, in_int64
from storage.models import GameSettings, LoadedGame, NewGame, NewSeat
from storage.replay import Engine, default_engine, engine_document
from storage.repository import GameRepository
from untrusted import json_text
from untrusted.quote import quoted

DEFAULT_MAX_IMPORT_BYTES = MAX_IMPORT_BYTES
_ENGINE_ACTION_ERROR = re.compile(r"^action -?\d+ \(id (?P<id>[^,)]+)(?P<rest>.*)$", re.S)


def export_document(loaded: LoadedGame, engine: Engine | None = None) -> dict[str, Any]:
    """The game as 18xx.games writes it; ``result`` (computed by the engine) when finished.

    ``settings.optional_rules`` holds only the site's own variants; the engine's exact
    rule options ride along in a key of its own, so a re-import plays by the same rules.
    A game the engine no longer replays (a rules change, a log edited by hand) is written
    as it is stored, with no ``result``: export is how its log is saved.
    """
    engine = engine or default_engine()
    document = engine_document(loaded)
    try:
        variants, extra_fields = engine.export_settings(loaded.game.title, list(loaded.game.options))
    except engine.GameError:  # a title this engine does not know: the options as stored
        variants, extra_fields = list(loaded.game.options), {}
    document["settings"]["optional_rules"] = variants
    document.update(extra_fields)
    document["status"] = loaded.game.status
    if loaded.game.status == "finished":
        try:
            game = engine.load_game(engine_document(loaded), options=list(loaded.game.options))
        except engine.GameError:
            return document
        document["result"] = game.result()
    return document


def parse_document(raw: bytes | str, max_bytes: int = DEFAULT_MAX_IMPORT_BYTES) -> dict[str, Any]:
    """Size and JSON syntax checks; returns the decoded top-level object."""
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise ImportRefused(f"file is {size} bytes; the limit is {max_bytes} bytes")
    try:
        document = json_text.loads(raw)
    except json_text.UnsafeJSON as exc:
        raise ImportRefused(str(exc)) from None
    if not isinstance(document, dict):
        raise ImportRefused("the document must be a JSON object")
    return document


def check_title(document: dict[str, Any], titles: frozenset[str]) -> None:
    title = document.get("title")
    if not isinstance(title, str) or title not in titles:
        raise ImportRefused(f"unknown title {quoted(title) if isinstance(title, str) else repr(title)}; supported: {', '.join(sorted(titles))}")


def check_shape(document: dict[str, Any]) -> None:
    """The top-level fields import relies on, with messages that say what is wrong.
    (Needs no engine, so these checks run before the engine is even imported.)"""
    if not isinstance(document.get("title"), str):
        raise ImportRefused("'title' must be a string")
    players = document.get("players")
    if not isinstance(players, list) or not players:
        raise ImportRefused("'players' must be a non-empty list")
    seen: set[Any] = set()
    for number, player in enumerate(players, start=1):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise ImportRefused(f"player {number} must be an object with a string 'name'")
        player_id = player.get("id", player["name"])
        if isinstance(player_id, bool) or not isinstance(player_id, int | str):
            raise ImportRefused(f"player {number} has an id that is neither integer nor text")
        if isinstance(player_id, int) and not in_int64(player_id):
            raise ImportRefused(f"player {number} has an id too large to store")
        if player_id in seen:
            raise ImportRefused(f"player {number} repeats the id {player_id!r}")
        seen.add(player_id)
    try:
        check_names(player["name"] for player in players)
    except LimitError as exc:
        raise ImportRefused(str(exc)) from None
    settings = document.get("settings") or {}
    if not isinstance(settings, dict):
        raise ImportRefused("'settings' must be an object")
    seed = settings.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int | str | None):
        raise ImportRefused("'settings.seed' must be an integer")
    if isinstance(seed, int) and not in_int64(seed):
        raise ImportRefused("'settings.seed' is too large to store")
    rules = settings.get("optional_rules") or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise ImportRefused("'settings.optional_rules' must be a list of names")
    actions = document.get("actions")
    if not isinstance(actions, list):
        raise ImportRefused("'actions' must be a list")
    if len(actions) > MAX_ACTIONS:
        raise ImportRefused(f"the log has {len(actions)} actions; a game may have at most {MAX_ACTIONS}")
    for position, action in enumerate(actions, start=1):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ImportRefused(f"action {position} must be an object with a string 'type'")


def document_seed(document: dict[str, Any]) -> int:
    """The game's seed as 18xx.games defines it (shared/reference 18xx-games-actions.md,
    section 1): ``settings.seed``, or if missing or empty the first run of digits in ``id``.
    We store it explicitly so a replay never depends on our own game id."""
    seed = (document.get("settings") or {}).get("seed")
    if isinstance(seed, int):
        return seed
    if isinstance(seed, str) and seed.strip().lstrip("-").isdigit() and len(seed.strip()) <= 19:
        value = int(seed)
        if in_int64(value):
            return value
    match = re.search(r"\d{1,18}", str(document.get("id") or ""))
    return int(match.group()) if match else 0


def refusal_message(document: dict[str, Any], error: Exception) -> str:
    """Name the illegal action by its 1-based position in the file and its id, whatever
    numbering the engine's message uses (it reports ``action <index> (id <id>...): why``)."""
    match = _ENGINE_ACTION_ERROR.match(str(error))
    if match:
        positions = [
            n
            for n, action in enumerate(document["actions"], start=1)
            if str(action.get("id")) == match["id"]
        ]
        if len(positions) == 1:
            return f"illegal action at position {positions[0]} (id {match['id']}{match['rest']}"
    return f"illegal game log: {error}"


async def import_document(
    repo: GameRepository,
    raw: bytes | str,
    *,
    engine: Engine | None = None,
    max_bytes: int = DEFAULT_MAX_IMPORT_BYTES,
    settings: GameSettings | None = None,
    creator_user_id: int | None = None,
    notes: list[str] | None = None,
) -> int:
    """Validate and replay a game document, then store it; return the new game id.

    ``settings`` are the new game's reminder settings (the bot's configured defaults);
    ``creator_user_id`` is who imported it, who may then hand out its seats. What the document
    held that was left out (see ``storage.import_checks``) is added to ``notes``, for the importer."""
    document = parse_document(raw, max_bytes)
    check_shape(document)
    check_seed(document)
    check_action_times(document)
    engine = engine or default_engine()
    check_title(document, engine.TITLES)
    dropped = left_out(document, engine.known_action_fields())
    if notes is not None:
        notes.extend(dropped)
    seed = document_seed(document)
    players = [{"id": p.get("id", p["name"]), "name": p["name"]} for p in document["players"]]
    try:
        # The document says which rules it was played by (a site log: the site's readings).
        options = engine.document_options(document)
        # Replaying a whole game is CPU work: keep it off the event loop (the engine is pure).
        game = await asyncio.to_thread(
            engine.load_game,
            {
                "title": document["title"],
                "players": players,
                "settings": {"seed": seed},
                "actions": document["actions"],
            },
            options=options,
        )
    except (engine.GameError, ValueError) as exc:
        raise ImportRefused(refusal_message(document, exc)) from exc
    except Exception as exc:
        # A hostile log can trip an engine bug; still a refusal, and nothing was written.
        raise ImportRefused(
            f"the engine could not replay this log ({type(exc).__name__}: {exc})"
        ) from exc
    return await repo.create_game(
        NewGame(
            title=document["title"],
            seed=seed,
            options=tuple(options),
            status="finished" if game.finished else "active",
            creator_user_id=creator_user_id,
        ),
        seats=[NewSeat(player_id=p["id"], display_name=p["name"]) for p in players],
        settings=settings,
        actions=[(action, None) for action in document["actions"]],
    )
