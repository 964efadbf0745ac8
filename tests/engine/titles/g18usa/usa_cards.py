"""Positions for the 18USA card tests (privates P1-P30, subsidies S1-S16): a logged position
copied for each test, a card handed to a company, a refusal that must change nothing."""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

import pytest
from usa_positions import replayed
from usa_tracecheck import snapshot

from engine.core.entities import Company, Holder
from engine.core.game import BaseGame
from engine.errors import GameError
from engine.legal import is_offered, legal_moves
from engine.titles.g18usa.game import G18USA, SITE_P3_VALUE
from engine.titles.g18usa.phases import SITE_P25_FULL_PRICE
from engine.titles.g18usa.setup import SETUP_OPTIONS

# s12045 (three players) at its first operating round: PRR (home Fargo, B14) at its track step,
# after MKT (I25) and before ATSF (D28), NP (E15), NYC (C3) and GN (G27). The log replays to here
# by the printed rules too.
PRR_TRACK = ("s12045", 107)


# The site's readings of the rules (the deal's aside, which decide what the log's seed deals;
# P3's face value, which the log's auction was bid by and its companies started with; and P25's
# full price, which s12045's MKT paid before PRR_TRACK: a test of P25's printed price switches
# that reading off in its position).
KEPT_READINGS = frozenset(SETUP_OPTIONS) | {SITE_P3_VALUE, SITE_P25_FULL_PRICE}
SITE_READINGS = tuple(option for option in G18USA.RULE_OPTIONS
                      if option.startswith("site_") and option not in KEPT_READINGS)


@cache
def _replayed(log: str, actions: int, site: bool) -> BaseGame:
    return replayed(log, actions, without=() if site else SITE_READINGS)


def position(log: str, actions: int, site: bool = False) -> BaseGame:
    """A fresh copy of the log's game after `actions` actions, played on live (not importing):
    by the printed rules, or with `site` by the site's readings (as the log was played)."""
    base = _replayed(log, actions, site)
    game = type(base).__new__(type(base))
    game.__dict__.update(base.checkpoint())
    game.importing = False
    return game


def give(game: BaseGame, card: str, holder: Holder) -> Company:
    """Hand a private or subsidy to `holder` (made from the title's data when the deal left it out
    of this game), open."""
    usa: Any = game
    company = usa.companies.get(card)
    if company is None:
        entities = usa.data["entities"]
        if card.startswith("P"):
            raw = next(r for r in entities["privates"]["companies"] if r["id"] == card)
            ability = copy.deepcopy(raw.get("ability", {}))
            value, min_bid = usa.face_value(raw)  # the game's reading of the card's face value
            if min_bid is not None:
                ability["min_bid"] = min_bid
            company = Company(id=card, name=raw.get("rulebook_name") or raw["name"], value=value,
                              revenue=raw["revenue"], ability=ability, text=raw["text"])
        else:
            raw = next(r for r in entities["subsidies"]["tiles"] if r["id"] == card)
            company = Company(id=card, name=raw["name"], value=0, revenue=0, ability=copy.deepcopy(raw),
                              text=raw["text"])
        usa.companies[card] = company
    company.owner = holder
    company.closed = False
    return company


def moves_of(game: BaseGame, kind: str, entity: str) -> list[dict[str, Any]]:
    return [move for move in legal_moves(game) if move["type"] == kind and str(move["entity"]) == entity]


def lay_hexes(game: BaseGame, entity: str) -> set[str]:
    """The hexes the legal moves offer `entity` to lay a tile in."""
    return {choice["hex"] for move in moves_of(game, "lay_tile", entity) for choice in move["choices"]}


def offered_tiles(game: BaseGame, entity: str, coord: str) -> dict[str, dict[str, Any]]:
    """Tile name -> offered tile (rotations, cost) for `entity` in `coord`."""
    return {tile["tile"].rsplit("-", 1)[0]: tile for move in moves_of(game, "lay_tile", entity)
            for choice in move["choices"] if choice["hex"] == coord for tile in choice["tiles"]}


