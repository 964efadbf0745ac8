"""The steps of a company's operating turn shared by the titles."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation, Holder, Player
from engine.core.graph import reach_of
from engine.core.route_hooks import finish_company_runs, run_adjustment
from engine.core.routes import Run, action_routes, check_run, rebuild_run
from engine.core.stock_round import corporation_of_shares, execute_sale, plan_sale, share_ids_of
from engine.core.track import (
    apply_tile_lay,
    check_tile_lay,
    check_token,
    city_id,
    find_city,
    legal_tile_lays,
    place_token,
    tokenable_cities,
)
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.core.operating_round import OperatingRound


class Step:
    """One step of a company's turn."""

    label = "step"
    key = "step"

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        return []

    def finished(self, game: BaseGame, rnd: OperatingRound) -> bool:
        assert rnd.turn is not None
        return self.key in rnd.turn_done

    def done(self, rnd: OperatingRound) -> None:
        rnd.turn_done.add(self.key)

    def skip(self, game: BaseGame, rnd: OperatingRound) -> None:
        """What happens when the step passes without a decision."""

    def refusal(self, game: BaseGame, rnd: OperatingRound, kind: str) -> str | None:
        """Why an action of `kind` is not allowed at this step, when more can be said than
        which actions are."""
        return None

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def legal_moves(self, game: BaseGame, rnd: OperatingRound) -> list[dict[str, Any]]:
        corp = rnd.corporation
        return [{"type": kind, "entity": corp.id} for kind in self.actions(game, rnd)]

    @staticmethod
    def operator(rnd: OperatingRound, entity: Holder) -> Corporation:
        if entity is not rnd.corporation:
            raise GameError(f"it is {rnd.corporation.id}'s turn to operate")
        return rnd.corporation


class TrackStep(Step):
    label = "lay track"
    key = "track"

    def lays_left(self, game: BaseGame, rnd: OperatingRound) -> bool:
        """Lays remain, or a private's extra lays keep the step open until the president passes."""
        assert rnd.turn is not None
        if game.may_lay_tile(rnd.turn.lays) and game.lay_restriction(rnd.turn.lays) is None:
            return True
        return game.extra_lays_pending(rnd)

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        if self.finished(game, rnd) or not self.lays_left(game, rnd):
            return []
        return ["lay_tile", "pass"]

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        corp = self.operator(rnd, entity)
        assert rnd.turn is not None
        if action["type"] == "pass":
            refusal = game.track_pass_refusal(rnd)
            if refusal:
                raise GameError(refusal)
            self.done(rnd)
            return
        restriction = game.lay_restriction(rnd.turn.lays)
        if restriction:
            raise GameError(restriction)
        yellow_only = not game.may_upgrade(rnd.turn.lays)
        lay = check_tile_lay(game, corp, action, reach_of(game.board, corp.id), yellow_only=yellow_only)
        apply_tile_lay(game, corp, lay)
        rnd.turn.lays.append(lay.upgrade)

    def legal_moves(self, game: BaseGame, rnd: OperatingRound) -> list[dict[str, Any]]:
        if not self.actions(game, rnd):
            return []
        corp = rnd.corporation
        assert rnd.turn is not None
        yellow_only = not game.may_upgrade(rnd.turn.lays)
        restricted = game.lay_restriction(rnd.turn.lays) is not None
        lays = [] if restricted else legal_tile_lays(game, corp, reach_of(game.board, corp.id), yellow_only=yellow_only)
        moves: list[dict[str, Any]] = []
        if lays:
            moves.append({"type": "lay_tile", "entity": corp.id, "choices": lays})
        if game.track_pass_refusal(rnd) is None:
            moves.append({"type": "pass", "entity": corp.id})
        return moves


