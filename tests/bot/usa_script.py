"""Turn an 18USA log into the commands its players would type, with 18USA's words.

Each action becomes the command its decider types (the president for a company, the owner for
a private, the round's current player for a company still being started), as the engine's
`move_decider` says. A private engine replay tracks the position; run revenues are left
out (the moderator works them out itself).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixture_script import _city_hex, live_action
from log_following import follow

from bot.routes_text import format_routes
from engine import load_game, new_game
from engine.automatic import automatic_moves
from engine.core.game import BaseGame
from engine.legal import is_offered, legal_moves, move_decider
from engine.log import document_options, effective_actions

DATA = Path(__file__).resolve().parents[1] / "data"
USA_LOGS = [DATA / "fixtures" / "18USA" / "109372.json", *sorted((DATA / "generated" / "18USA").glob("*.json"))]


def made_by_itself(state: BaseGame, action: dict[str, Any]) -> bool:
    """Whether the bot makes this logged move by itself at this point, so nobody types it: in a
    company's auction a bidder who cannot reach the minimum bid passes (as on the site; the
    generated logs, made by random play without the site's automatic moves, log that pass as the
    player's own)."""
    moves, _ = automatic_moves(state)
    if not moves:
        return False
    first = moves[0]
    return all(str(action.get(key, "player" if key == "entity_type" else None)) == str(value)
               for key, value in first.items())


def decider(state: BaseGame, action: dict[str, Any]) -> str:
    """The name of the player who types the action, as the engine says who decides it."""
    player = move_decider(state, action)
    assert player is not None, action
    return player.name


Typed = tuple[str, dict[str, Any]]  # a command word and its options


def typed_parts(state: BaseGame, action: dict[str, Any]) -> Typed | None:
    """The command (word and options) a player gives for a logged action, or None for the
    actions players do not type (programmed moves, messages)."""
    kind = action["type"]
    company = action.get("entity_type") == "company"
    corp = action.get("entity_type") == "corporation"
    which = {"corporation": action["entity"]} if corp else {}
    private = {"private": action["entity"]} if company else {}
    if kind.startswith("program_") or kind == "message":
        return None
    simple = {"pass": "pass", "take_loan": "loan", "payoff_loan": "repay", "convert": "convert",
              "bankrupt": "bankrupt"}
    if kind in simple:
        return simple[kind], which if kind in ("take_loan", "payoff_loan", "convert") else {}
    if kind == "bid":
        return "bid", {"company": action.get("company") or action.get("corporation"), "price": action["price"]}
    if kind == "place_token":
        return "token", {"city": _city_hex(state, action["city"]), **private}
    if kind == "assign" and company:
        return "use", {"private": action["entity"], "hex": action["target"]}
    if kind == "assign":
        if action.get("target_type") == "company":
            return "contribute", {"company": action["target"]}
        return "offer", {"corporation": action["target"]}
    if kind == "choose":
        return ("attach", {"choice": action["choice"]}) if corp else ("size", {"shares": int(action["choice"])})
    if kind == "lay_tile":
        return "lay", {"hex": action["hex"], "tile": action["tile"].rsplit("-", 1)[0],
                       "rotation": action["rotation"], **private}
    if kind == "run_routes":
        return "run", {"routes": format_routes(action["routes"]) or "none"}
    if kind == "dividend":
        return "dividend", {"kind": action["kind"]}
    if kind == "buy_train":
        owned = next((t for t in state.all_trains() if t.id == action["train"]), None)
        if owned is None:
            return "train", {"train": action["train"].rsplit("-", 1)[0]}
        return "train", {"train": action["train"], "price": action["price"]}
    if kind == "buy_shares" and corp:
        return "redeem", {"count": len(action["shares"]), **which}
    if kind == "buy_shares":
        share_id = action["shares"][0]
        owner = state.corporations[share_id.rsplit("_", 1)[0]]
        share = owner.share_by_id(share_id)
        assert share is not None
        return "buy", {"corporation": owner.id, "from": "treasury" if share.owner is owner else "pool"}
    if kind == "sell_shares":
        return "sell", {"corporation": action["shares"][0].rsplit("_", 1)[0], "percent": action["percent"]}
    if kind in ("short", "merge"):
        return kind, {"corporation": action["corporation"]}
    if kind == "scrap_train":
        return "scrap", {"train": action["train"]}
    if kind == "remove_token":
        return "remove", {"city": action["city"], **_station_owner(state, action)}
    if kind == "discard_train":
        return "discard", {"train": action["train"]}
    raise AssertionError(f"no 18USA command for {kind}")


def _station_owner(state: BaseGame, action: dict[str, Any]) -> dict[str, Any]:
    """owner: for a station removed from a city holding two that may go (whose it is matters)."""
    here = [c for m in legal_moves(state) if m["type"] == "remove_token" for c in m["choices"]
            if c["city"] == action["city"]]
    if len({c["owner"] for c in here}) < 2:
        return {}
    return {"owner": next(str(c["owner"]).strip("()") for c in here if c["slot"] == action.get("slot"))}


def typed_command(state: BaseGame, action: dict[str, Any]) -> str | None:
    """The command as a line of the terminal: `/word option:value ...`."""
    parts = typed_parts(state, action)
    if parts is None:
        return None
    word, options = parts
    return " ".join([f"/{word}", *(f"{name}:{value}" for name, value in options.items())])


def accepted_prefix(path: Path, offered: bool = False, limit: int | None = None) -> list[dict[str, Any]]:
    """The log's effective actions up to the first one the engine refuses (with `offered`, or
    the first its legal moves do not offer: commands are built from those), at most `limit`."""
    document = json.loads(path.read_text())
    game = load_game({**document, "actions": []})
    game.state.importing = True
    kept: list[dict[str, Any]] = []
    for action in effective_actions(document["actions"]):
        if len(kept) == limit or offered and not is_offered(game.state, action):
            break
        try:
            # Without `process`'s safety copy before each action: the walk ends at the first
            # refusal, whatever it left behind.
            game.state.apply(action)
        except Exception:  # noqa: BLE001 - `process` refuses any error, as a GameError
            break
        kept.append(action)
    return kept


def script(path: Path, actions: list[dict[str, Any]]) -> list[str]:
    """The command lines for `actions` (a prefix of the log at `path`), as its players type them."""
    document = json.loads(path.read_text())
    game = new_game("18USA", document["players"], int(document["settings"]["seed"]), document_options(document))
    lines = []
    for action in actions:
        words = None if made_by_itself(game.state, action) else typed_command(game.state, action)
        if words is not None:
            lines.append(f"@{decider(game.state, action)} {words}")
        follow(game, live_action(action))
    return lines
