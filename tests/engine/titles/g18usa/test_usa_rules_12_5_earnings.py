"""18USA rule 12.5 at a logged position (s8503, action 661): C&O, a 10-share company at $42,
has run for $110. P1 holds its president's certificate (20%), P4 10%, C&O itself four shares, the
open market four, and P2 is short one share. Each of the three choices is played from there."""

from __future__ import annotations

from typing import Any

from usa_positions import replayed

from engine.legal import legal_moves

DIVIDEND = 661


def after(kind: str) -> tuple[Any, dict[str, int], int, int]:
    game = replayed("s8503", DIVIDEND)
    corp = game.corporations["C&O"]
    (move,) = [m for m in legal_moves(game) if m["type"] == "dividend"]
    assert move["revenue"] == 110 and {c["kind"] for c in move["choices"]} == {"payout", "half", "withhold"}
    cash = {p.id: p.cash for p in game.players}
    treasury, col = corp.cash, game.market.cell_of("C&O").col
    game.apply({"type": "dividend", "entity": "C&O", "entity_type": "corporation", "kind": kind})
    paid = {p.id: p.cash - cash[p.id] for p in game.players}
    return game, paid, corp.cash - treasury, game.market.cell_of("C&O").col - col


def test_12_5_half_pay_of_a_10_share_company_rounds_the_paid_half_up_to_ten() -> None:
    game, paid, kept, steps = after("half")
    # $55 each way: $60 paid out ($6 a share), $50 kept; the treasury's four shares get $24.
    assert kept == 50 + 4 * 6
    assert paid == {"P1": 12, "P2": -6, "P3": 0, "P4": 6, "P5": 0}  # the short pays $6 to the bank
    assert steps == 2  # $60 paid is at least 100% of $42, under 150%


def test_12_5_full_payout_shorts_pay_the_dividend_per_share_and_four_steps_at_200_percent() -> None:
    game, paid, kept, steps = after("payout")
    assert kept == 4 * 11  # only the treasury's shares
    assert paid == {"P1": 22, "P2": -11, "P3": 0, "P4": 11, "P5": 0}
    assert steps == 4  # $110 is over 200% of $42


def test_12_5_withhold_keeps_it_all_and_moves_one_step_back() -> None:
    game, paid, kept, steps = after("withhold")
    assert kept == 110 and not any(paid.values())
    assert steps == -1
    assert game.market_area(game.corporations["C&O"]) == "acquisition"  # from $42, the last ordinary space
