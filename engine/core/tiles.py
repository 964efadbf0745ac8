"""Tile definitions: stops, track paths, rotation and the upgrade test on paths."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")

# An endpoint of a path: ("edge", 0..5), ("city", i), ("town", i), ("offboard", i), ("junction", 0).
Endpoint = tuple[str, int]
Path = tuple[Endpoint, Endpoint]
Link = tuple[int, Endpoint, int]  # (path index, far endpoint, which end of the path it leaves from)
STOP_KINDS = ("city", "town", "offboard")


@dataclass(frozen=True)
class StopDef:
    """A revenue location printed on a tile or hex."""

    kind: str
    index: int
    part_index: int
    revenue: int | tuple[tuple[str, int], ...]
    slots: int = 0
    distance_cost: int = 1
    must_end_here: bool = False
    groups: tuple[str, ...] = ()
    # A stop a route may pass through but never start or end at (18USA rural junctions).
    may_not_end_here: bool = False

    def revenue_in(self, colors_available: tuple[str, ...]) -> int:
        """The value in force when the phase makes `colors_available` available."""
        if isinstance(self.revenue, int):
            return self.revenue
        best = 0
        for color, value in self.revenue:
            if color in colors_available:
                best = value
        return best

    def all_revenues(self) -> list[tuple[str, int]]:
        if isinstance(self.revenue, int):
            return [("all", self.revenue)]
        return list(self.revenue)

    def __deepcopy__(self, memo: dict[int, Any]) -> StopDef:
        return self


@dataclass(frozen=True)
class TileDef:
    """A tile (or a printed hex) at rotation 0."""

    name: str
    color: str
    label: str | None
    stops: tuple[StopDef, ...]
    paths: tuple[Path, ...]
    upgrades_to: tuple[str, ...] = ()
    count: int | None = None
    junction: bool = False
    _exits: frozenset[int] = field(default=frozenset(), compare=False)
    # Every label the tile shows: `label` first, then symbol labels (18USA's resource symbols).
    labels: tuple[str, ...] = ()
    # Upgrades a title allows beyond the generic chart (read by the title's upgrade hook).
    upgrades_special: tuple[str, ...] = ()
    kind: str | None = None
    # Slots of city 0 that hold a neutral token as soon as the tile is laid.
    neutral_slots: tuple[int, ...] = ()

    # The exits in each rotation, asked for every tile, hex and rotation of a legal-moves query
    # (worked out at the first question: most tiles of a game's set are never asked about).
    _turned_exits: tuple[frozenset[int], ...] | None = field(init=False, repr=False, compare=False,
                                                              default=None)
    # The track shape of each rotation asked for so far (see `shape`).
    _shapes: dict[int, TrackShape] = field(init=False, repr=False, compare=False, default_factory=dict)
    # The paths of each rotation asked for so far: every walk over the map asks for them per hex.
    _turned_paths: dict[int, tuple[Path, ...]] = field(init=False, repr=False, compare=False,
                                                        default_factory=dict)
    # The paths of each rotation by endpoint, asked for so far (see `links`).
    _links: dict[int, dict[Endpoint, tuple[Link, ...]]] = field(init=False, repr=False, compare=False,
                                                                default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> TileDef:
        return self

    @property
    def cities(self) -> list[StopDef]:
        return [stop for stop in self.stops if stop.kind == "city"]

    @property
    def towns(self) -> list[StopDef]:
        return [stop for stop in self.stops if stop.kind == "town"]

    def stop(self, kind: str, index: int) -> StopDef:
        for candidate in self.stops:
            if candidate.kind == kind and candidate.index == index:
                return candidate
        raise KeyError((kind, index))

    def stop_by_part(self, part_index: int) -> StopDef | None:
        for candidate in self.stops:
            if candidate.part_index == part_index:
                return candidate
        return None

    def rotated_paths(self, rotation: int) -> list[Path]:
        found = self._turned_paths.get(rotation)
        if found is None:
            found = self._turned_paths[rotation] = tuple(
                (rotate(a, rotation), rotate(b, rotation)) for a, b in self.paths)
        return list(found)

    def links(self, rotation: int) -> dict[Endpoint, tuple[Link, ...]]:
        """For each endpoint in this rotation, the paths that leave it: (path index in
        `rotated_paths`, the far endpoint, 0 when the endpoint is the path's first end, else 1).
        A walk over the map follows these instead of reading every path of a hex at each step.
        Shared: read it, never change it."""
        found = self._links.get(rotation)
        if found is None:
            links: dict[Endpoint, list[Link]] = {}
            for index, (a, b) in enumerate(self.rotated_paths(rotation)):
                links.setdefault(a, []).append((index, b, 0))
                if b != a:
                    links.setdefault(b, []).append((index, a, 1))
            found = self._links[rotation] = {end: tuple(leaving) for end, leaving in links.items()}
        return found

    def shape(self, rotation: int) -> TrackShape:
        """The track in this rotation as an upgrade must keep it (worked out once per rotation)."""
        rotation %= 6
        found = self._shapes.get(rotation)
        if found is None:
            found = self._shapes[rotation] = track_shape(self.rotated_paths(rotation))
        return found

    def exits(self, rotation: int) -> set[int]:
        turned = self._turned_exits
        if turned is None:
            turned = tuple(frozenset((edge + turn) % 6 for edge in self._exits) for turn in range(6))
            object.__setattr__(self, "_turned_exits", turned)
        return set(turned[rotation % 6])

    def color_rank(self) -> int:
        """Position in the upgrade sequence white, yellow, green, brown, gray (-1 off it)."""
        return COLOR_ORDER.index(self.color) if self.color in COLOR_ORDER else -1


def rotate(endpoint: Endpoint, rotation: int) -> Endpoint:
    kind, index = endpoint
    if kind == "edge":
        return (kind, (index + rotation) % 6)
    return endpoint


def _endpoint(raw: dict[str, Any]) -> Endpoint:
    for kind in ("edge", "city", "town", "offboard"):
        if kind in raw:
            return (kind, int(raw[kind]))
    if raw.get("junction"):
        return ("junction", 0)
    raise ValueError(f"unknown path endpoint {raw}")


def _revenue(raw: Any) -> int | tuple[tuple[str, int], ...]:
    if isinstance(raw, dict):
        return tuple(sorted(raw.items(), key=lambda item: COLOR_ORDER.index(item[0])))
    if isinstance(raw, int):
        return raw
    return 0


def parse_stops(raw: dict[str, Any]) -> tuple[StopDef, ...]:
    stops: list[StopDef] = []
    for city in raw.get("cities", []):
        stops.append(
            StopDef("city", city["index"], city["part_index"], _revenue(city["revenue"]),
                    slots=city.get("slots", 1), groups=tuple(city.get("groups") or ()))
        )
    for town in raw.get("towns", []):
        stops.append(
            StopDef("town", town["index"], town["part_index"], _revenue(town["revenue"]),
                    distance_cost=town.get("distance_cost", 1), groups=tuple(town.get("groups") or ()),
                    must_end_here=bool(town.get("route_must_end_here", False)),
                    may_not_end_here=bool(town.get("route_may_not_end_here", False)))
        )
    for offboard in raw.get("offboards", []):
        stops.append(
            StopDef("offboard", offboard["index"], offboard["part_index"],
                    _revenue(offboard["revenue"]), distance_cost=offboard.get("distance_cost", 1),
                    must_end_here=bool(offboard.get("route_must_end_here", True)),
                    groups=tuple(offboard.get("groups") or ()))
        )
    return tuple(stops)


def parse_tile(raw: dict[str, Any], name: str | None = None, color: str | None = None) -> TileDef:
    paths = tuple((_endpoint(p["a"]), _endpoint(p["b"])) for p in raw.get("paths", []))
    exits = frozenset(ep[1] for path in paths for ep in path if ep[0] == "edge")
    count = raw.get("count")
    return TileDef(
        name=name or raw["name"],
        color=color or raw["color"],
        label=raw.get("label"),
        stops=parse_stops(raw),
        paths=paths,
        upgrades_to=tuple(raw.get("upgrades_to", ())),
        count=count if isinstance(count, int) else None,
        junction=bool(raw.get("junction")),
        _exits=exits,
        labels=_labels(raw),
        upgrades_special=tuple(raw.get("upgrades_to_special", ())),
        kind=raw.get("kind"),
        neutral_slots=_neutral_slots(raw),
    )


def _labels(raw: dict[str, Any]) -> tuple[str, ...]:
    labels = [raw["label"]] if raw.get("label") else []
    labels += [label for label in (*raw.get("labels", ()), *raw.get("resources", ())) if label not in labels]
    return tuple(labels)


def _neutral_slots(raw: dict[str, Any]) -> tuple[int, ...]:
    slot = raw.get("neutral_token_in_slot")
    return (int(slot),) if isinstance(slot, int) else ()


def path_signatures(paths: list[Path]) -> set[tuple[Any, ...]]:
    """What an upgrade must keep: track between the same edges, or from an edge into a stop."""
    signatures: set[tuple[Any, ...]] = set()
    for a, b in paths:
        kinds = {a[0], b[0]}
        if kinds == {"edge"}:
            signatures.add(("track", frozenset((a[1], b[1]))))
        elif "edge" in kinds:
            edge = a if a[0] == "edge" else b
            other = b if edge is a else a
            kind = "stop" if other[0] in ("city", "town") else other[0]
            signatures.add((kind, edge[1]))
    return signatures


def junction_pairs(paths: list[Path]) -> set[frozenset[int]]:
    """Edges joined through a centre junction count as through track between every pair."""
    edges = [a[1] if a[0] == "edge" else b[1] for a, b in paths if "junction" in (a[0], b[0])]
    return {frozenset((x, y)) for i, x in enumerate(edges) for y in edges[i + 1:]}


@dataclass(frozen=True)
class TrackShape:
    """A tile's track in one rotation, as far as an upgrade must keep it."""

    signatures: frozenset[tuple[Any, ...]]
    tracks: frozenset[frozenset[int]]  # edge pairs joined by track, through a junction too
    junction_pairs: frozenset[frozenset[int]]

    def kept_by(self, new: TrackShape) -> bool:
        """Every piece of this track appears in `new` in the same orientation."""
        for sig in self.signatures:
            if sig[0] == "track":
                if sig[1] not in new.tracks:
                    return False
            elif sig not in new.signatures:
                return False
        return self.junction_pairs <= new.tracks


def track_shape(paths: list[Path]) -> TrackShape:
    signatures = path_signatures(paths)
    pairs = junction_pairs(paths)
    tracks = {sig[1] for sig in signatures if sig[0] == "track"} | pairs
    return TrackShape(frozenset(signatures), frozenset(tracks), frozenset(pairs))


def keeps_old_track(old: list[Path], new: list[Path]) -> bool:
    """Every piece of the old track appears on the new tile in the same orientation."""
    return track_shape(old).kept_by(track_shape(new))
