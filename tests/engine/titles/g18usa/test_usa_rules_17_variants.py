"""18USA rule 17's variants, each a rule option off by default: 1817's train roster
(`seventeen_trains`), a president above 60% (`president_above_60`) and the $300 maximum start
from phase 5 with the liquidation of a company its players hold under half of
(`max_start_300`). Positions from the logs, the option switched on where the variant matters."""

from __future__ import annotations

from typing import Any

import pytest
from usa_positions import log_named, replayed

from engine.errors import GameError
from engine.legal import is_offered, legal_moves
from engine.log import new_game
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa.game import G18USA
from engine.titles.g18usa.phases import end_of_operating_round

PLAYERS = [{"id": n, "name": f"P{n}"} for n in range(1, 5)]
VARIANTS = ("seventeen_trains", "president_above_60", "max_start_300")


def test_17_the_variants_are_rule_options_off_by_default() -> None:
    assert set(VARIANTS) <= set(G18USA.RULE_OPTIONS)
    game = new_game("18USA", PLAYERS, 7).state
    assert not any(game.option(variant) for variant in VARIANTS)


# --- the 1817 train roster ----------------------------------------------------------------------
def test_17_1817_roster_and_its_exports() -> None:
    game = new_game("18USA", PLAYERS, 7, ["seventeen_trains"]).state
    assert game.depot.run_length()[:3] == [["2", 40], ["2+", 4], ["3", 12]]  # 1817's, not unlimited 2s
    bought = game.depot.next_train()
    assert bought is not None
    game.depot.take(bought)
    # After an operating round every 2-train left is exported while the next is a 2 ...
    end_of_operating_round(game)  # type: ignore[arg-type]
    assert game.depot.run_length()[0] == ["2+", 4]
    # ... and otherwise the next train only.
    end_of_operating_round(game)  # type: ignore[arg-type]
    assert game.depot.run_length()[0] == ["2+", 3] and "A 2+-train is exported" in game.log


# --- $300 maximum start after phase 5 -------------------------------------------------------------
def test_17_300_start_price_only_with_the_variant_and_from_phase_5() -> None:
    late = replayed("s8603", 934)  # phase 6
    early = replayed("s8603", 599)  # phase 4
    assert late.phase.name == "6" and early.phase.name == "4"
    assert ipos.start_price(late, 640) == 200  # printed: half the bid, at most $200 (11.6)
    late.options = late.options | {"max_start_300"}
    early.options = early.options | {"max_start_300"}
    assert ipos.start_price(late, 640) == 300
    assert ipos.start_price(late, 580) == 285  # rounded down to a market price
    assert ipos.start_price(early, 640) == 200


def end_of_stock_round(with_variant: bool) -> Any:
    """s8603's stock round 8 (phase 4): MKT was started in it and its players hold 40%; KCS too,
    80%. The round's last pass is next."""
    game = replayed("s8603", 599)
    if with_variant:
        game.options = game.options | {"max_start_300"}
    assert game.round.name == "Stock Round"
    held = {corp: sum(game.corporations[corp].percent_owned_by(p) for p in game.players) for corp in ("MKT", "KCS")}
    assert held == {"MKT": 40, "KCS": 80}
    game.apply(log_named("s8603")["actions"][599])
    assert game.round.name != "Stock Round"
    return game


def test_17_under_half_in_players_hands_after_its_first_stock_round_liquidation() -> None:
    game = end_of_stock_round(with_variant=True)
    assert game.market_area(game.corporations["MKT"]) == "liquidation"
    assert game.market_area(game.corporations["KCS"]) is None


def test_17_printed_no_liquidation_for_a_company_its_players_hold_under_half_of() -> None:
    game = end_of_stock_round(with_variant=False)
    assert game.market_area(game.corporations["MKT"]) is None


# --- the president above 60% ----------------------------------------------------------------------
def to_player(game: Any, share_ids: list[str], player: str) -> None:
    corporation = game.corporations[share_ids[0].split("_")[0]]
    for share_id in share_ids:
        game.ledger.move(corporation.share_by_id(share_id), game.player(player))