class TokenStep(Step):
    label = "place a station"
    key = "token"

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        if self.finished(game, rnd):
            return []
        corp = rnd.corporation
        if game.tokens_left(corp) <= 0 or corp.cash < game.token_cost(corp):
            return []
        if not tokenable_cities(game, corp, reach_of(game.board, corp.id)) and not game.ability_token_pending(rnd):
            return []
        return ["place_token", "pass"]

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        corp = self.operator(rnd, entity)
        assert rnd.turn is not None
        if action["type"] == "pass":
            self.done(rnd)
            rnd.turn.ability_token_hex = None  # a private's station, too, is placed in this step or never
            return
        coord, city_index = find_city(game, str(action.get("city")))
        slot = action.get("slot")
        slot = check_token(game, corp, coord, city_index, slot if isinstance(slot, int) else None,
                           reach_of(game.board, corp.id))
        cost = game.token_cost(corp)
        if cost:
            game.transfer(corp, game.bank, cost)
        place_token(game, corp, coord, city_index, slot)
        self.done(rnd)
        rnd.turn.ability_token_hex = None  # one station per operating round (12.3)

    def legal_moves(self, game: BaseGame, rnd: OperatingRound) -> list[dict[str, Any]]:
        if not self.actions(game, rnd):
            return []
        corp = rnd.corporation
        cities = tokenable_cities(game, corp, reach_of(game.board, corp.id))
        choices = [{"city": city_id(game.board.hexes[coord], index), "hex": coord} for coord, index in cities]
        moves: list[dict[str, Any]] = []
        if choices:
            moves.append({"type": "place_token", "entity": corp.id, "choices": choices})
        return moves + [{"type": "pass", "entity": corp.id}]


class RouteStep(Step):
    label = "run trains"
    key = "route"

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        if self.finished(game, rnd) or not rnd.corporation.trains:
            return []
        if not game.route_available(rnd.corporation):
            return []
        return ["run_routes"]

    def skip(self, game: BaseGame, rnd: OperatingRound) -> None:
        assert rnd.turn is not None
        if rnd.turn.revenue is None:
            rnd.turn.revenue = 0

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        corp = self.operator(rnd, entity)
        assert rnd.turn is not None
        runs = check_runs(game, corp, action)
        rnd.turn.runs = runs
        extra = action.get("extra_revenue") or 0
        if not isinstance(extra, int) or (extra and not game.trust_logged_revenue()):
            raise GameError("extra_revenue is not part of a run in this game; give the runs only")
        rnd.turn.revenue = sum(run.revenue for run in runs) + extra
        game.last_runs = runs
        game.log.append(f"{corp.id} runs for ${rnd.turn.revenue}")
        self.done(rnd)


def check_runs(game: BaseGame, corp: Corporation, action: dict[str, Any]) -> list[Run]:
    runs: list[Run] = []
    declared_revenues: list[Any] = []
    used: set[tuple[str, int]] = set()
    used_edges: set[tuple[str, int]] = set()
    trains_used: set[str] = set()
    for route in action_routes(action):
        train_id = route.get("train")
        train = next((t for t in corp.trains if t.id == train_id), None)
        if train is None:
            raise GameError(f"{corp.id} has no train {train_id!r}")
        if train_id in trains_used:
            raise GameError(f"train {train_id} can run only once")
        trains_used.add(train_id)
        chains = route.get("connections")
        if not isinstance(chains, list):
            raise GameError("each route needs its connections")
        stops, paths = rebuild_run(game.board, chains, used)
        _check_edges_once(game, paths, used_edges)
        used.update(paths)
        revenue = check_run(game.board, corp.id, stops, train.distance, game.colors_available())
        revenue += run_adjustment(game, corp, train, stops, paths)
        declared_revenues.append(route.get("revenue"))
        runs.append(Run(train_id, tuple(stops), tuple(paths), tuple(tuple(c) for c in chains), revenue))
    # Title route hooks: limits across all the runs, and bonuses decided once for the company.
    runs = finish_company_runs(game, corp, runs)
    checked: list[Run] = []
    for run, declared in zip(runs, declared_revenues, strict=True):
        if isinstance(declared, int) and declared != run.revenue and not game.trust_logged_revenue():
            raise GameError(f"the run of train {run.train} is worth ${run.revenue}, not ${declared}")
        if isinstance(declared, int) and game.trust_logged_revenue():
            run = replace(run, revenue=declared)
        checked.append(run)
    return checked


def _check_edges_once(game: BaseGame, paths: list[tuple[str, int]], used_edges: set[tuple[str, int]]) -> None:
    """Rule 12.1: no segment of track twice, not even the short piece where two paths of a tile
    meet at the same side, so each side of a hex is crossed at most once by a company's runs."""
    for coord, index in paths:
        for kind, where in game.board.hexes[coord].paths()[index]:
            if kind != "edge":
                continue
            if (coord, where) in used_edges:
                raise GameError(f"the runs use the track at side {where} of {coord} twice; no piece of "
                                f"track may be used twice, not even where two tracks join (12.1)")
            used_edges.add((coord, where))


