"""The legal-moves query: what whoever must act now may do, with the choices for each action.

Each move is a dict: `type` (an 18xx.games action type), `entity` (who acts), optional
`entity_type`, and `choices` (a list of dicts) whose fields name the action's own fields.
"""

from __future__ import annotations

from typing import Any

from engine.core.entities import Company, Corporation
from engine.core.game import BaseGame

INFORMATIONAL = {"price", "cost", "hex", "from", "min_price", "max_price", "min", "max", "step",
                 "corporation", "percent", "rotations", "tiles", "variant"}


def legal_moves(game: BaseGame) -> list[dict[str, Any]]:
    if game.finished:
        return []
    moves = game.round.legal_moves(game)
    for move in moves:
        move.setdefault("entity_type", _entity_type(game, move["entity"]))
    return moves


def _entity_type(game: BaseGame, entity: Any) -> str:
    if isinstance(entity, str) and entity in game.corporations:
        return "corporation"
    if isinstance(entity, str) and entity in game.companies:
        return "company"
    return "player"


def entity_key(game: BaseGame, action: dict[str, Any]) -> tuple[str, str]:
    entity = game.entity(action)
    kind = "corporation" if isinstance(entity, Corporation) else "company" if isinstance(entity, Company) else "player"
    return kind, entity.key


def is_offered(game: BaseGame, action: dict[str, Any]) -> bool:
    """True when `action` is one of the legal moves (ignoring free amounts within their limits)."""
    if action.get("type") in ("message", "end_game") or str(action.get("type", "")).startswith("program_"):
        return True
    try:
        wanted = entity_key(game, action)
    except Exception:
        return False
    for move in legal_moves(game):
        probe = {"entity": move["entity"], "entity_type": move["entity_type"]}
        if move["type"] != action["type"] or entity_key(game, probe) != wanted:
            continue
        choices = move.get("choices")
        if choices is None:
            return True
        if any(_matches(game, choice, action) for choice in choices):
            return True
    return False


def _matches(game: BaseGame, choice: dict[str, Any], action: dict[str, Any]) -> bool:
    kind = action["type"]
    if kind == "lay_tile":
        if choice["hex"] != action.get("hex"):
            return False
        return any(tile["tile"].rsplit("-", 1)[0] == str(action.get("tile")).rsplit("-", 1)[0]
                   and action.get("rotation") in tile["rotations"] for tile in choice["tiles"])
    if kind == "bid":
        price = action.get("price")
        return choice["company"] == action.get("company") and isinstance(price, int) and \
            choice["min"] <= price <= choice["max"] and (price - choice["min"]) % choice["step"] == 0
    if kind == "buy_train":
        if choice["train"] != action.get("train"):
            return False
        if "price" in choice:
            return choice["price"] == action.get("price")
        price = action.get("price")
        return isinstance(price, int) and choice["min_price"] <= price <= choice["max_price"]
    if kind in ("sell_shares", "buy_shares") and "shares" in choice:
        # The same certificates can make different amounts (part of a president's certificate),
        # so the percent must match too when the action gives one.
        percent = action.get("percent", choice.get("percent"))
        return percent == choice.get("percent") and (
            sorted(choice["shares"]) == sorted(action.get("shares") or [])
            or _corp(choice["shares"]) == _corp(action.get("shares") or []))
    if kind == "buy_shares":
        return choice["share"] in (action.get("shares") or []) or (
            choice["corporation"] == _corp(action.get("shares") or []) and choice["from"] == _source(game, action))
    for key, value in choice.items():
        if key in INFORMATIONAL and key != "corporation":
            continue
        if key == "corporation" and kind != "par":
            continue
        if action.get(key) != value:
            return False
    return True


def _corp(share_ids: list[str]) -> str | None:
    names = {share_id.rsplit("_", 1)[0] for share_id in share_ids}
    return names.pop() if len(names) == 1 else None


def _source(game: BaseGame, action: dict[str, Any]) -> str | None:
    """Where the (single) certificate an action buys lies now: "treasury", "pool" or None.

    Any certificate from the offered source matches, as logs may name another share id than the
    one offered; a president's certificate never does (it is bought with par).
    """
    shares = action.get("shares") or []
    corporation = game.corporations.get(_corp(shares) or "")
    if corporation is None or len(shares) != 1:
        return None
    share = corporation.share_by_id(shares[0])
    if share is None or share.president:
        return None
    if share.owner is corporation:
        return "treasury"
    return "pool" if share.owner is game.pool else None
