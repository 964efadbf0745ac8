"""Things on a hex that a picture of the map must show and that are neither tiles nor stations.

A title's rules decide them (which subsidy a city still offers, what a bridge or a resource token
earns in the current phase, whose marker sits in a red area); the title hands them out through
`TitleRules.map_marks` so that render/ can draw them without knowing any rule.
"""

from __future__ import annotations

from dataclasses import dataclass

# A value that changes with the phase: (first phase it holds in, value), in phase order.
PhaseSide = tuple[str, int]


@dataclass(frozen=True)
class MapMark:
    """One mark on one hex.

    `kind` names what it is (a title documents its kinds); `value` is what it is worth now, in the
    current phase; `sides` lists every value it can have with the phase each starts in (empty when
    the value never changes) and `side` is the index of the one in force. `owner` is the company
    it belongs to, if any; `source` the private company or subsidy it came from; `label` a short
    name ("$30 Subsidy", "coal").
    """

    kind: str
    value: int = 0
    sides: tuple[PhaseSide, ...] = ()
    side: int = 0
    owner: str | None = None
    source: str | None = None
    label: str = ""
