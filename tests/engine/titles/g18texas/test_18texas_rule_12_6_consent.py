"""Rule 12.6, consent: a train from a company with another president needs that president's
consent (the rulebook); on 18xx.games (`site_train_prices`) nobody is asked. The engine only
answers whose consent is needed; a purchase it is given is applied as before."""

from __future__ import annotations

from engine_helpers import Setup, corp, or_game, play, player, skip_to_step

from engine.core.game import BaseGame
from engine.log import Game


def two_companies(mp_president: str, options: list[str] | None = None) -> Game:
    """SP (A presides) at its buy-trains step; MP, presided by `mp_president`, owns 2-0."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {mp_president: 30})
        setup.give_train("MP", "2")
        setup.give_train("SP", "2")
    game = or_game(options=options, prepare=prepare)
    skip_to_step(game, "buy_train")
    return game


def test_12_6_another_presidents_train_needs_that_presidents_consent() -> None:
    game = two_companies("B")
    assert game.state.train_sale_consent(corp(game, "SP"), "2-0") is player(game, "B")


def test_12_6_same_president_needs_nobody_else() -> None:
    game = two_companies("A")
    assert game.state.train_sale_consent(corp(game, "SP"), "2-0") is None


def test_12_6_new_trains_and_own_trains_need_no_consent() -> None:
    game = two_companies("B")
    sp = corp(game, "SP")
    assert game.state.train_sale_consent(sp, game.state.depot.next_train().id) is None
    assert game.state.train_sale_consent(sp, "2-1") is None  # SP's own train
    assert game.state.train_sale_consent(sp, "no-such-train") is None


def test_12_6_site_reading_asks_nobody() -> None:
    game = two_companies("B", ["site_train_prices"])
    assert game.state.train_sale_consent(corp(game, "SP"), "2-0") is None


def test_12_6_the_engine_applies_a_purchase_as_given_consent_is_the_front_ends_job() -> None:
    game = two_companies("B")
    play(game, "buy_train", "SP", train="2-0", price=100)
    assert [t.id for t in corp(game, "SP").trains] == ["2-1", "2-0"]


def test_the_core_asks_nobody() -> None:
    game = two_companies("B")
    assert BaseGame.train_sale_consent(game.state, corp(game, "SP"), "2-0") is None
