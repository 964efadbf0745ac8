"""Pictures of an earlier moment say which: the moment goes in each picture's title
("start of OR 3.2 (after action 748)"), so a picture shown later is not taken for now."""

from __future__ import annotations

from dataclasses import replace

from render.view import MapView, MarketView, TableView


def map_at(view: MapView, moment: str) -> MapView:
    return replace(view, caption=f"{moment} \u2014 {view.caption}" if view.caption else moment)


def market_at(view: MarketView, moment: str) -> MarketView:
    return replace(view, title=f"{view.title} \u2014 {moment}")


def table_at(view: TableView, moment: str) -> TableView:
    return replace(view, title=f"{view.title} \u2014 {moment}")
