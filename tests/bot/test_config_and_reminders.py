"""Settings from config.toml and the environment; reminder due times and quiet hours."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings, parse_settings
from bot.reminders import next_due, out_of_quiet_hours
from storage import GameSettings, ReminderState

ROOT = Path(__file__).resolve().parents[2]


def test_example_config_loads_and_the_token_comes_from_the_environment() -> None:
    settings = load_settings(ROOT / "config.example.toml", environ={"DISCORD_TOKEN": "secret"})
    assert settings.db_path == "./stationmaster.db" and settings.guild_ids == ()
    assert settings.reminders.first_after_hours == 24 and settings.token == "secret"
    assert "secret" not in repr(settings)
    assert load_settings(None, environ={}).token is None


@pytest.mark.parametrize(("data", "message"), [
    ({"bot": {"token": "x"}}, "DISCORD_TOKEN"),
    ({"bot": {"guild_ids": ["1"]}}, "guild_ids"),
    ({"reminders": {"repeat_hours": 0}}, "repeat_hours"),
    ({"reminders": {"quiet_start_hour": 24}}, "quiet_start_hour"),
    ({"bot": {"database_url": "mysql://x/y"}}, "unsupported database URL mysql://"),
    ({"bot": {"database_url": "sqlite:///a.db", "db_path": "b.db"}}, "not both"),
    ({"bot": {"database_url": 5}}, "database_url must be text"),
    ({"bot": {"shard_count": 0}}, "shard_count must be a whole number from 1 to 65536, not 0"),
    ({"bot": {"shard_count": "4"}}, "shard_count must be a whole number"),
    ({"bot": {"shard_count": True}}, "shard_count must be a whole number"),
    ({"bot": {"shard_ids": [0]}}, "shard_ids needs shard_count"),
    ({"bot": {"shard_count": 4, "shard_ids": [4]}}, r"shard_ids must be from 0 to 3 \(shard_count is 4\)"),
    ({"bot": {"shard_count": 4, "shard_ids": [-1]}}, "shard_ids must be from 0 to 3"),
    ({"bot": {"shard_count": 4, "shard_ids": []}}, "shard_ids must be a list of shard numbers from 0 to 3"),
    ({"bot": {"shard_count": 4, "shard_ids": 1}}, "shard_ids must be a list"),
    ({"bot": {"shard_count": 4, "shard_ids": [1, "2"]}}, "shard_ids must be a list"),
    ({"bot": {"shard_count": 4, "shard_ids": [1, 1]}}, "lists a shard twice"),
])
def test_bad_settings_are_refused(data: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_settings(data, environ={})


def test_the_store_is_chosen_by_database_url_else_db_path() -> None:
    assert parse_settings({}, environ={}).store_url == "sqlite:///./stationmaster.db"
    assert parse_settings({"bot": {"db_path": "/srv/g.db"}}, environ={}).store_url == "sqlite:////srv/g.db"
    url = "postgresql://bot@db.example:5432/stationmaster"
    assert parse_settings({"bot": {"database_url": url}}, environ={}).store_url == url


def test_shards_this_process_serves() -> None:
    assert parse_settings({}, environ={}).shards is None  # one process: every guild
    assert parse_settings({"bot": {"shard_count": 1}}, environ={}).shards is None
    settings = parse_settings({"bot": {"shard_count": 4, "shard_ids": [3, 1]}}, environ={})
    assert (settings.shard_count, settings.shard_ids) == (4, (1, 3))
    assert settings.shards is not None and settings.shards.holds(7 << 22) and not settings.shards.holds(6 << 22)
    every = parse_settings({"bot": {"shard_count": 2}}, environ={}).shards
    assert every is not None and every.ids == (0, 1)


def test_the_example_config_documents_sharding() -> None:
    text = (ROOT / "config.example.toml").read_text()
    lines = [line.lstrip("# ") for line in text.splitlines() if line.startswith("# shard_")]
    import tomllib

    settings = parse_settings({"bot": tomllib.loads("\n".join(lines))}, environ={})
    assert settings.shard_count == 4 and settings.shard_ids == (0, 1)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no configuration file"):
        load_settings(tmp_path / "nope.toml", environ={})


def at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def test_first_reminder_then_repeats() -> None:
    settings = GameSettings(reminder_first_after_hours=2, reminder_repeat_hours=6)
    since = at("2024-05-01T10:00")
    assert next_due(settings, since, None) == at("2024-05-01T12:00")
    pinged = ReminderState(1, 1, at("2024-05-01T12:00"), 1)
    assert next_due(settings, since, pinged) == at("2024-05-01T18:00")
    # A ping from before the position changed does not count.
    old = ReminderState(1, 1, at("2024-05-01T09:00"), 3)
    assert next_due(settings, since, old) == at("2024-05-01T12:00")


def test_quiet_hours_wrap_midnight_and_use_the_time_zone() -> None:
    quiet = GameSettings(quiet_start_hour=22, quiet_end_hour=7, quiet_time_zone="Europe/Berlin")
    # 23:30 in Berlin (CEST, UTC+2) is quiet: moved to 07:00 Berlin = 05:00 UTC.
    assert out_of_quiet_hours(at("2024-05-01T21:30"), quiet) == at("2024-05-02T05:00")
    # 03:00 Berlin also quiet: same morning 07:00.
    assert out_of_quiet_hours(at("2024-05-02T01:00"), quiet) == at("2024-05-02T05:00")
    # Noon is not.
    assert out_of_quiet_hours(at("2024-05-02T10:00"), quiet) == at("2024-05-02T10:00")
