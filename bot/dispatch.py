"""One entry point for every command word, for front doors that take typed commands.

The terminal sends every line through ``handle``; Discord's cogs call the Moderator's
methods directly (they need to acknowledge before pictures are drawn) but button clicks
come through here too.
"""

from __future__ import annotations

from bot.model import Actor, Command, Reply
from bot.moderator import Moderator
from bot.route_search import DEFAULT_SECONDS
from bot.vocabulary import ALL, MOVES
from render.closeup import DEFAULT_RADIUS
from storage.limits import MAX_IMPORT_BYTES
from untrusted.files import FileRefused, read_limited
from untrusted.quote import quoted

PICTURES = {"game map": ("map",), "game market": ("market",), "game table": ("table",)}


async def handle(moderator: Moderator, game_id: int, actor: Actor, command: Command,
                 *, shuffle: bool = True) -> Reply:
    """Run a command on a game and return the full reply (pictures included)."""
    name = command.name
    if name not in ALL:
        words = ", ".join(sorted(f"/{w}" for w in ALL))
        return Reply.error(f"Unknown command /{name}. Commands: {words}.", game_id)
    if name in MOVES:
        return await moderator.perform(game_id, actor, command)
    if name == "auto show":
        return await moderator.standing_order(game_id, actor)
    if name == "auto back":
        return await moderator.come_back(game_id, actor)
    if name.startswith("auto "):
        return await moderator.finish(await moderator.set_standing_order(game_id, actor, command))
    if name in PICTURES and command.get("at") is not None:
        return await moderator.coming_back.pictures_at(game_id, PICTURES[name], str(command.get("at")), actor)
    if name == "game since":
        return await moderator.coming_back.since(game_id, actor)
    if name == "game mine":  # the terminal plays every seat: every unfinished game of its database
        return await moderator.coming_back.mine(actor, None, everyone=actor.user_id is None)
    if name == "game chart":
        return await moderator.coming_back.chart(game_id, str(command.get("kind", "")).strip().lower())
    if name == "game map" and command.get("around") is not None:
        return await moderator.pictures(game_id, ("map",), str(command.get("around")),
                                        int(command.get("radius", DEFAULT_RADIUS)))
    if name in PICTURES:
        return await moderator.pictures(game_id, PICTURES[name])
    if name == "game join":
        return await moderator.join(game_id, actor)
    if name == "game start":
        return await moderator.finish(await moderator.start(game_id, actor, shuffle=shuffle))
    if name == "game status":
        return await moderator.status(game_id)
    if name == "game privates":
        return await moderator.privates(game_id, command.get("company"))
    if name == "game log":
        return await moderator.log_lines(game_id, int(command.get("lines", 15)))
    if name == "game routes":
        return await moderator.search_routes(game_id, actor, float(command.get("seconds", DEFAULT_SECONDS)))
    if name == "game undo":
        return await moderator.finish(await moderator.undo(game_id, actor, int(command.get("steps", 1)),
                                                           command.at_seq))
    if name == "game end":
        return await moderator.finish(await moderator.end_game(game_id, actor))
    if name == "game accept":
        return await moderator.finish(await moderator.accept(game_id, actor))
    if name == "game decline":
        return await moderator.finish(await moderator.decline(game_id, actor))
    if name == "game import":
        return await _import_file(moderator, actor, str(command.get("file", "")))
    if name == "game export":
        return await moderator.export(game_id)
    if name == "game settings":
        return await moderator.settings(game_id, actor, dict(command.options))
    if name == "game replace":
        return await moderator.replace(game_id, actor, str(command.get("seat", "")), None, str(command.get("user", "")))
    if name == "game abandon":
        confirmed = abandon_confirmed(command.get("confirm"))
        if isinstance(confirmed, str):
            return Reply.error(confirmed, game_id)
        return await moderator.set_game_status(game_id, actor, "abandoned", confirmed=confirmed)
    if name in ("game pause", "game resume"):
        return await moderator.set_game_status(game_id, actor, "paused" if name == "game pause" else "active")
    return Reply.error(f"/{name} is not available here.", game_id)


def abandon_confirmed(confirm: object) -> bool | str:
    """``confirm:`` of /game abandon: True for yes, False when not given (the game asks first), or
    the refusal of any other answer."""
    if confirm is None or not str(confirm).strip():
        return False
    if str(confirm).strip().casefold() == "yes":
        return True
    return f"confirm: takes yes (to abandon the game now), not {quoted(str(confirm))}; nothing was changed."


async def _import_file(moderator: Moderator, actor: Actor, path: str) -> Reply:
    """The terminal imports from a file path (Discord passes the attachment's bytes)."""
    if not path.strip():
        return Reply.error("Import refused: file: names the file to import, e.g. /game import file:game.json. "
                           "Nothing was stored.")
    try:
        raw = read_limited(path, MAX_IMPORT_BYTES)  # never /dev/zero until the memory runs out
    except FileRefused as error:
        return Reply.error(f"Import refused: {error}. Nothing was stored.")
    reply = await moderator.import_game(actor, raw)
    if reply.ok:
        reply.text += f"\nPlay it with: stationmaster play --game {reply.game_id}"
    return reply