def buys_of(game: Any, corporation: str) -> list[dict[str, Any]]:
    """A player's purchases of the company on offer (not the company's own buy-backs)."""
    return [choice for move in legal_moves(game) if move["type"] == "buy_shares"
            and move.get("entity_type") != "corporation"
            for choice in move["choices"] if choice["corporation"] == corporation]


def test_17_a_president_may_buy_beyond_60_percent_only_with_the_variant() -> None:
    # s8401, stock round 12, P1's turn: P1 presides SR (10 shares) with 50%; SR shares are for sale.
    game = replayed("s8401", 700)
    to_player(game, ["SR_1"], "P1")
    assert game.corporations["SR"].percent_owned_by(game.player("P1")) == 60
    assert not buys_of(game, "SR")
    with pytest.raises(GameError, match="at most 60%"):
        game.apply({"type": "buy_shares", "entity": "P1", "entity_type": "player", "shares": ["SR_2"], "percent": 10})
    game.options = game.options | {"president_above_60"}
    assert buys_of(game, "SR")
    game.apply({"type": "buy_shares", "entity": "P1", "entity_type": "player", "shares": ["SR_2"], "percent": 10})
    assert game.corporations["SR"].percent_owned_by(game.player("P1")) == 70


def president_at_70(with_variant: bool) -> Any:
    """P2's turn; P1 holds 70% of SR and P3 the other 30%: no SR share is for sale."""
    game = replayed("s8401", 701)
    to_player(game, ["SR_1", "SR_2"], "P1")
    to_player(game, ["SR_3", "SR_7", "SR_8"], "P3")
    game.transfer(game.bank, game.player("P2"), 200)
    if with_variant:
        game.options = game.options | {"president_above_60"}
    assert [p.id for p in game.acting_players()] == ["P2"]
    return game


def test_17_others_buy_from_a_president_above_60_at_the_price_plus_10_percent() -> None:
    game = president_at_70(with_variant=True)
    price = game.share_price(game.corporations["SR"])
    assert price == 86
    offered = buys_of(game, "SR")
    assert len(offered) == 1 and offered[0]["from"] == "president" and offered[0]["price"] == 95  # 94.6 up
    p1, p2 = game.player("P1"), game.player("P2")
    cash1, cash2 = p1.cash, p2.cash
    action = {"type": "buy_shares", "entity": "P2", "entity_type": "player", "shares": [offered[0]["share"]],
              "percent": 10}
    assert is_offered(game, action)
    game.apply(action)
    assert (p1.cash, p2.cash) == (cash1 + 95, cash2 - 95)
    sr = game.corporations["SR"]
    assert sr.percent_owned_by(p1) == 60 and sr.percent_owned_by(p2) == 10
    assert sr.president() is p1


def test_17_printed_a_presidents_shares_are_not_for_sale() -> None:
    game = president_at_70(with_variant=False)
    assert not buys_of(game, "SR")
    cash = game.player("P2").cash
    with pytest.raises(GameError, match="neither in the company treasury nor in the bank pool"):
        game.apply({"type": "buy_shares", "entity": "P2", "entity_type": "player", "shares": ["SR_4"], "percent": 10})
    assert game.player("P2").cash == cash and game.corporations["SR"].share_by_id("SR_4").owner is game.player("P1")


def test_17_no_purchase_from_the_president_while_another_share_is_for_sale() -> None:
    game = president_at_70(with_variant=True)
    game.ledger.move(game.corporations["SR"].share_by_id("SR_3"), game.pool)  # one back in the market
    assert [choice["from"] for choice in buys_of(game, "SR")] == ["pool"]
    with pytest.raises(GameError, match="not for sale"):
        game.apply({"type": "buy_shares", "entity": "P2", "entity_type": "player", "shares": ["SR_4"], "percent": 10})
