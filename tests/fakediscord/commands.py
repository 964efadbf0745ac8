"""Synced application commands, and turning a test's ``options={...}`` into the nested option
payload Discord would send for them (types come from the synced command definitions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .ids import new_snowflake
from .models import FakeChannel, FakeRole, FakeUser

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


class CommandNotSynced(LookupError):
    """Discord only delivers commands the bot registered; a test invoked one it did not."""


@dataclass
class CommandRegistry:
    """Commands stored per scope: ``None`` is global, an int is a guild id."""

    application_id: int
    scopes: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    # Every bulk overwrite (scope, names) in order: lets tests assert the bot synced.
    sync_log: list[tuple[int | None, list[str]]] = field(default_factory=list)

    def overwrite(self, scope: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """PUT semantics: replace the scope's commands, keeping ids of same-named commands."""
        old = {(c["name"], c.get("type", 1)): c for c in self.scopes.get(scope, [])}
        stored = []
        for cmd in commands:
            previous = old.get((cmd["name"], cmd.get("type", 1)))
            stored.append(self._complete(scope, cmd, previous["id"] if previous else None))
        self.scopes[scope] = stored
        self.sync_log.append((scope, [c["name"] for c in stored]))
        return [dict(c) for c in stored]

    def upsert(self, scope: int | None, command: dict[str, Any]) -> dict[str, Any]:
        existing = self.scopes.setdefault(scope, [])
        for i, cmd in enumerate(existing):
            if cmd["name"] == command["name"] and cmd.get("type", 1) == command.get("type", 1):
                existing[i] = self._complete(scope, command, cmd["id"])
                return dict(existing[i])
        existing.append(self._complete(scope, command, None))
        return dict(existing[-1])

    def list(self, scope: int | None) -> list[dict[str, Any]]:
        return [dict(c) for c in self.scopes.get(scope, [])]

    def names(self, scope: int | None) -> list[str]:
        return [c["name"] for c in self.scopes.get(scope, [])]

    def find(self, name: str, guild_id: int | None, type_: int = 1) -> dict[str, Any]:
        """Guild commands shadow global ones, as in the Discord client."""
        for scope in (guild_id, None):
            for cmd in self.scopes.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == type_:
                    return cmd
        known = {s: self.names(s) for s in self.scopes}
        raise CommandNotSynced(
            f"/{name} is not a synced command (known by scope: {known}). "
            "Discord only sends commands the bot synced: call tree.sync() in the bot first."
        )

    def _complete(self, scope: int | None, cmd: dict[str, Any], cmd_id: str | None) -> dict[str, Any]:
        full = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **cmd,
            "id": cmd_id or str(new_snowflake()),
            "application_id": str(self.application_id),
            "version": str(new_snowflake()),
        }
        if scope is not None:
            full["guild_id"] = str(scope)
        return full


@dataclass
class BuiltOptions:
    options: list[dict[str, Any]]
    resolved: dict[str, dict[str, Any]]


def build_options(
    command: dict[str, Any],
    path: tuple[str, ...],
    values: dict[str, Any],
    *,
    focused: str | None = None,
) -> BuiltOptions:
    """Nest ``values`` under the subcommand group/subcommand ``path`` like Discord does.

    ``focused`` marks the option being typed for autocomplete; its value is sent as the raw
    string the user typed, exactly as Discord does.
    """
    definitions = command.get("options", [])
    wrappers: list[dict[str, Any]] = []
    for name in path:
        sub = next(
            (o for o in definitions if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)),
            None,
        )
        if sub is None:
            raise CommandNotSynced(f"/{command['name']} has no subcommand (group) {name!r} in {path}")
        wrappers.append({"type": sub["type"], "name": name, "options": []})
        definitions = sub.get("options", [])
    if definitions and definitions[0]["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
        raise CommandNotSynced(f"/{command['name']} {' '.join(path)} needs a subcommand")

    by_name = {o["name"]: o for o in definitions}
    unknown = set(values) - set(by_name)
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)} for /{command['name']} {' '.join(path)}")
    missing = [o["name"] for o in definitions if o.get("required") and o["name"] not in values]
    if missing and focused is None:
        raise ValueError(f"required options {missing} missing for /{command['name']} {' '.join(path)}")

    resolved: dict[str, dict[str, Any]] = {}
    leaves = []
    for name, value in values.items():
        definition = by_name[name]
        leaf: dict[str, Any] = {"type": definition["type"], "name": name}
        if name == focused:
            leaf["value"] = str(value)
            leaf["focused"] = True
        else:
            leaf["value"] = _wire_value(definition, value, resolved)
        leaves.append(leaf)

    options: list[dict[str, Any]] = leaves
    for wrapper in reversed(wrappers):
        wrapper["options"] = options
        options = [wrapper]
    return BuiltOptions(options=options, resolved=resolved)


def _wire_value(definition: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
    opt_type = definition["type"]
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"{value!r} is not a choice of option {definition['name']!r}: {choices}")
    if opt_type == STRING:
        return str(value)
    if opt_type == INTEGER:
        return int(value)
    if opt_type == NUMBER:
        return float(value)
    if opt_type == BOOLEAN:
        return bool(value)
    if isinstance(value, FakeUser) and opt_type in (USER, MENTIONABLE):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        member = value.member_payload(with_permissions=True)
        member.pop("user")
        resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if isinstance(value, FakeChannel) and opt_type == CHANNEL:
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.payload(),
            "permissions": str((1 << 51) - 1),
        }
        return str(value.id)
    if isinstance(value, FakeRole) and opt_type in (ROLE, MENTIONABLE):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    raise TypeError(f"cannot send {value!r} as option {definition['name']!r} of type {opt_type}")
