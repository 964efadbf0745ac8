"""From a route problem to the CP-SAT model's input: the track graph and what each stop earns."""

from __future__ import annotations

from collections.abc import Sequence

from engine.router.attachments import Attachment
from engine.router.model import ModelInput, TrainSpec
from engine.router.network import Node
from engine.router.problem import RouteProblem, Train, stop_limits
from engine.router.track import build_track_graph


def model_input(problem: RouteProblem, trains: Sequence[Train], attachments: tuple[Attachment, ...],
                deadline: float | None = None) -> ModelInput:
    """The model of `trains` running for the problem's company. Raises OutOfTime past `deadline`."""
    board, corp, rules = problem.board, problem.corporation, problem.rules
    may_skip = any(attachment.skips for attachment in attachments)
    must_end: set[Node] = set()
    blocked: set[Node] = set()
    for coord, state in board.hexes.items():
        for stop in state.tile.stops:
            node = (coord, stop.kind, stop.index)
            if stop.must_end_here:
                must_end.add(node)
            elif stop.kind == "city" and board.city_is_blocked_for(coord, stop.index, corp):
                blocked.add(node)
    # A train that may skip a full city goes on through it, so the graph must too.
    impassable = must_end | (set() if may_skip else blocked)
    starts = [(coord, "city", index) for coord, index in board.token_hexes(corp)]
    graph = build_track_graph(board, starts, dict.fromkeys(impassable, False), deadline)
    stops = sorted(graph.stop_of.values())
    printed = {node: board.hexes[node[0]].tile.stop(node[1], node[2]).revenue_in(problem.colors)
               for node in stops}
    specs = []
    for train in trains:
        if "route_stop_revenue" in rules.hooks:
            values = {node: rules.stop_revenue(train, node, printed[node]) for node in stops}
        else:
            values = dict(printed)
        bonuses = rules.track_bonuses(train) if "route_track_bonuses" in rules.hooks else {}
        specs.append(TrainSpec(train.id, train.distance, values, dict(bonuses)))
    limits = stop_limits(problem, stops)
    return ModelInput(
        graph=graph,
        trains=tuple(specs),
        tokened=frozenset(node for node in stops if node[1] == "city"
                          and corp in board.hexes[node[0]].tokens[node[2]]),
        must_end=frozenset(must_end),
        blocked=frozenset(blocked),
        never_end=limits.never_end,
        costs={node: board.hexes[node[0]].tile.stop(node[1], node[2]).distance_cost for node in stops},
        areas=limits.areas,
        end_limits=rules.end_limits() if "route_end_limits" in rules.hooks else (),
        attachments=attachments,
    )
