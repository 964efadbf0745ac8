"""The rare paths of 18USA a random game went through, read from each action and the game state
around it (`usa_random_play.play_random_game` counts them in `Played.paths`;
`bench/usa_properties.py` prints the share of games that reached each).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.core.family1817.acquisition_round import LIQUIDATION, AcquisitionRound
from engine.core.family1817.market import area
from engine.core.family1817.merger_round import MergerRound
from engine.core.game import BaseGame

# Each path, in the order the bench prints them, with what counts as one.
PATHS = {
    "private power": "a private company's own action (use, assign, lay, ...)",
    "private lay": "a tile laid by a private company",
    "private assign": "a private company assigned to a hex or company",
    "private contributed": "a private given to a company its owner starts (11.6)",
    "conversion": "a company converted to the next size (14.1)",
    "merger": "two companies merged (14.1)",
    "merger share dealing": "a share bought or sold after a conversion or merger (14.1.3)",
    "acquisition offer": "a company offered for a friendly sale (14.2)",
    "acquisition bid": "a bid for a company for sale (14.2)",
    "company bought": "a company acquired or sold friendly (14.2)",
    "liquidation": "a company going into liquidation (14.2.1)",
    "liquidation sale": "a liquidated company sold or closed (14.2.1)",
    "short": "a share sold short (11.2)",
    "short closed": "a short position closed by buying a share (11.3)",
    "bankruptcy": "a player going bankrupt (15)",
}


@dataclass
class Before:
    """What an action's paths are told from, taken before it."""

    round: str
    step: str | None
    in_play: frozenset[str]
    liquidating: frozenset[str]
    bankrupt: frozenset[Any]
    shorts: int


def short_total(state: BaseGame) -> int:
    return sum(1 for corp in state.corporations.values() for share in corp.shares if share.percent < 0)


def in_liquidation(state: BaseGame) -> frozenset[str]:
    return frozenset(corp.id for corp in state.corporations.values()
                     if corp.ipoed and corp.id in state.market.position and area(state, corp) == LIQUIDATION)


def before(state: BaseGame) -> Before:
    step = state.round.blocking_step(state)
    return Before(type(state.round).__name__, step.key if step is not None else None,
                  frozenset(c.id for c in state.corporations.values() if c.ipoed), in_liquidation(state),
                  frozenset(p.id for p in state.players if p.bankrupt), short_total(state))


def paths_of(was: Before, action: dict[str, Any], state: BaseGame) -> Counter[str]:
    """The rare paths `action`, played from the position `was` describes, went through."""
    seen: Counter[str] = Counter()
    kind, entity_type = action["type"], action.get("entity_type")
    if entity_type == "company":
        seen["private power"] += 1
        if kind == "lay_tile":
            seen["private lay"] += 1
        elif kind == "assign":
            seen["private assign"] += 1
    if kind == "assign" and entity_type == "player" and was.step == "contribute":
        seen["private contributed"] += 1
    if kind == "convert":
        seen["conversion"] += 1
    if kind == "merge" and entity_type == "corporation":
        seen["merger"] += 1
    if was.round == MergerRound.__name__ and kind in ("buy_shares", "sell_shares") and entity_type == "player":
        seen["merger share dealing"] += 1
    if was.round == AcquisitionRound.__name__ and entity_type == "player":
        if kind == "assign":
            seen["acquisition offer"] += 1
        elif kind == "bid":
            seen["acquisition bid"] += 1
    in_play = frozenset(c.id for c in state.corporations.values() if c.ipoed)
    if was.round == AcquisitionRound.__name__:
        # A sale ends when its company leaves play; the action that ends one may settle the next
        # (a liquidation nobody can bid for).
        for corp_id in was.in_play - in_play:
            seen["liquidation sale" if corp_id in was.liquidating else "company bought"] += 1
    seen["liquidation"] += len(in_liquidation(state) - was.liquidating)
    if kind == "short":
        seen["short"] += 1
    elif kind == "buy_shares" and short_total(state) < was.shorts:
        seen["short closed"] += 1
    seen["bankruptcy"] += len({p.id for p in state.players if p.bankrupt} - was.bankrupt)
    return +seen
