"""Section 14 as a state machine (engine/core/family1817/section14.py): a conversion and a merger
walked stage by stage, with who is asked at each, in the printed order and the site's. Every move
must go where the table says (the 18USA logs check the same for every move they make:
tests/engine/titles/g18usa/test_usa_section_14_states.py); the printed order's transitions,
which imported logs never take, are proven here."""

from __future__ import annotations

from typing import Any

from family_helpers import act, corp, first_and_other, new, start, to_merger_round

from engine.core.family1817.game import SITE_POST_CONVERSION
from engine.core.family1817.section14 import MERGER_ROUND, PRINTED, Stage, allowed, asked, stage


def step(game: Any, kind: str, entity: str, **fields: Any) -> Stage:
    """Play a move, check the table allows where it led, and return the stage now."""
    before = stage(game)
    assert before is not None
    act(game, kind, entity, **fields)
    after = stage(game) or Stage.NEXT_ROUND
    assert allowed(MERGER_ROUND, before, kind, after), f"{before.name} --{kind}--> {after.name} is not in the table"
    return after


def asked_id(game: Any) -> str:
    holder = asked(game)
    assert holder is not None
    return str(holder.id)


def three_players_one_company(options: list[str] | None = None) -> Any:
    game = new(3, options)
    start(game, "a", "C", 70)
    act(game, "pass", "b")
    act(game, "pass", "c")
    to_merger_round(game)
    return game


def treasury_share(game: Any, company: str) -> str:
    return next(s.id for s in game.ledger.holding_order(corp(game, company), corp(game, company)) if not s.president)


def test_printed_order_a_conversion_takes_loans_buys_its_stations_then_deals() -> None:
    """14.1.1 as printed: the company's loans, its stations, then the share dealing (14.1.3):
    the president first, then each other player from the president's left."""
    game = three_players_one_company()
    assert stage(game) is Stage.CHOOSING and asked_id(game) == "C"
    assert step(game, "convert", "C") is Stage.LOANS and asked_id(game) == "C"
    assert step(game, "take_loan", "C") is Stage.LOANS
    assert step(game, "pass", "C") is Stage.PRESIDENT_BUYS and asked_id(game) == "a"
    assert step(game, "buy_shares", "a", shares=[treasury_share(game, "C")]) is Stage.PRESIDENT_BUYS
    assert step(game, "pass", "a") is Stage.OTHERS_DEAL and asked_id(game) == "b"
    assert step(game, "buy_shares", "b", shares=[treasury_share(game, "C")]) is Stage.OTHERS_DEAL
    assert asked_id(game) == "c"
    assert step(game, "pass", "c") is Stage.NEXT_ROUND  # C was the only company: the round is over
    assert "C has settled its conversion or merger" in game.log


def test_printed_order_transitions_are_marked_and_the_site_order_takes_none_of_them() -> None:
    """The table marks what only the printed order does; the site's order deals first."""
    printed = {(before, move, after) for before, moves in MERGER_ROUND.items() for move, targets in moves.items()
               for after, why in targets.items() if why.startswith(PRINTED)}
    assert (Stage.LOANS, "pass", Stage.PRESIDENT_BUYS) in printed
    game = three_players_one_company([SITE_POST_CONVERSION])
    corp(game, "C").cash = 1000
    seen = []
    for kind, who in (("convert", "C"), ("pass", "a"), ("pass", "b"), ("pass", "c"), ("pass", "C")):
        before = stage(game)
        after = step(game, kind, who)
        seen.append((before, kind, after))
    assert [after for _, _, after in seen] == [Stage.PRESIDENT_BUYS, Stage.OTHERS_DEAL, Stage.OTHERS_DEAL,
                                               Stage.LOANS, Stage.NEXT_ROUND]
    assert not printed & set(seen)


def test_a_merger_with_a_new_president_deals_as_the_table_says() -> None:
    """14.1.2 then 14.1.3: the purchase that makes the follower president keeps the dealing in
    PRESIDENT_BUYS with them asked; their pass ends it and the company's loans follow."""
    game = new(2)
    start(game, "a", "C", 60)
    start(game, "b", "D", 60)
    to_merger_round(game)
    first, other = first_and_other(game, "C", "D")
    president, follower = corp(game, first).president().id, corp(game, other).president().id
    assert step(game, "merge", first, corporation=other) is Stage.PRESIDENT_BUYS and asked_id(game) == president
    assert step(game, "pass", president) is Stage.OTHERS_DEAL and asked_id(game) == follower
    assert step(game, "buy_shares", follower, shares=[treasury_share(game, first)]) is Stage.PRESIDENT_BUYS
    assert asked_id(game) == follower and corp(game, first).president().id == follower
    assert step(game, "pass", follower) is Stage.LOANS and asked_id(game) == first


def test_a_move_the_table_does_not_list_is_caught() -> None:
    """The check can fail: a company's pass starts no dealing, a sale makes nobody president,
    and no player buys shares while the company chooses."""
    assert not allowed(MERGER_ROUND, Stage.CHOOSING, "pass", Stage.PRESIDENT_BUYS)
    assert not allowed(MERGER_ROUND, Stage.OTHERS_DEAL, "sell_shares", Stage.PRESIDENT_BUYS)
    assert not allowed(MERGER_ROUND, Stage.CHOOSING, "buy_shares", Stage.OTHERS_DEAL)


def test_a_merger_takes_over_a_short_position_short_first_after_the_survivor_s_numbers() -> None:
    """14.1.2 with a short: Bob's open short of D becomes a short of the survivor, numbered as
    the site numbers it: after the survivor's highest certificate, the short one first, then the
    ordinary share that balances it (which stays in the market); Bob presides nothing and
    the survivor's certificates still add up to 100%."""
    from family_helpers import player, to_next_stock_round

    game = new(3)
    start(game, "a", "C", 70)
    act(game, "pass", "b")
    start(game, "c", "D", 60)
    to_next_stock_round(game)
    bob = player(game, "b")
    game.round.current_index = game.players.index(bob)
    act(game, "short", "b", corporation="D")
    to_merger_round(game)
    first, other = first_and_other(game, "C", "D")
    assert step(game, "merge", first, corporation=other) in (Stage.PRESIDENT_BUYS, Stage.OTHERS_DEAL)
    survivor = corp(game, first)
    numbers = {s.id: s for s in survivor.shares}
    highest_ordinary = max(int(i.rsplit("_", 1)[1]) for i, s in numbers.items() if s.percent > 0 and s.owner is not game.pool)
    short = next(s for s in survivor.shares if s.percent < 0)
    index = int(short.id.rsplit("_", 1)[1])
    assert short.owner is bob and index >= 10 and index > highest_ordinary
    balancing = numbers[f"{first}_{index + 1}"]
    assert balancing.percent == -short.percent and balancing.owner is game.pool
    assert sum(s.percent for s in survivor.shares) == 100
