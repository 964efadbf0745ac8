"""Moves that would put a company into liquidation, named before they are made (issue 31).

The 1817 family liquidates a company that cannot pay: for the stations a conversion adds
(14.1.1), for stations it still owes when a stock round ends (11.6), for its interest with no
loan left to take (12.8), and one that ends its turn without a train (12.6; a title's own
status note names that one). Players should read it before the move, as they read the
missing-train case: each line here names the move and the company, with the figures. Read-only:
where a move must be tried (does this pass end the stock round?), it is tried on a copy, and only
when a company is short of the money, so the common position costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from engine.core.entities import Corporation, Player
from engine.core.family1817.loans import pay_interest
from engine.core.family1817.market import LIQUIDATION, area
from engine.core.family1817.sizes import token_shortfall
from engine.core.stock_round import StockRound
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game

Warning = tuple[str, set[str]]  # the words, and the ids of the entities they are about


def ruin_warnings(game: Family1817Game) -> list[Warning]:
    if game.finished:
        return []
    return _conversion(game) + _stations_owed(game) + _interest(game)


def _about(corporation: Corporation) -> set[str]:
    president = corporation.president()
    return {corporation.id} | ({str(president.id)} if president is not None else set())


def _conversion(game: Family1817Game) -> list[Warning]:
    """14.1.1: a converting company buys its new stations once the new shares are dealt; what it
    cannot pay for sends it into liquidation."""
    # Asked of the steps, not of the round's class: the merger round imports the game class,
    # which imports this module.
    corporation = game.round.acting_entity(game)
    if not isinstance(corporation, Corporation) or area(game, corporation) is not None:
        return []
    if not any("convert" in step.actions(game, game.round, corporation) for step in game.round.active_steps(game)):
        return []  # not asked to convert now (another round, done this round, or the step is another)
    new_size = game.NEXT_SIZE.get(game.company_size(corporation))
    if new_size is None:
        return []
    stations = token_shortfall(game, corporation, game.conversion_tokens(new_size))
    cost = stations * game.TOKEN_PRICE
    if cost <= corporation.cash:
        return []
    return [(f"If {corporation.id} converts to {new_size} shares, it must buy {stations} station"
             f"{'s' if stations > 1 else ''} for ${cost} and has ${corporation.cash}: unless its new shares "
             "bring the rest, it goes into liquidation (14.1.1)", _about(corporation))]


def _stations_owed(game: Family1817Game) -> list[Warning]:
    """11.6: stations still owed when the stock round ends send the company into liquidation."""
    if not isinstance(game.round, StockRound):
        return []
    short = [(game.corporations[corp_id], owed) for corp_id, owed in sorted(game.tokens_owed.items())
             if owed * game.TOKEN_PRICE > game.corporations[corp_id].cash
             and game.liquidates_for_unpaid_stations(game.corporations[corp_id])]
    if not short:
        return []
    acting = game.round.acting_entity(game)
    player = acting if isinstance(acting, Player) else None
    ending = _pass_ends_the_round(game, player, [corp for corp, _ in short])
    warnings = []
    for corporation, owed in short:
        cost = owed * game.TOKEN_PRICE
        figures = f"it owes ${cost} for {owed} station{'s' if owed > 1 else ''} and has ${corporation.cash}"
        about = _about(corporation)
        if corporation.id in ending and player is not None:
            warnings.append((f"If {player.name} passes now, the stock round ends and {corporation.id} goes into "
                             f"liquidation: {figures} (11.6)", about | {str(player.id)}))
        else:
            warnings.append((f"{corporation.id} goes into liquidation if the stock round ends before it can pay: "
                             f"{figures} (11.6)", about))
    return warnings


def _pass_ends_the_round(game: Family1817Game, player: Player | None, companies: list[Corporation]) -> set[str]:
    """The companies among ``companies`` that the acting player's pass would put into
    liquidation (the pass tried on a copy of the position)."""
    if player is None:
        return set()
    trial = cast("Family1817Game", game.snapshot())
    try:
        trial.process({"type": "pass", "entity": player.id, "entity_type": "player"})
    except GameError:
        return set()
    return {corp.id for corp in companies if area(trial, trial.corporations[corp.id]) == LIQUIDATION}


def _interest(game: Family1817Game) -> list[Warning]:
    """12.8: after buying trains the company pays its interest, with loans while it may take
    them; at the most loans, what it cannot pay sends it into liquidation."""
    corporation = game.round.acting_entity(game)
    step = game.round.blocking_step(game)
    if not isinstance(corporation, Corporation) or step is None or step.key != "buy_train":
        return []
    owed = game.interest_due(corporation)
    if not owed or owed <= corporation.cash:
        return []
    trial = cast("Family1817Game", game.snapshot())
    copy = trial.corporations[corporation.id]
    pay_interest(trial, copy)
    if area(trial, copy) != LIQUIDATION:
        return []
    return [(f"{corporation.id} owes ${owed} interest, has ${corporation.cash} and cannot take loans enough to pay "
             "it: when it is done buying trains it goes into liquidation (12.8)", _about(corporation))]
