"""How many times an 18USA private company's card lets it act, by kind of use, and when using
it up closes it (the appendix's cards, as transcribed in the title's data).

A card may give more than one kind: P21 has a bridge token and a resource token, each counted on
its own (using one leaves the other).
"""

from __future__ import annotations

from engine.core.entities import Company

BRIDGE = "bridge"  # P2, P21 (one token each), P22 (two)
RESOURCE = "resource"  # resource tokens: P1, P3, P4 (one), P12, P18, P24 (two), P28 (three), P21 (one)
JUNCTION = "junction"  # P26's three rural junction tiles


def allowance(company: Company, kind: str) -> int:
    """How many uses of `kind` the company's card gives in all."""
    ability = company.ability
    if kind == BRIDGE:
        return int(ability.get("bridge_tokens") or 0)
    if kind == RESOURCE:
        if ability.get("type") == "resource_token":
            return int(ability.get("tokens") or 0)
        return int(ability.get("resource_tokens") or 0)
    if kind == JUNCTION:
        return len(ability.get("tiles") or ()) if ability.get("type") == "special_tile" else 0
    return 0


def uses_left(company: Company, kind: str) -> int:
    return 0 if company.closed else max(0, allowance(company, kind) - company.uses.get(kind, 0))


def use(company: Company, kind: str) -> None:
    """One use of `kind`; a card that closes when used up closes with its last use."""
    company.uses[kind] = company.uses.get(kind, 0) + 1
    if company.ability.get("closes_when_used_up") and uses_left(company, kind) <= 0:
        company.closed = True
