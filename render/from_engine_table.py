"""Table rows from an engine position: players, corporations and the train depot.

Only lookups and formatting of what the engine holds; see render/from_engine.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from render.view import CorpRow, DepotRow, PlayerRow

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.core.entities import Corporation, Player, Train
    from engine.core.game import BaseGame

# How train events read in the depot table; an unknown event shows under its engine name.
EVENT_TEXT = {"close_companies": "privates close"}


def player_rows(state: BaseGame) -> tuple[PlayerRow, ...]:
    acting = {id(p) for p in state.acting_players()}
    priority = state.priority_player
    return tuple(
        PlayerRow(
            name=p.name, cash=p.cash, certs=_player_certs(state, p),
            cert_count=state.certificate_count(p), cert_limit=state.cert_limit,
            value=state.player_value(p), has_priority=p is priority,
            companies=_companies_of(state, p), is_active=id(p) in acting,
        )
        for p in state.players
    )


def corp_rows(state: BaseGame) -> tuple[CorpRow, ...]:
    return tuple(_corp_row(state, corp) for corp in state.corporations.values())


def depot_rows(state: BaseGame) -> tuple[DepotRow, ...]:
    """Trains still for sale, by kind, with what the first of a kind sets off (the engine's
    phase list, rust marks and train events; nothing once a kind has been sold)."""
    first_of: dict[str, Train] = {}
    for train in state.depot.trains:
        first_of.setdefault(train.name, train)
    rows = []
    for name, count in state.depot.run_length():
        train = first_of[name]
        brings: list[str] = []
        if state.depot.first_of_kind(train):
            effects = state.first_train_effects(name)
            brings += [f"phase {effects.phase}"] if effects.phase else []
            brings += [f"rusts {', '.join(effects.rusts)}"] if effects.rusts else []
            brings += [EVENT_TEXT.get(event, event) for event in effects.events]
        rows.append(DepotRow(name, int(count), train.price, train.rusts_on, tuple(brings)))
    return tuple(rows)


def _train_order(state: BaseGame) -> Callable[[str], tuple[int, str]]:
    """Sort train names in the order the title data lists them (2, 3, 4, ..., not by text)."""
    order = {t["name"]: k for k, t in enumerate(state.data["entities"]["trains"])}
    return lambda name: (order.get(name, len(order)), name)


def _player_certs(state: BaseGame, player: Player) -> tuple[str, ...]:
    out = []
    for corp in state.corporations.values():
        pct = corp.percent_owned_by(player)
        if pct:
            out.append(f"{corp.id} {pct}%" + ("P" if corp.president() is player else ""))
    return tuple(out)


def _companies_of(state: BaseGame, holder: object) -> tuple[str, ...]:
    return tuple(cid for cid, c in state.companies.items() if c.owner is holder and not c.closed)


def _corp_row(state: BaseGame, corp: Corporation) -> CorpRow:
    president = corp.president()
    price = state.share_price(corp) if corp.id in state.market.position else None
    return CorpRow(
        id=corp.id, name=corp.name, color=corp.color, text_color=corp.text_color,
        president=president.name if president else None, cash=corp.cash, share_price=price,
        trains=tuple(t.name for t in corp.trains), tokens_left=state.tokens_left(corp),
        treasury_pct=corp.treasury_percent(), pool_pct=corp.percent_owned_by(state.pool),
        floated=corp.floated, operated=corp.times_operated > 0,
        companies=_companies_of(state, corp),
    )
