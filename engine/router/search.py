"""Choosing one run per train: the track-disjoint combination with the highest total.

A greedy answer comes first (each train in turn takes its best run clear of the runs before);
runs too poor to beat it even beside every other train's best run are dropped. Then branch and
bound over the trains, longest first, each train's runs sorted best first: a branch is cut when
its total plus an upper bound for the trains still to choose cannot beat the best so far; the
bound takes, for each remaining train, its best run that shares no track with the runs chosen.

Which runs are still open to a train is kept as a bit set over its sorted runs: choosing a run
clears, for every later train, the runs that share track with it (one precomputed set per path or
hex side). The best open run is then the lowest set bit, so the bound costs a few integer
operations instead of a scan through runs that collide.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.router.clock import Deadline, passed

POLL_EVERY = 64  # search nodes (and options weighed) between looks at the clock
SCAN_FIRST = 16  # runs tried one by one before a bound falls back on the blocker sets


class Option(NamedTuple):
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


class _Blockers:
    """For one train: which of its options each track path rules out, as bit sets (built lazily)."""

    def __init__(self, options: Sequence[Option]) -> None:
        self.options = options
        self.by_path: dict[int, int] | None = None
        self.memo: dict[int, int] = {}

    def _build(self) -> dict[int, int]:
        # Bits are set in byte arrays and turned into integers once: or-ing into a growing
        # integer option by option would take time quadratic in the number of options.
        size = len(self.options) // 8 + 1
        maps: dict[int, bytearray] = {}
        for position, option in enumerate(self.options):
            byte, bit = position >> 3, 1 << (position & 7)
            mask = option.mask
            while mask:
                low = mask & -mask
                path = low.bit_length() - 1
                bitmap = maps.get(path)
                if bitmap is None:
                    bitmap = maps[path] = bytearray(size)
                bitmap[byte] |= bit
                mask ^= low
        return {path: int.from_bytes(bitmap, "little") for path, bitmap in maps.items()}

    def blocked_by(self, mask: int) -> int:
        found = self.memo.get(mask)
        if found is None:
            if self.by_path is None:
                self.by_path = self._build()
            found = 0
            rest = mask
            while rest:
                low = rest & -rest
                found |= self.by_path.get(low.bit_length() - 1, 0)
                rest ^= low
            self.memo[mask] = found
        return found


def best_combination(
    options: Sequence[Sequence[Option]],
    *,
    same_as_previous: Sequence[bool],
    group_limits: Sequence[int] = (),
    bonus_limit: int = 0,
    company_bonus: Callable[[Choice], int] | None = None,
    accept: Callable[[Choice], bool] | None = None,
    deadline: Deadline | None = None,
) -> SearchOutcome:
    """The best choice of at most one option per train (None: the train does not run).

    `options[i]` must be sorted by revenue, highest first. `same_as_previous[i]` says train i has
    exactly the options of train i-1 with the same values, so only one order of their runs is
    tried. Each combination's total is its revenues plus `company_bonus` (at most `bonus_limit`).
    `accept` is asked about every combination that would become the best; it may refuse.
    """
    count = len(options)
    lists: list[list[Option]] = [list(opts) for opts in options]
    best_total = -1
    best_choice: Choice = [None] * count
    rejected = 0
    nodes = 0
    timed_out = False
    chosen: Choice = []
    counts = [0] * len(group_limits)

    def best_open(index: int, open_set: int) -> int:
        if not open_set:
            return 0
        return max(lists[index][(open_set & -open_set).bit_length() - 1].revenue, 0)

    def hopeless(index: int, open_sets: list[int], tops: list[int], mask: int, total: int) -> bool:
        """True when trains index.. cannot lift `total` above the best so far once `mask` is taken.

        Each later train adds at most its best open run clear of `mask` (or 0). A few of its best
        runs are tried one by one, stopping early when they are too poor to matter even if every
        other train ran its best; past that, the precomputed blocker sets answer at once.
        """
        need = best_total - total - bonus_limit  # the later trains must add more than this
        bound = sum(tops)
        for offset, top in enumerate(tops):
            others = bound - top
            cutoff = max(need - others, 0)
            position = index + offset
            opts = lists[position]
            remaining = open_sets[position]
            gain = -1
            for _ in range(SCAN_FIRST):
                if not remaining:
                    gain = 0
                    break
                low = remaining & -remaining
                option = opts[low.bit_length() - 1]
                if option.revenue <= cutoff:
                    gain = cutoff
                    break
                if not option.mask & mask:
                    gain = option.revenue
                    break
                remaining ^= low
            if gain < 0:
                gain = best_open(position, remaining & ~blockers[position].blocked_by(mask))
            bound = others + gain
            if bound <= need:
                return True
        return bound <= need

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

    def search(index: int, open_sets: list[int], total: int) -> None:
        nonlocal nodes, timed_out
        nodes += 1
        # The clock is read only once an answer exists, so a search out of time still has one.
        if deadline is not None and best_total >= 0 and nodes % POLL_EVERY == 0 and passed(deadline):
            timed_out = True
        if timed_out:
            return
        if index == count:
            leaf(total)
            return
        opts = lists[index]
        twin = index + 1 < count and same_as_previous[index + 1]
        later = range(index + 1, count)
        # What each later train could add at most, whichever run this train takes.
        tops = [best_open(j, open_sets[j]) for j in later]
        rest = sum(tops) + bonus_limit
        remaining = open_sets[index]
        while remaining:
            low = remaining & -remaining
            remaining ^= low
            option = opts[low.bit_length() - 1]
            if total + option.revenue + rest <= best_total:
                break  # sorted: no later option of this train can do better
            if option.ends and not fits(option):
                continue
            # Options dismissed as hopeless count as nodes too: with long lists, one node may
            # dismiss thousands of them.
            nodes += 1
            if deadline is not None and nodes % POLL_EVERY == 0 and passed(deadline):
                timed_out = True
                return
            if hopeless(index + 1, open_sets, tops, option.mask, total + option.revenue):
                continue
            now_open = list(open_sets)
            for j in later:
                now_open[j] = open_sets[j] & ~blockers[j].blocked_by(option.mask)
            if twin:
                now_open[index + 1] &= ~((low << 1) - 1)  # its twin takes a later option
            chosen.append(option)
            if option.ends:
                count_ends(option, 1)
            search(index + 1, now_open, total + option.revenue)
            if option.ends:
                count_ends(option, -1)
            chosen.pop()
            if timed_out:
                return
        # This train does not run; an identical next train then does not run either.
        if total + rest > best_total:
            now_open = list(open_sets)
            if twin:
                now_open[index + 1] = 0
            chosen.append(None)
            search(index + 1, now_open, total)
            chosen.pop()

    # A first answer, greedily: each train in turn takes its best run clear of the ones before.
    used = 0
    for opts in lists:
        pick = next((option for option in opts
                     if not option.mask & used and (not option.ends or fits(option))), None)
        chosen.append(pick)
        if pick is not None:
            used |= pick.mask
            count_ends(pick, 1)
    leaf(sum(option.revenue for option in chosen if option is not None))
    for option in chosen:
        if option is not None:
            count_ends(option, -1)
    chosen.clear()
    # Only runs that could beat it matter: a run worth no more than the best so far less every
    # other train's best run cannot be part of a better answer. Lists are sorted, so keep a prefix.
    if best_total >= 0:
        tops = [max(opts[0].revenue, 0) if opts else 0 for opts in lists]
        for index, opts in enumerate(lists):
            floor = best_total - bonus_limit - (sum(tops) - tops[index])
            keep = 0
            while keep < len(opts) and opts[keep].revenue > floor:
                keep += 1
            del opts[keep:]
    blockers = [_Blockers(opts) for opts in lists]
    search(0, [(1 << len(opts)) - 1 for opts in lists], 0)
    return SearchOutcome(max(best_total, 0), best_choice, not timed_out, rejected)
