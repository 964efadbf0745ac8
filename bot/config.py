"""The bot's settings: one typed object read from config.toml, the token from the environment.

The Discord token is never read from the file (a config file gets copied, committed and
pasted into chats); it comes only from the ``DISCORD_TOKEN`` environment variable and is
kept out of ``repr`` so that logging the settings cannot leak it.
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from storage import GameSettings, ShardSet, StorageError, parse_database_url
from storage.cli import DEFAULT_DB  # one default database for every command
from untrusted.files import FileRefused, read_limited

TOKEN_ENV = "DISCORD_TOKEN"


class ConfigError(ValueError):
    """The configuration file is missing, unreadable or has a wrong value."""


# Reminder intervals a game may have, in hours (from the config file or /game settings):
# anything outside would either spam a thread or lie beyond what a date can hold.
REMINDER_HOURS = {"first_after_hours": (0.25, 720.0), "repeat_hours": (1.0, 720.0)}
MAX_ZONE_LENGTH = 64
MAX_ROUTER_BUDGET = 30.0  # seconds; a move waits for the proposal, and Discord for the move
MAX_FOLLOW_UP = 60.0  # seconds; a follow-up search holds the worker /game routes also needs
MAX_CONFIG_BYTES = 1024 * 1024  # a configuration is a few lines; a file past this is not one
MAX_SHARDS = 65_536  # far beyond any bot this serves; a typo such as 1e9 is refused


def hours_problem(key: str, value: object) -> str | None:
    """Why ``value`` cannot be the reminder setting ``key`` (None if it can)."""
    low, high = REMINDER_HOURS[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not low <= value <= high:
        return f"{key} must be a number of hours from {low:g} to {high:g} ({high / 24:g} days), not {value!r}"
    return None


def zone_problem(name: object) -> str | None:
    """Why ``name`` is not a time zone this machine knows (None if it is)."""
    if not isinstance(name, str) or not name or len(name) > MAX_ZONE_LENGTH:
        return "time_zone must be a name such as \"Europe/Berlin\""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, UnicodeError, OSError):
        return f"unknown time zone {name[:MAX_ZONE_LENGTH]!r} (e.g. Europe/Berlin, America/Chicago or UTC)"
    return None


@dataclass(frozen=True)
class ReminderDefaults:
    first_after_hours: float = 24.0
    repeat_hours: float = 24.0
    quiet_start_hour: int | None = None
    quiet_end_hour: int | None = None
    time_zone: str = "UTC"

    def game_settings(self) -> GameSettings:
        """The settings a new game starts with."""
        return GameSettings(
            reminder_first_after_hours=self.first_after_hours,
            reminder_repeat_hours=self.repeat_hours,
            quiet_start_hour=self.quiet_start_hour,
            quiet_end_hour=self.quiet_end_hour,
            quiet_time_zone=self.time_zone,
        )


@dataclass(frozen=True)
class Settings:
    db_path: str = DEFAULT_DB
    # Where the games are kept: sqlite:///FILE (from db_path unless set) or postgresql://...
    database_url: str = ""
    guild_ids: tuple[int, ...] = ()  # sync commands to these guilds at once (development)
    images: bool = True
    router_budget: float = 2.0  # seconds the route optimizer may search for a proposal
    # seconds it searches on by itself after a proposal it could not prove (0: it does not)
    router_follow_up: float = 20.0
    reminders: ReminderDefaults = field(default_factory=ReminderDefaults)
    # Discord shards: how many the bot has in all, and which of them this process runs (None:
    # one process runs the bot, unsharded unless Discord asks for shards).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    token: str | None = field(default=None, repr=False)

    @property
    def shards(self) -> ShardSet | None:
        """The shards this process serves, when the bot's guilds are shared among several."""
        if self.shard_count is None or self.shard_count == 1:
            return None
        return ShardSet(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @property
    def store_url(self) -> str:
        """The store to open: ``database_url``, else the SQLite file ``db_path``."""
        return self.database_url or f"sqlite:///{self.db_path}"


def _number(table: dict[str, Any], key: str, default: float, low: float, high: float,
            *, low_allowed: bool = False) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not (low <= value if low_allowed else low < value) or not value <= high:
        allowed = f"from {low:g} to {high:g}" if low_allowed else f"greater than {low:g} and at most {high:g}"
        raise ConfigError(f"{key} must be a number {allowed}, not {value!r}")
    return float(value)


def _hour(table: dict[str, Any], key: str) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 23:
        raise ConfigError(f"{key} must be an hour from 0 to 23, not {value!r}")
    return value


def _shards(bot: dict[str, Any]) -> tuple[int | None, tuple[int, ...] | None]:
    count, ids = bot.get("shard_count"), bot.get("shard_ids")
    if count is None:
        if ids is not None:
            raise ConfigError("shard_ids needs shard_count (the bot's number of shards in all)")
        return None, None
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"shard_count must be a whole number from 1 to {MAX_SHARDS}, not {count!r}")
    if ids is None:
        return count, None
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) and not isinstance(i, bool)
                                                       for i in ids):
        raise ConfigError(f"shard_ids must be a list of shard numbers from 0 to {count - 1}, such as [0, 1]")
    if any(not 0 <= i < count for i in ids):
        raise ConfigError(f"shard_ids must be from 0 to {count - 1} (shard_count is {count}), not {ids}")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"shard_ids lists a shard twice: {ids}")
    return count, tuple(sorted(ids))


