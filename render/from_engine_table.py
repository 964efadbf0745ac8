"""Table rows from an engine position: players, corporations and the train depot.

Only lookups and formatting of what the engine holds; see render/from_engine.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation, Player
from engine.core.operating_round import OperatingRound
from engine.program_words import order_label
from render.from_market import ZONE_TYPES
from render.view import CorpRow, DepotRow, LoanBank, PlayerRow, PrivateRow

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.core.game import BaseGame

# How train events read in the depot table; an unknown event shows under its engine name with
# its underscores as spaces.
EVENT_TEXT = {"close_companies": "privates close", "signal_end_game": "game-end countdown"}


def player_rows(state: BaseGame) -> tuple[PlayerRow, ...]:
    acting = {id(p) for p in state.acting_players()}
    priority = state.priority_player
    return tuple(
        PlayerRow(
            name=p.name, cash=p.cash, certs=_player_certs(state, p),
            cert_count=state.certificate_count(p), cert_limit=state.cert_limit,
            value=state.player_value(p), has_priority=p is priority,
            companies=_companies_of(state, p), is_active=id(p) in acting,
            shorts=_shorts(state, p) if state.ledger.negative_holdings else None,
            bankrupt=p.bankrupt, standing_order=order_label(state.programs.of(p.key)),
        )
        for p in state.players
    )


def corp_rows(state: BaseGame) -> tuple[CorpRow, ...]:
    # Sizes are shown where a title has companies of other sizes than 10 shares (18USA's 2, 5, 10).
    sized = any(corp.share_percent != 10 for corp in state.corporations.values())
    turns = operating_turns(state)
    return tuple(_corp_row(state, corp, sized, turns.get(corp.id, (None, "")))
                 for corp in state.corporations.values())


def operating_turns(state: BaseGame) -> dict[str, tuple[int | None, str]]:
    """In an operating round, each company's place in its order and whether it has had its turn
    ("done"), is having it ("now") or waits (""), as the round says. In another round, the company
    that is to decide, if one is."""
    rnd = state.round
    if state.finished:
        return {}
    if not isinstance(rnd, OperatingRound):  # a company deciding in another round (18USA's mergers)
        acting = rnd.acting_entity(state)
        return {acting.id: (None, "now")} if isinstance(acting, Corporation) else {}
    return {cid: (k, turn) for k, (cid, turn) in enumerate(rnd.turns(state), 1)}


def private_rows(state: BaseGame) -> tuple[PrivateRow, ...]:
    """Private companies still open and in play (the engine's companies_in_play), with who holds them."""
    return tuple(PrivateRow(c.id, c.name, _holder(c.owner), c.value, c.revenue) for c in state.companies_in_play())


def loan_bank(state: BaseGame) -> LoanBank | None:
    """Loans left and the interest rate, for a title with loans. The lender is named as the
    title's data names it (18USA's Bank of New York)."""
    if not state.loans.enabled:
        return None
    name = "Bank of New York" if "bank_of_new_york" in state.data["entities"] else "Loans"
    # The rate in force: between operating rounds the engine's stored rate is the last round's,
    # while the loans taken since already set the next one.
    return LoanBank(name, state.loans.available(), state.loans.current_rate())


def depot_rows(state: BaseGame) -> tuple[DepotRow, ...]:
    """Trains still for sale, by kind, with what the first of a kind sets off (the engine's
    phase list, rust marks and train events; nothing once a kind has been sold). An unlimited
    kind is listed even before the depot has made one of its trains (it makes them as needed)."""
    listed: dict[str, tuple[int | None, int, str | None, str | None]] = {}
    for name, count in state.depot.run_length():
        train = next(t for t in state.depot.trains if t.name == name)
        listed.setdefault(name, (int(count), train.price, train.rusts_on, train.obsolete_on))
    for kind in state.depot.kinds:
        if kind.count is None:
            listed[kind.name] = (None, kind.price, kind.rusts_on, kind.obsolete_on)
    order = [kind.name for kind in state.depot.kinds]
    rows = []
    for name in sorted(listed, key=lambda n: order.index(n) if n in order else len(order)):
        count, price, rusts_on, obsolete_on = listed[name]
        brings: list[str] = []
        if name not in state.depot.sold_names:
            effects = state.first_train_effects(name)
            brings += [f"phase {effects.phase}"] if effects.phase else []
            brings += [f"rusts {', '.join(effects.rusts)}"] if effects.rusts else []
            brings += [EVENT_TEXT.get(event, event.replace("_", " ")) for event in effects.events]
        rows.append(DepotRow(name, count, price, rusts_or_obsolete(rusts_on, obsolete_on), tuple(brings)))
    return tuple(rows) + bank_sold_trains(state)


def bank_sold_trains(state: BaseGame) -> tuple[DepotRow, ...]:
    """Trains the bank sells beside the depot (18USA's Pullman cars, in any number), as the engine
    lists them: after the depot's, with the phase they go on sale in until it is reached."""
    return tuple(DepotRow(kind.name, kind.left, kind.price, None,
                          (f"on sale from phase {kind.on_sale_from}",) if kind.on_sale_from else ())
                 for kind in state.trains_beside_the_depot())


def rusts_or_obsolete(rusts_on: str | None, obsolete_on: str | None) -> str | None:
    """The depot's "rusts on" entry: a train that goes obsolete rather than rusting (18USA's
    2+, 3+, 4+) says so."""
    if rusts_on:
        return rusts_on
    return f"{obsolete_on} (obsolete)" if obsolete_on else None


def _train_order(state: BaseGame) -> Callable[[str], tuple[int, str]]:
    """Sort train names in the order the title data lists them (2, 3, 4, ..., not by text)."""
    order = {t["name"]: k for k, t in enumerate(state.data["entities"]["trains"])}
    return lambda name: (order.get(name, len(order)), name)


def _player_certs(state: BaseGame, player: Player) -> tuple[str, ...]:
    out = []
    for corp in state.corporations.values():
        # Short positions are listed apart (negative certificates); these are the shares held.
        pct = sum(share.percent for share in corp.shares_of(player) if share.percent > 0)
        if pct:
            out.append(f"{corp.id} {pct}%" + ("P" if corp.president() is player else ""))
    return tuple(out)


def _shorts(state: BaseGame, player: Player) -> tuple[str, ...]:
    out = []
    for corp in state.corporations.values():
        count = sum(1 for share in corp.shares_of(player) if share.percent < 0)
        if count:
            out.append(f"{corp.id} \u00d7{count}")
    return tuple(out)


def _holder(owner: object) -> str:
    if owner is None:
        return "bank"
    return str(getattr(owner, "id", "") if not isinstance(owner, Player) else owner.name) or "bank"


def _companies_of(state: BaseGame, holder: object) -> tuple[str, ...]:
    return tuple(cid for cid, c in state.companies.items() if c.owner is holder and not c.closed)


def _corp_row(state: BaseGame, corp: Corporation, sized: bool, turn: tuple[int | None, str]) -> CorpRow:
    president = corp.president()
    placed = corp.id in state.market.position
    price = state.share_price(corp) if placed else None
    cell_types = state.market.cell_of(corp.id).types if placed else ()
    return CorpRow(
        id=corp.id, name=corp.name, color=corp.color, text_color=corp.text_color,
        president=president.name if president else None, cash=corp.cash, share_price=price,
        trains=tuple(sorted((t.name for t in corp.trains), key=_train_order(state))),
        tokens_left=state.tokens_left(corp),
        treasury_pct=corp.treasury_percent(), pool_pct=corp.percent_owned_by(state.pool),
        floated=corp.floated, operated=corp.times_operated > 0,
        companies=_companies_of(state, corp),
        loans=state.loans.count(corp.id) if state.loans.enabled else None,
        size=state.total_shares(corp) if sized and corp.shares else None,
        area=next((kind for kind in ZONE_TYPES if kind in cell_types), None),
        interest_due=state.loans.interest_due(corp.id) if state.loans.enabled else 0,
        order=turn[0], turn=turn[1],
    )