def lay(entity: str, coord: str, tile: str, rotation: int, company: bool = False) -> dict[str, Any]:
    return {"type": "lay_tile", "entity": entity, "entity_type": "company" if company else "corporation",
            "hex": coord, "tile": tile, "rotation": rotation}


def played(game: BaseGame, action: dict[str, Any]) -> None:
    """Play an offered action."""
    assert is_offered(game, action), f"not offered: {action}"
    game.process(action)


def refused(game: BaseGame, action: dict[str, Any], match: str) -> None:
    """The action is refused with a message matching `match` and the position is as it was."""
    before = snapshot(game)
    marks = game.map_marks() if hasattr(game, "map_marks") else None
    with pytest.raises(GameError, match=match):
        game.process(action)
    assert snapshot(game) == before
    if marks is not None:
        assert game.map_marks() == marks
    assert not is_offered(game, action)


def words(text: str) -> str:
    """A refusal's words as a regular expression matching them literally."""
    return re.escape(text)


def only(game: BaseGame, corporation: str, *cards: str) -> Any:
    """The company holds exactly `cards` among the privates and subsidies (the others it held
    leave the game), and has $300 to spend; returns the company."""
    usa: Any = game
    corp = usa.corporations[corporation]
    for company in usa.companies_of(corp):
        if company.id not in cards:
            company.closed = True
    for card in cards:
        give(game, card, corp)
    corp.cash = 300
    return corp


def put(game: BaseGame, coord: str, tile: str, needs: set[int]) -> None:
    """Put a tile on the map (a position's setup, not a move), in a rotation with exits `needs`."""
    usa: Any = game
    board = usa.board
    piece = board.tiles[tile]
    state = board.hexes[coord]
    rotation = next(r for r in board.legal_rotations(state, piece) if needs <= piece.exits(r))
    board.place_tile(coord, piece, f"{tile}-{board.free_copy(tile)}", rotation)


def station(game: BaseGame, corporation: str, coord: str, city: int = 0) -> None:
    """Put one of the company's stations in the first open slot of a city (a position's setup)."""
    usa: Any = game
    slots = usa.board.hexes[coord].tokens[city]
    slots[slots.index(None)] = corporation


def rotation(game: BaseGame, entity: str, coord: str, tile: str, needs: set[int]) -> int:
    """An offered rotation of `tile` in `coord` for `entity` whose exits include `needs`."""
    usa: Any = game
    piece = usa.board.tiles[tile]
    offered = offered_tiles(game, entity, coord)[tile]["rotations"]
    return next(r for r in offered if needs <= piece.exits(r))


def tile_id(game: BaseGame, tile: str) -> str:
    usa: Any = game
    return f"{tile}-{usa.board.free_copy(tile)}"


def start(game: BaseGame, player: str, corporation: str, price: int, home: str) -> None:
    """`player` starts `corporation` with a bid of `price` and its home in `home`; the others
    pass, leaving the winner to contribute privates."""
    played(game, {"type": "bid", "entity": player, "entity_type": "player", "corporation": corporation,
                  "price": price})
    city = next(choice["city"] for move in moves_of(game, "place_token", corporation)
                for choice in move["choices"] if choice["hex"] == home)
    played(game, {"type": "place_token", "entity": corporation, "entity_type": "corporation", "city": city,
                  "slot": 0})
    while (bidders := [move for move in legal_moves(game) if move["type"] == "pass"
                       and str(move["entity"]) != player]):
        played(game, {"type": "pass", "entity": bidders[0]["entity"], "entity_type": "player"})


def contribute(game: BaseGame, player: str, card: str) -> None:
    played(game, {"type": "assign", "entity": player, "entity_type": "player", "target": card,
                  "target_type": "company"})
