"""Choosing one run per train: the path-disjoint combination with the highest total.

Branch and bound over the trains, longest first. Each train's options are sorted best first, so the
first complete combination is the greedy one and later ones must beat it. A branch is cut when its
total plus an upper bound for the trains still to choose cannot beat the best so far; the bound
takes, for each remaining train, its best option that shares no track with the runs already chosen.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One train's possible run as the combination search sees it."""

    revenue: int
    mask: int  # track paths, one bit each
    ends: int  # bit g set when the run ends in end-limit group g
    ref: Any  # what the caller needs to rebuild the run


Choice = list[Option | None]


@dataclass
class SearchOutcome:
    total: int
    choice: Choice
    proven: bool
    rejected: int  # new bests the caller's acceptance check turned down


def best_combination(
    options: Sequence[Sequence[Option]],
    *,
    same_as_previous: Sequence[bool],
    group_limits: Sequence[int] = (),
    bonus_limit: int = 0,
    company_bonus: Callable[[Choice], int] | None = None,
    accept: Callable[[Choice], bool] | None = None,
    deadline: float | None = None,
) -> SearchOutcome:
    """The best choice of at most one option per train (None: the train does not run).

    `options[i]` must be sorted by revenue, highest first. `same_as_previous[i]` says train i has
    exactly the options of train i-1 with the same values, so only one order of their runs is
    tried. Each combination's total is its revenues plus `company_bonus` (at most `bonus_limit`).
    `accept` is asked about every combination that would become the best; it may refuse.
    """
    count = len(options)
    tops = [opts[0].revenue if opts else 0 for opts in options]
    static = [0] * (count + 1)
    for index in range(count - 1, -1, -1):
        static[index] = static[index + 1] + max(tops[index], 0)
    best_total = -1
    best_choice: Choice = [None] * count
    rejected = 0
    nodes = 0
    timed_out = False
    chosen: Choice = []
    counts = [0] * len(group_limits)

    def room(index: int, used: int) -> int:
        """The most trains index.. can still add: each one's best run clear of `used`."""
        total = 0
        for position in range(index, count):
            for option in options[position]:
                if not option.mask & used:
                    total += max(option.revenue, 0)
                    break
        return total

    def fits(option: Option) -> bool:
        ends = option.ends
        group = 0
        while ends:
            if ends & 1 and counts[group] >= group_limits[group]:
                return False
            ends >>= 1
            group += 1
        return True

    def count_ends(option: Option, step: int) -> None:
        ends = option.ends
        group = 0
        while ends:
            if ends & 1:
                counts[group] += step
            ends >>= 1
            group += 1

    def leaf(total: int) -> None:
        nonlocal best_total, best_choice, rejected
        value = total + (company_bonus(chosen) if company_bonus else 0)
        if value <= best_total:
            return
        if accept is not None and not accept(list(chosen)):
            rejected += 1
            return
        best_total = value
        best_choice = list(chosen)

    def search(index: int, used: int, total: int, start: int) -> None:
        nonlocal nodes, timed_out
        if timed_out:
            return
        nodes += 1
        if deadline is not None and nodes % 512 == 0 and time.perf_counter() > deadline:
            timed_out = True
            return
        if index == count:
            leaf(total)
            return
        opts = options[index]
        twin = index + 1 < count and same_as_previous[index + 1]
        rest = static[index + 1] + bonus_limit
        for position in range(start, len(opts)):
            option = opts[position]
            if total + option.revenue + rest <= best_total:
                break  # sorted: no later option of this train can do better
            if option.mask & used or (option.ends and not fits(option)):
                continue
            now_used = used | option.mask
            if total + option.revenue + room(index + 1, now_used) + bonus_limit <= best_total:
                continue
            chosen.append(option)
            if option.ends:
                count_ends(option, 1)
            search(index + 1, now_used, total + option.revenue, position + 1 if twin else 0)
            if option.ends:
                count_ends(option, -1)
            chosen.pop()
            if timed_out:
                return
        # This train does not run; an identical next train then does not run either.
        if total + room(index + 1, used) + bonus_limit > best_total:
            chosen.append(None)
            search(index + 1, used, total, len(options[index + 1]) if twin else 0)
            chosen.pop()

    search(0, 0, 0, 0)
    return SearchOutcome(max(best_total, 0), best_choice, not timed_out, rejected)
