"""The one exception the engine raises for a move that the rules do not allow."""


class GameError(Exception):
    """An action the rules forbid, with a message written for the player.

    The game state is unchanged when this is raised.
    """