class DividendStep(Step):
    label = "pay dividends"
    key = "dividend"

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        assert rnd.turn is not None
        if self.finished(game, rnd) or not rnd.turn.revenue:
            return []
        return ["dividend"]

    def skip(self, game: BaseGame, rnd: OperatingRound) -> None:
        if not self.finished(game, rnd):
            game.pay_dividend(rnd.corporation, 0, "withhold")

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        corp = self.operator(rnd, entity)
        assert rnd.turn is not None and rnd.turn.revenue is not None
        kind = action.get("kind")
        kinds = game.dividend_kinds()
        if kind not in kinds:
            raise GameError(f"dividend kind must be one of {', '.join(kinds)}")
        game.pay_dividend(corp, rnd.turn.revenue, str(kind))
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: OperatingRound) -> list[dict[str, Any]]:
        if not self.actions(game, rnd):
            return []
        return [{"type": "dividend", "entity": rnd.corporation.id,
                 "choices": [{"kind": kind} for kind in game.dividend_kinds()]}]


class BuyTrainStep(Step):
    label = "buy trains"
    key = "buy_train"

    def actions(self, game: BaseGame, rnd: OperatingRound) -> list[str]:
        if self.finished(game, rnd):
            return []
        corp = rnd.corporation
        if len(corp.trains) >= game.train_limit(corp):
            return []
        if game.must_buy_train(corp):
            return ["buy_train", "sell_shares", "bankrupt"]
        if corp.cash >= game.min_train_price(corp):
            return ["buy_train", "pass"]
        return []

    def refusal(self, game: BaseGame, rnd: OperatingRound, kind: str) -> str | None:
        corp = rnd.corporation
        if kind == "pass" and game.must_buy_train(corp):
            return f"{corp.id} has a route but no train, so it must buy a train (12.6)"
        return None

    def process(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        kind = action["type"]
        if kind == "sell_shares":
            self._emergency_sale(game, rnd, entity, action)
            return
        corp = self.operator(rnd, entity)
        if kind == "pass":
            if game.must_buy_train(corp):
                raise GameError(f"{corp.id} has a route but no train, so it must buy a train")
            self.done(rnd)
            return
        game.buy_train(corp, action)

    def _emergency_sale(self, game: BaseGame, rnd: OperatingRound, entity: Holder, action: dict[str, Any]) -> None:
        corp = rnd.corporation
        president = corp.president()
        if not isinstance(entity, Player) or entity is not president:
            raise GameError(f"only {corp.id}'s president may sell shares to pay for its train")
        need = game.emergency_shortfall(corp)
        if need <= 0:
            raise GameError(f"{entity.name} has enough cash for the train; no shares may be sold")
        share_ids = share_ids_of(action)
        target = corporation_of_shares(game, share_ids)
        plan = plan_sale(game, entity, target, share_ids, action.get("percent"),
                         keep_presidency=target is corp)
        assert rnd.turn is not None
        if game.emergency_sales_at_start_price():
            # The price before this train purchase's first sale of the company, not the dropped one.
            plan = replace(plan, price=rnd.turn.emergency_prices.get(target.id, plan.price))
        per_share = plan.price
        unit = target.share_percent
        if plan.percent > unit and per_share * target.units(plan.percent - unit) >= need:
            raise GameError(f"sell only as many shares as needed: ${need} is missing")
        execute_sale(game, entity, plan, share_ids)
        rnd.turn.emergency_prices.setdefault(target.id, plan.price)
        rnd.turn.emergency_sales += 1

    def legal_moves(self, game: BaseGame, rnd: OperatingRound) -> list[dict[str, Any]]:
        kinds = self.actions(game, rnd)
        if not kinds:
            return []
        corp = rnd.corporation
        moves: list[dict[str, Any]] = []
        trains = game.buyable_trains(corp)
        if trains:
            moves.append({"type": "buy_train", "entity": corp.id, "choices": trains})
        if "pass" in kinds:
            moves.append({"type": "pass", "entity": corp.id})
        president = corp.president()
        if "sell_shares" in kinds and president is not None and game.emergency_shortfall(corp) > 0:
            assert rnd.turn is not None
            prices = rnd.turn.emergency_prices if game.emergency_sales_at_start_price() else None
            sells = game.emergency_sales(corp, president, prices)
            if sells:
                moves.append({"type": "sell_shares", "entity": president.id, "entity_type": "player",
                              "choices": sells})
            elif not trains:
                moves.append({"type": "bankrupt", "entity": corp.id})
        return moves
