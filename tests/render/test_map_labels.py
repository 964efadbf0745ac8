"""Tile labels ("NY", "CLE", "RHQ", "DEN", "C.T.") never sit on a city's stations or its
metropolis ring, on real 18USA maps where the crowded hexes are: fixture 109372 late in phase 8
and at its end, and the end of a generated game with four-slot metropolises (Denver, Dallas-Fort
Worth). Before, the label fell back on the least crowded of fixed spots and covered "NY" with New
York's ring and Omaha's ATSF token with "RHQ"; and a place name in a hex with no free room went over
the city's stations (Dallas-Fort Worth's NYC station at the end of randplay_18USA_5p_s8505)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

from engine import load_game
from engine.core.game import BaseGame
from render.cli import truncate_log
from render.from_engine import map_view
from render.map_svg import map_svg
from render.svgkit import text_width

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = {
    "109372 OR 5.2": (ROOT / "tests/data/fixtures/18USA/109372.json", 1327),
    "109372 end": (ROOT / "tests/data/fixtures/18USA/109372.json", None),
    "s8405 end": (ROOT / "tests/data/generated/18USA/randplay_18USA_4p_s8405.json", None),
    "s8505 end": (ROOT / "tests/data/generated/18USA/randplay_18USA_5p_s8505.json", None),
}


@cache
def position(name: str) -> BaseGame:
    path, upto = POSITIONS[name]
    return load_game(truncate_log(json.loads(path.read_text()), upto)).state


def discs(root: ET.Element) -> list[tuple[float, float, float]]:
    """Every station slot, token and metropolis ring as a disc (cx, cy, r)."""
    found = []
    for e in root.iter():
        cls = e.get("class") or ""
        if e.tag.endswith("circle") and ("slot" in cls.split() or cls == "metropolis"):
            found.append((float(e.get("cx", 0)), float(e.get("cy", 0)), float(e.get("r", 0))))
    return found


def stations(root: ET.Element) -> list[tuple[float, float, float]]:
    """Every station token as a disc (cx, cy, r)."""
    found = []
    for token in root.iter():
        if token.get("class") == "token":
            disc = next(e for e in token if e.tag.endswith("circle"))
            found.append((float(disc.get("cx", 0)), float(disc.get("cy", 0)), float(disc.get("r", 0))))
    return found


def label_boxes(root: ET.Element, cls: str = "label") -> list[tuple[str, float, float, float, float]]:
    """Each label's (or other text's) text and box (left, top, right, bottom); svgkit puts the
    baseline 0.36 em below the centre."""
    boxes = []
    for e in root.iter():
        if e.tag.endswith("text") and e.get("class") == cls and e.text:
            size = float(e.get("font-size", 0))
            half = text_width(e.text, size, bold=e.get("font-weight") == "bold") / 2
            x, y = float(e.get("x", 0)), float(e.get("y", 0)) - 0.36 * size
            boxes.append((e.text, x - half, y - size / 2, x + half, y + size / 2))
    return boxes


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_labels_keep_off_cities_and_stations(name: str) -> None:
    root = ET.fromstring(map_svg(map_view(position(name))))
    boxes = label_boxes(root)
    assert "NY" in {label for label, *_ in boxes}
    assert covering(boxes, discs(root)) == []


def covering(boxes: list[tuple[str, float, float, float, float]],
             found: list[tuple[float, float, float]]) -> list[str]:
    covered = []
    for label, left, top, right, bottom in boxes:
        for cx, cy, r in found:
            nearest = (min(max(cx, left), right), min(max(cy, top), bottom))
            if (nearest[0] - cx) ** 2 + (nearest[1] - cy) ** 2 < r * r:
                covered.append(label)
    return covered


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_place_names_keep_off_stations(name: str) -> None:
    root = ET.fromstring(map_svg(map_view(position(name))))
    names = label_boxes(root, "location-name")
    assert len(names) > 50
    assert covering(names, stations(root)) == []
