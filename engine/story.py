"""The story of a game in numbers, for charts: players' values (as scored) after every round,
each company's share price through the game, and each company's revenue in every operating
round. Read from a `History`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.history import History
from engine.moments import SHORT_NAMES, rounds, short_title

KINDS = ("values", "prices", "revenue")
# The rounds whose names label a chart's x axis when not every round's name fits.
MAJOR_ROUNDS = (SHORT_NAMES["Stock Round"], SHORT_NAMES["Operating Round"], "start")


@dataclass(frozen=True)
class Series:
    name: str
    color: str | None  # the company's colour on the map; None: the chart picks one
    points: tuple[int | None, ...]  # one per x label; None where there is nothing to show


@dataclass(frozen=True)
class Chart:
    kind: str
    title: str
    y_label: str
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    # Which x labels to keep where not all fit: the stock and operating rounds.
    major: tuple[bool, ...] = ()


def chart(history: History, kind: str) -> Chart:
    """One of KINDS for the game so far."""
    if kind == "values":
        return player_values(history)
    if kind == "prices":
        return share_prices(history)
    if kind == "revenue":
        return revenues(history)
    raise ValueError(f"no chart {kind!r}; charts: {', '.join(KINDS)}")


def _round_ends(history: History) -> list[tuple[str, int]]:
    """(label, count of actions) at the start and after every round that ended, then now."""
    listed = rounds(history)
    points = [("start", 0)]
    points += [(short_title(title), listed[number + 1][1]) for number, (title, _) in enumerate(listed[:-1])]
    if history.entries and points[-1][1] != len(history.entries):
        points.append(("now", len(history.entries)))
    return points


def player_values(history: History) -> Chart:
    """Each player's value as the game scores it (cash, shares at market price, less shorts)
    after every round."""
    ends = _round_ends(history)
    state = history.state
    now = {player.key: state.player_value(player) for player in state.players}
    table = [history.facts_after(count).values or now for _, count in ends]  # a round end has values
    series = [Series(name, None, tuple(values[key] for values in table)) for key, name in history.names.items()]
    return _chart("values", f"{history.title}: players' value after each round", "value ($)",
                  [label for label, _ in ends], series)


def share_prices(history: History) -> Chart:
    """Each company's share price at the end of every round (none while off the market)."""
    ends = _round_ends(history)
    colors = history.company_colors()
    seen = [corp for corp in colors if any(corp in history.facts_after(count).prices for _, count in ends)]
    series = [Series(corp, colors[corp], tuple(history.facts_after(count).prices.get(corp) for _, count in ends))
              for corp in seen]
    return _chart("prices", f"{history.title}: share prices after each round", "share price ($)",
                  [label for label, _ in ends], series)


def revenues(history: History) -> Chart:
    """What each company's trains earned in every operating round (none where it did not run)."""
    earned: dict[str, dict[str, int]] = {}
    order: list[str] = []
    for entry in history.entries:
        if entry.revenue is None:
            continue
        heading = short_title(entry.made_in)
        if heading not in earned:
            earned[heading] = {}
            order.append(heading)
        corp, revenue = entry.revenue
        earned[heading][corp] = revenue
    colors = history.company_colors()
    companies = [corp for corp in colors if any(corp in by_corp for by_corp in earned.values())]
    series = [Series(corp, colors[corp], tuple(earned[heading].get(corp) for heading in order))
              for corp in companies]
    return _chart("revenue", f"{history.title}: revenue per operating round", "revenue ($)", order, series)


def _chart(kind: str, title: str, y_label: str, labels: list[str], series: list[Series]) -> Chart:
    major = tuple(label.split(" ")[0] in MAJOR_ROUNDS for label in labels)
    return Chart(kind, title, y_label, tuple(labels), tuple(series), major)
