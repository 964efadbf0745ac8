"""What players must keep in view besides whose turn it is: loans and the interest due, short
shares held, debts in a cash crisis, companies in a market area that ends them, and whatever a
title adds (`TitleRules.status_notes`), and the moves that would put a company into liquidation
(`TitleRules.ruin_warnings`). Read-only; front ends show the lines as they are.

Each line says which entities it is about (players' ids, companies' ids), so a front end can
show a player the lines that concern the move they must make now.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.game import BaseGame

# Market areas a company cannot leave by itself, in the words the line uses.
AREAS = {"liquidation": "in liquidation (it does not operate; its shares cannot be traded)",
         "acquisition": "in the acquisition area (it may be sold in the acquisition round)"}


@dataclass(frozen=True)
class StatusLine:
    text: str
    about: frozenset[str] = frozenset()  # entity ids, as text
    warning: bool = False  # a move that would put a company into liquidation, named before it is made


def status_lines(state: BaseGame) -> list[StatusLine]:
    if state.finished:
        return []
    lines = _loans(state) + _shorts(state) + _areas(state) + _crises(state)
    lines += [StatusLine(text, frozenset(about)) for text, about in state.status_notes()]
    return lines + [StatusLine(text, frozenset(about), warning=True) for text, about in state.ruin_warnings()]


def _loans(state: BaseGame) -> list[StatusLine]:
    loans = state.loans
    if not loans.enabled:
        return []
    rate = loans.current_rate()
    left = loans.available()
    bank = f"{left} loans left at the bank" if left is not None else "loans unlimited"
    head = StatusLine(f"Loans of ${loans.value}; interest ${rate} a loan each operating round; {bank}.")
    held = [StatusLine(f"{holder}: {count} loan{'s' if count > 1 else ''}, ${loans.interest_due(holder)} "
                       "interest due when it operates", frozenset({holder}))
            for holder, count in sorted(loans.held.items()) if count > 0]
    return [head, *held] if held else [head]


def _shorts(state: BaseGame) -> list[StatusLine]:
    lines = []
    for player in state.players:
        held = [f"{corp.id} ×{-corp.units(corp.percent_owned_by(player))}" for corp in state.corporations.values()
                if corp.percent_owned_by(player) < 0]
        if held:
            lines.append(StatusLine(f"{player.name} is short {', '.join(held)} (buy a share to close one)",
                                    frozenset({str(player.id)})))
    return lines


def _areas(state: BaseGame) -> list[StatusLine]:
    lines = []
    for corp in state.corporations.values():
        if corp.closed or corp.id not in state.market.position:
            continue
        types = state.market.cell_of(corp.id).types
        area = next((AREAS[kind] for kind in AREAS if kind in types), None)
        if area is not None:
            lines.append(StatusLine(f"{corp.id} is {area}", frozenset({corp.id})))
    return lines


def _crises(state: BaseGame) -> list[StatusLine]:
    names = {str(player.key): player for player in state.players}
    lines = []
    for debt in state.cash_crisis:
        player = names.get(debt.player)
        who = player.name if player is not None else debt.player
        about = {str(player.id)} if player is not None else set()
        lines.append(StatusLine(f"{who} is in a cash crisis: must raise ${debt.amount} ({debt.reason}) by "
                                "selling shares, or go bankrupt", frozenset(about)))
    return lines
