"""How the engine's map marks look: a table from mark kind to plate colours and wording.

Only presentation: the engine says what a mark is and what it is worth now (`MapMark`); this
module picks the colours and words. A kind it does not know is still drawn, as a plain plate
with its label, so a title's new mark never disappears from the picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from render.view import MarkerView, TokenView

if TYPE_CHECKING:
    from engine.core.map_marks import MapMark


@dataclass(frozen=True)
class MarkStyle:
    fill: str
    text_color: str
    hollow: bool = False


# Resource colours follow the printed tokens: coal black, oil dark blue, ore rust.
RESOURCE_STYLE = {
    "coal": MarkStyle("#222222", "#ffffff"),
    "oil": MarkStyle("#1d3f8a", "#ffffff"),
    "ore": MarkStyle("#a0461e", "#ffffff"),
}
STYLES = {
    "subsidy": MarkStyle("#fff2b3", "#000000"),
    "bridge": MarkStyle("#6b6b6b", "#ffffff"),
    "city_bonus": MarkStyle("#ffffff", "#000000"),
    "value_token": MarkStyle("#8b0000", "#ffffff"),
    "company_town": MarkStyle("#ffffff", "#000000"),
}
PLAIN = MarkStyle("#ffffff", "#000000")
# Marks that change how something else is drawn rather than adding a plate.
NOT_PLATES = frozenset({"metropolis"})


def marker_views(marks: tuple[MapMark, ...], tokens: Mapping[str, TokenView]) -> tuple[MarkerView, ...]:
    return tuple(marker_view(mark, tokens) for mark in marks if mark.kind not in NOT_PLATES)


def marker_view(mark: MapMark, tokens: Mapping[str, TokenView]) -> MarkerView:
    if mark.kind == "resource_site":
        # A place where a token may go: outlined in the resource's colour, no value.
        return _plate(mark, mark.label, MarkStyle("#ffffff", RESOURCE_STYLE.get(mark.label, PLAIN).fill, True))
    if mark.kind == "resource":
        text = mark.label if mark.sides else f"{mark.label} +{mark.value}"
        return _plate(mark, text, RESOURCE_STYLE.get(mark.label, PLAIN))
    if mark.kind == "freight":
        token = tokens.get(mark.owner or "")
        style = MarkStyle(token.fill_color, token.text_color) if token else PLAIN
        return _plate(mark, f"{mark.source or ''} +{mark.value}".strip(), style)
    return _plate(mark, _text(mark), STYLES.get(mark.kind, PLAIN))


def _plate(mark: MapMark, text: str, style: MarkStyle) -> MarkerView:
    return MarkerView(
        kind=mark.kind.replace("_", "-"), text=text, fill=style.fill, text_color=style.text_color,
        values=tuple(("", value) for _, value in mark.sides),
        current_index=mark.side, hollow=style.hollow, owner=mark.owner, source=mark.source,
    )


def _text(mark: MapMark) -> str:
    if mark.kind == "bridge":
        return f"bridge +{mark.value}"
    if mark.kind == "city_bonus":
        return "" if mark.sides else f"+{mark.value}"
    if mark.kind == "value_token":
        return mark.source or "value"
    if mark.kind == "company_town":
        return f"others \u2212${mark.value}"
    return mark.label or mark.kind