def parse_settings(data: dict[str, Any], environ: dict[str, str] | None = None) -> Settings:
    """Settings from the parsed TOML document (sections [bot] and [reminders])."""
    environ = dict(os.environ) if environ is None else environ
    if "token" in data.get("bot", {}) or "token" in data:
        raise ConfigError(f"do not put the token in the config file; set {TOKEN_ENV} instead")
    bot = data.get("bot", {})
    reminders = data.get("reminders", {})
    if not isinstance(bot, dict) or not isinstance(reminders, dict):
        raise ConfigError("[bot] and [reminders] must be tables")
    guild_ids = bot.get("guild_ids", [])
    if not isinstance(guild_ids, list) or not all(isinstance(g, int) and not isinstance(g, bool)
                                                  and 0 < g < 2**63 for g in guild_ids):
        raise ConfigError("guild_ids must be a list of guild ids (positive integers, as Discord shows them)")
    db_path = bot.get("db_path", DEFAULT_DB)
    if not isinstance(db_path, str) or not db_path:
        raise ConfigError("db_path must be a file path")
    database_url = bot.get("database_url", "")
    if "database_url" in bot and "db_path" in bot:
        raise ConfigError("set either database_url or db_path, not both")
    if not isinstance(database_url, str):
        raise ConfigError("database_url must be text such as \"postgresql://bot@localhost/stationmaster\"")
    if database_url:
        try:
            parse_database_url(database_url)
        except StorageError as error:
            raise ConfigError(f"database_url: {error}") from None
    images = bot.get("images", True)
    if not isinstance(images, bool):
        raise ConfigError("images must be true or false")
    zone = reminders.get("time_zone", "UTC")
    if (problem := zone_problem(zone)) is not None:
        raise ConfigError(problem)
    for key, default in (("first_after_hours", 24.0), ("repeat_hours", 24.0)):
        if (problem := hours_problem(key, reminders.get(key, default))) is not None:
            raise ConfigError(problem)
    token = environ.get(TOKEN_ENV) or None
    shard_count, shard_ids = _shards(bot)
    return Settings(
        db_path=db_path,
        database_url=database_url,
        guild_ids=tuple(guild_ids),
        images=images,
        router_budget=_number(bot, "router_budget", 2.0, 0.0, MAX_ROUTER_BUDGET),
        router_follow_up=_number(bot, "router_follow_up", 20.0, 0.0, MAX_FOLLOW_UP, low_allowed=True),
        reminders=ReminderDefaults(
            first_after_hours=float(reminders.get("first_after_hours", 24.0)),
            repeat_hours=float(reminders.get("repeat_hours", 24.0)),
            quiet_start_hour=_hour(reminders, "quiet_start_hour"),
            quiet_end_hour=_hour(reminders, "quiet_end_hour"),
            time_zone=zone,
        ),
        shard_count=shard_count,
        shard_ids=shard_ids,
        token=token,
    )


def load_settings(path: str | os.PathLike[str] | None, environ: dict[str, str] | None = None) -> Settings:
    """Read ``path`` (a missing default file just means the defaults) and the environment."""
    if path is None:
        return parse_settings({}, environ)
    file = Path(path)
    if not file.exists():
        raise ConfigError(f"no configuration file at {file}")
    try:
        text = read_limited(file, MAX_CONFIG_BYTES).decode("utf-8")  # --config /dev/zero ends, refused
    except FileRefused as error:
        raise ConfigError(str(error)) from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{file} is not UTF-8 text (byte {error.start + 1}); a configuration is TOML") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{file} is not valid TOML: {error}") from error
    return parse_settings(data, environ)
