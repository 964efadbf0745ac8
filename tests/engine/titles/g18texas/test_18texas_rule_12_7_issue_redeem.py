"""Rulebook section 12.7: issuing and redeeming a company's own shares."""

from __future__ import annotations

from engine_helpers import (
    Setup,
    cell,
    choices_of,
    corp,
    or_game,
    play,
    refuse,
    skip_to_step,
    step_label,
)

from engine.core.operating_round import OperatingRound
from engine.log import Game


def sp_at_issue(operated: bool = True, extra=None) -> Game:  # type: ignore[no-untyped-def]
    """SP (A 30%, B 10%, C 10%, treasury 50%) with a 2-train at its issue or redeem step, having
    run Houston-Galveston for $50 and withheld it (so its price went left to $100 at (1, 3)).
    With `operated` it is not SP's first turn (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.give_train("SP", "2")
        if operated:
            setup.state.corporation("SP").times_operated = 1
        if extra:
            extra(setup)
    game = or_game(prepare=prepare)
    skip_to_step(game, "issue")
    return game


def step_over(game: Game) -> bool:
    rnd = game.state.round
    return not isinstance(rnd, OperatingRound) or rnd.turn is None or rnd.corporation.id != "SP" \
        or step_label(game) != "issue"


def shares(game: Game, holder: str) -> list[str]:
    sp = corp(game, "SP")
    owner = game.state.pool if holder == "pool" else sp
    return sorted(s.id for s in sp.shares_of(owner))


def test_12_7_issuing_pays_the_current_price_and_drops_the_price_a_row_per_share() -> None:
    game = sp_at_issue()
    sp, bank = corp(game, "SP"), game.state.bank.cash
    before = sp.cash
    play(game, "sell_shares", "SP", shares=shares(game, "SP")[:2], percent=20)
    assert sp.cash == before + 200 and game.state.bank.cash == bank - 200
    assert sp.percent_owned_by(game.state.pool) == 20
    assert cell(game, "SP") == (3, 3)
    # Issuing ends the step (and here SP's turn): no redeeming as well.
    assert step_over(game)


def test_12_7_issuing_may_not_put_more_than_half_in_the_pool() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: B's and C's shares and two treasury shares are in the pool (40%).
        state = setup.state
        sp = state.corporation("SP")
        for who in ("B", "C"):
            state.ledger.move(sp.shares_of(state.player(who))[0], state.pool)
        setup.give_share("SP", "pool")
        setup.give_share("SP", "pool")
    game = sp_at_issue(extra=extra)
    assert [c["percent"] for c in choices_of(game, "sell_shares")] == [10]
    refuse(game, "sell_shares", "SP", r"SP may issue at most 1 share\(s\) now; the pool may hold at most 50%",
           shares=shares(game, "SP")[:2], percent=20)
    play(game, "sell_shares", "SP", shares=shares(game, "SP")[:1], percent=10)


def test_12_7_no_issuing_in_the_first_operating_turn() -> None:
    def extra(setup: Setup) -> None:
        setup.give_share("SP", "pool")  # something to redeem keeps the step open
    game = sp_at_issue(operated=False, extra=extra)
    assert step_label(game) == "issue"
    assert choices_of(game, "sell_shares") == []
    refuse(game, "sell_shares", "SP", r"SP may not issue shares in its first operating turn \(12.7\)",
           shares=shares(game, "SP")[:1], percent=10)


def test_12_7_issuing_on_the_ledge_does_not_move_the_price() -> None:
    game = sp_at_issue()
    Setup(game).price("SP", "75,5,4")  # direct setup: SP is on the ledge
    play(game, "sell_shares", "SP", shares=shares(game, "SP")[:1], percent=10)
    assert cell(game, "SP") == (5, 4)


def test_12_7_redeeming_pays_the_price_to_the_bank_without_moving_it() -> None:
    def extra(setup: Setup) -> None:
        setup.give_share("SP", "pool")
        setup.give_share("SP", "pool")
    game = sp_at_issue(extra=extra)
    sp, bank = corp(game, "SP"), game.state.bank.cash
    before = sp.cash
    play(game, "buy_shares", "SP", shares=shares(game, "pool"), percent=20)
    assert sp.cash == before - 200 and game.state.bank.cash == bank + 200
    assert sp.percent_owned_by(sp) == 50 and cell(game, "SP") == (1, 3)
    # Redeeming ends the step (and here SP's turn): no issuing as well.
    assert step_over(game)


def test_12_7_redeeming_may_not_make_the_treasury_more_than_half() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: two treasury shares and B's share in the pool: treasury 30%, pool 30%.
        state = setup.state
        setup.give_share("SP", "pool")
        setup.give_share("SP", "pool")
        state.ledger.move(state.corporation("SP").shares_of(state.player("B"))[0], state.pool)
    game = sp_at_issue(extra=extra)
    assert [c["percent"] for c in choices_of(game, "buy_shares")] == [10, 20]
    refuse(game, "buy_shares", "SP", r"SP may redeem at most 2 share\(s\) now; the treasury may hold at most 50%",
           shares=shares(game, "pool"), percent=30)


def test_12_7_redeeming_needs_the_cash() -> None:
    def extra(setup: Setup) -> None:
        setup.give_share("SP", "pool")
        setup.give_share("SP", "pool")
        setup.cash("SP", 149)  # $199 after the $50 it withholds
    game = sp_at_issue(extra=extra)
    assert corp(game, "SP").cash == 199
    assert [c["percent"] for c in choices_of(game, "buy_shares")] == [10]
    refuse(game, "buy_shares", "SP", r"SP may redeem at most 1 share\(s\) now", shares=shares(game, "pool"),
           percent=20)
