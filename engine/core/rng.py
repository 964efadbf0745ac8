"""The reference site's setup generator, so that a seed gives the same game there and here."""

from typing import TypeVar

T = TypeVar("T")

_MODULUS = 2**31
_MULTIPLIER = 1103515245
_INCREMENT = 12345


class SetupRandom:
    """Linear congruential generator as 18xx.games uses it for random setup."""

    def __init__(self, seed: int) -> None:
        self.state = seed % _MODULUS

    def draw(self) -> int:
        self.state = (_MULTIPLIER * self.state + _INCREMENT) % _MODULUS
        return self.state

    def shuffle(self, items: list[T]) -> list[T]:
        """One draw per item in list order, then sort by the drawn numbers."""
        keyed = [(self.draw(), index, item) for index, item in enumerate(items)]
        keyed.sort(key=lambda entry: (entry[0], entry[1]))
        return [item for _, _, item in keyed]


def seed_from_game(seed: object, game_id: object) -> int:
    """The seed of a logged game: settings.seed, else the first digits of its id."""
    if isinstance(seed, int):
        return seed
    if isinstance(seed, str) and seed.strip().lstrip("-").isdigit():
        return int(seed)
    digits = ""
    for char in str(game_id or ""):
        if char.isdigit():
            digits += char
        elif digits:
            break
    return int(digits) if digits else 0
