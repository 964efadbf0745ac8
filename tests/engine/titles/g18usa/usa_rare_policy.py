"""The rare-path random player for 18USA (`usa_random_play.pick` with policy "rare").

The deep player (`usa_deep_policy`) plays long games, but in them most of section 14's paths and
rule 15 are seldom met: few shorts, few conversions, seldom a bankruptcy. The rare player plays as
the deep one, with two changes:

- every player uses private companies' powers, contributes privates to the companies they
  start, converts and merges, offers companies for friendly sale, bids in acquisitions and sells
  short far more often (with less money kept back for each);
- the last player in seat order is reckless: they sell short whatever they may, spend their last
  dollar on shares, borrow for their companies and pay out everything, repay nothing, and now and
  then end a company's turn without a train. Their companies go into liquidation and their debts
  bring them to rule 15, while the other players carry the game on to the late phases.
"""

from __future__ import annotations

import random
from typing import Any

from usa_deep_policy import deep_narrowed, deep_pick, interest_reserve, train_reserve

from engine.core.entities import Player
from engine.core.game import BaseGame

PRIVATE_POWER = 20.0  # a private company's own action, whenever one is offered
CONTRIBUTE = 6.0  # giving a private to the company its owner starts (against passing: 1)
OFFER = 4.0  # offering one's company for a friendly sale
ACQUISITION_BID = 3.0  # times the deep player's weight of a bid for a company for sale
CONVERT, MERGE = 4.0, 8.0  # with at least CONVERT_SPARE to spare (the deep player wants $100)
CONVERT_SPARE = 30
SHORT, RECKLESS_SHORT = 3.0, 8.0
SHORT_RESERVE = 40  # a careful player sells short when they hold the price and this much more
TARGET_LOANS = 2  # the most loans a careful player's company takes with a company it buys
PHASE_TRAIN = 3.0  # a bank train a careful company has money to spare for (the deep player: 0.5)
RECKLESS_LOAN = 3.0
RECKLESS_NO_TRAIN = 0.5  # ending a trainless company's turn without buying one: liquidation


def reckless(state: BaseGame) -> Player:
    """The player who takes every risk: the last in seat order."""
    return state.players[-1]


def acting_player(state: BaseGame, move: dict[str, Any]) -> Player | None:
    """The player a move is made by: a player's own, or their company's as its president."""
    if move["entity_type"] == "player":
        return state.player(move["entity"])
    if move["entity_type"] == "corporation":
        president = state.corporation(str(move["entity"])).president()
        return president if isinstance(president, Player) else None
    return None


def rare_narrowed(state: BaseGame, move: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    """The rare policy's weight of a move, and the move narrowed to the choices it would make."""
    kind = move["type"]
    step = state.round.blocking_step(state)
    step_key = step.key if step is not None else None
    if move["entity_type"] == "company":
        return PRIVATE_POWER, move
    risky = acting_player(state, move) is reckless(state)
    if kind == "assign" and step_key == "contribute":
        return CONTRIBUTE, move
    if kind == "assign" and step_key == "acquisition":
        return OFFER, move
    if kind == "short":
        cash = state.player(move["entity"]).cash
        choices = move["choices"] if risky else [c for c in move["choices"]
                                                 if c.get("price", 0) + SHORT_RESERVE <= cash]
        return ((RECKLESS_SHORT if risky else SHORT), move | {"choices": choices}) if choices else (0.0, move)
    weight, narrowed = deep_narrowed(state, move, moves)
    if kind == "bid" and step_key == "acquisition":
        # A company bought in an acquisition brings its loans (14.2): a careful buyer takes few.
        target = state.corporation(str(move["choices"][0]["corporation"]))
        indebted = state.loans.count(target.id) > TARGET_LOANS
        return (weight * (ACQUISITION_BID if risky or not indebted else 0.3)), narrowed
    if kind == "buy_train" and not risky and weight > 0:
        entity = str(move["entity"])
        spare = state.corporation(entity).cash - interest_reserve(state, entity) - train_reserve(state, entity)
        new = [c for c in narrowed["choices"] if c.get("from") == "depot" and c.get("price", spare + 1) <= spare]
        if new:
            return max(weight, PHASE_TRAIN), narrowed | {"choices": new}  # the phases move on
    if kind in ("convert", "merge") and move["entity_type"] == "corporation":
        corp = state.corporation(str(move["entity"]))
        wanted = CONVERT if kind == "convert" else MERGE
        return (wanted if risky or corp.cash >= CONVERT_SPARE else 0.5), move
    if not risky:
        return weight, narrowed
    if kind in ("buy_shares", "bid") and step_key in ("stock", "private_auction", "ipo_bid"):
        return max(weight, 2.0), move  # no reserve kept
    if kind == "take_loan":
        return RECKLESS_LOAN, move
    if kind == "payoff_loan":
        return 0.1, move
    if kind == "pass" and step_key == "repay":
        return 5.0, move
    if kind == "dividend":
        paying = [c for c in move["choices"] if c.get("kind") == "payout"]
        return weight, move | {"choices": paying} if paying else narrowed
    if kind == "pass" and step_key == "buy_train":
        return max(weight, RECKLESS_NO_TRAIN), move
    return weight, narrowed


def rare_pick(state: BaseGame, moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A move by the rare policy (above), made concrete as the deep player makes its own."""
    return deep_pick(state, moves, rng, rare_narrowed)
