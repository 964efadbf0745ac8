"""What a tile lay did, in the words the log (and so the bot's reply) gives players.

A title's track code knows what happened: the printed tile laid, the power that laid it, what
came with the tile (18USA's resource tokens), what the company paid and for what, and what
spared it part of a printed cost. It fills a `LayAccount`; `line()` words it the same way for
every title, naming the tile by its printed number rather than the supply copy ("57", not
"57-1"), so players read what they would see on the table.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LayAccount:
    """One tile laid: by which company, where and how turned, and by whose power if not its own."""

    corporation: str
    tile: str  # the printed number: "7" for the site's "7coal-0"
    coord: str
    rotation: int
    by: str = ""  # the private or subsidy whose power laid it, as players know it
    also: tuple[str, ...] = ()  # what else it did, e.g. "places P1's coal token (...)"
    charges: tuple[tuple[str, int], ...] = ()  # (what for, dollars), each paid to the bank
    spared: tuple[tuple[str, int], ...] = ()  # (what spared it, dollars) of a printed cost

    def line(self) -> str:
        """"NP lays tile 7 in E25 (rotation 2) and places P1's coal token (...); pays $20 for
        a second tile action"."""
        words = f"{self.corporation} lays tile {self.tile} in {self.coord} (rotation {self.rotation})"
        if self.by:
            words += f" with {self.by}"
        if self.also:
            words += " and " + _and(list(self.also))
        paid = [(what, amount) for what, amount in self.charges if amount]
        if len(paid) == 1:
            words += f"; pays ${paid[0][1]} for {paid[0][0]}"
        elif paid:
            total = sum(amount for _, amount in paid)
            words += f"; pays ${total}: " + _and([f"${amount} for {what}" for what, amount in paid])
        for what, amount in self.spared:
            if amount:
                words += f"; {what} saves ${amount} of the terrain cost"
        return words


def terrain_words(types: tuple[str, ...]) -> str:
    """"the terrain (mountain)": what a terrain charge is for."""
    return f"the terrain ({', '.join(types)})" if types else "the terrain"


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
