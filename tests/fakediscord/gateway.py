"""The gateway: websocket sessions, compression, IDENTIFY/RESUME and event dispatch."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.gateway")

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

# Close codes discord.py treats as fatal (it raises instead of reconnecting forever).
CLOSE_AUTH_FAILED = 4004
CLOSE_INVALID_API_VERSION = 4012
CLOSE_INVALID_SHARD = 4010

ZSTD_MESSAGE = (
    "fakediscord: the client asked for compress=zstd-stream (zstandard or compression.zstd is "
    "importable). The fake only speaks zlib-stream; uninstall zstandard from the test "
    "environment."
)


class Connection:
    """One websocket: serialises sends so zlib-stream frames reach the client in order."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send(self, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            if self._zlib is None:
                await self.ws.send_str(text)
            else:
                # One stream per connection; Z_SYNC_FLUSH makes each message end in 00 00 ff ff,
                # which is how discord.py knows a message is complete.
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


@dataclass
class Session:
    """A gateway session; it outlives its websocket so a client can RESUME it."""

    session_id: str
    intents: int
    seq: int = 0
    connection: Connection | None = None
    invalid: bool = False
    # Sent dispatch frames, replayed after a RESUME from the client's last seen seq.
    history: list[dict[str, Any]] = field(default_factory=list)
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    # (shard_id, shard_count) from IDENTIFY; None for a bot that is not sharded.
    shard: tuple[int, int] | None = None

    def holds(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the guild's events: (guild_id >> 22) % count."""
        if self.shard is None or guild_id is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    @property
    def live(self) -> bool:
        return self.connection is not None and not self.connection.closed

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.history.append(frame)
        if self.connection is not None:
            await self.connection.send(frame)


class Gateway:
    def __init__(self, fake: FakeDiscord, heartbeat_interval_ms: int = 41250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: list[Session] = []
        self.resumes = 0
        self.identifies = 0
        # The compress= query of every websocket opened, to check what clients negotiated.
        self.compressions: list[str | None] = []

    # -- dispatching -------------------------------------------------------------------------

    def active_sessions(self) -> list[Session]:
        return [s for s in self.sessions if not s.invalid and s.identified.is_set()]

    def newest_session(self, guild_id: int | None = None) -> Session | None:
        """Interactions go to exactly one connected session, as Discord routes them to one shard:
        the one holding the guild's shard (``guild_id`` given), the newest if several do.

        Note discord.py's ``Client.close()`` ends up closing with code 4000 (its reader task
        wins the race against ``close(code=1000)``), so a closed bot's session stays
        resumable, as on Discord; it just is not live any more.
        """
        live = [s for s in self.active_sessions() if s.live and s.holds(guild_id)]
        return live[-1] if live else None

    async def broadcast(self, event: str, data: dict[str, Any]) -> None:
        guild_id = _guild_of(event, data)
        for session in self.active_sessions():
            if session.holds(guild_id):  # a guild's events reach its shard only
                await session.dispatch(event, data)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client drops the socket and RESUMEs (a gateway restart)."""
        for session in self.active_sessions():
            if session.connection is not None:
                await session.connection.send({"op": RECONNECT, "d": None})

    async def close_all(self) -> None:
        for session in self.sessions:
            if session.connection is not None and not session.connection.closed:
                await session.connection.ws.close(code=1001, message=b"fake discord shutting down")

    # -- websocket handler -------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        self.compressions.append(compress)
        if compress == "zstd-stream" or (compress and compress != "zlib-stream"):
            message = ZSTD_MESSAGE if compress == "zstd-stream" else f"fakediscord: unsupported compress={compress}"
            log.error(message)
            self.fake.refuse(message)
            await ws.close(code=CLOSE_INVALID_API_VERSION, message=message.encode()[:120])
            return ws
        if request.query.get("encoding", "json") != "json":
            message = f"fakediscord: only encoding=json is supported, got {request.query['encoding']}"
            self.fake.refuse(message)
            await ws.close(code=CLOSE_INVALID_API_VERSION, message=message.encode()[:120])
            return ws

        conn = Connection(ws, compress)
        await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        session: Session | None = None
        close_code: int | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == HEARTBEAT:
                    await conn.send({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    session = await self._identify(conn, frame["d"])
                elif op == RESUME:
                    session = await self._resume(conn, frame["d"])
                elif op == REQUEST_MEMBERS:
                    if session is not None:
                        await self._send_members(session, frame["d"])
                elif op == PRESENCE:
                    pass
                else:
                    log.warning("fakediscord gateway: ignoring op %s: %s", op, frame)
        finally:
            close_code = ws.close_code
            if session is not None and session.connection is conn:
                session.connection = None
                # 1000 is a deliberate close (Client.close()); Discord ends the session then.
                if close_code == 1000:
                    session.invalid = True
            self.fake.notify()
        return ws

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        fake = self.fake
        if data.get("token") != fake.token:
            fake.refuse("fakediscord: IDENTIFY with a wrong token")
            await conn.ws.close(code=CLOSE_AUTH_FAILED, message=b"Authentication failed.")
            return None
        self.identifies += 1
        session = Session(session_id=secrets.token_hex(16), intents=int(data.get("intents", 0)))
        shard = data.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if not 0 <= shard_id < count:
                fake.errors.append(f"fakediscord: IDENTIFY with an invalid shard {shard}")
                await conn.ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
                return None
            session.shard = (shard_id, count)
        session.connection = conn
        self.sessions.append(session)
        ready = {
            "v": 10,
            "user": {**fake.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in fake.guilds.values() if session.holds(g.id)],
            "session_id": session.session_id,
            "resume_gateway_url": fake.ws_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fakediscord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        for guild in fake.guilds.values():
            if session.holds(guild.id):
                await session.dispatch("GUILD_CREATE", guild.payload())
        session.identified.set()
        fake.notify()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = next(
            (s for s in self.sessions if s.session_id == data.get("session_id") and not s.invalid), None
        )
        if session is None or data.get("token") != self.fake.token:
            # d=false: not resumable, the client must IDENTIFY again on a new socket.
            await conn.send({"op": INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        session.connection = conn
        last_seen = data.get("seq") or 0
        for frame in session.history:
            if frame["s"] > last_seen:
                await conn.send(frame)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self.fake.notify()
        return session

    async def _send_members(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(data["guild_id"]))
        members = list(guild.members.values()) if guild else []
        ids = data.get("user_ids")
        if ids:
            wanted = {int(i) for i in (ids if isinstance(ids, list) else [ids])}
            members = [m for m in members if m.id in wanted]
        query = data.get("query")
        if query:
            members = [m for m in members if m.username.lower().startswith(query.lower())]
        chunk = {
            "guild_id": data["guild_id"],
            "members": [m.member_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: sent to every session)."""
    if event == "GUILD_CREATE":
        return int(data["id"])
    guild = data.get("guild_id")
    return int(guild) if guild is not None else None
