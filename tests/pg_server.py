"""A throwaway PostgreSQL server for tests and benchmarks, started from the installed binaries.

``PostgresServer.start()`` runs ``initdb`` in a fresh temporary directory and starts
``postgres`` on a free loopback port with trust authentication; ``stop()`` kills it and
removes the directory. PostgreSQL refuses to run as root (CI runs as root), so as root the
server runs as the ``postgres`` user (Debian's package creates it) or else ``nobody``.

``STATIONMASTER_TEST_POSTGRES_URL`` points the tests at a server you run yourself (a
container, say) instead; each test still gets a database of its own there.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

EXTERNAL_URL_ENV = "STATIONMASTER_TEST_POSTGRES_URL"
SUPERUSER = "stationmaster_test"
INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, postgres) were not found on PATH or in "
    "/usr/lib/postgresql/*/bin: install them (Debian: apt-get install postgresql) or set "
    f"{EXTERNAL_URL_ENV} to a server's URL"
)


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server can be started here (the message says what to install)."""


def find_binaries() -> Path:
    """The directory holding initdb and postgres: PATH first, then Debian's versioned folders
    (newest version first)."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("postgres"):
        return Path(os.path.realpath(on_path)).parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
        reverse=True,
    )
    if not candidates:
        raise ServerUnavailable(INSTALL_HINT)
    return Path(candidates[0]).parent


def _server_user() -> pwd.struct_passwd | None:
    """The account to run the server as: ourselves, unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ServerUnavailable("running as root and neither a 'postgres' nor a 'nobody' user exists")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """One running server; ``url(dbname)`` gives a connection URL for one of its databases."""

    port: int
    directory: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    host: str = "127.0.0.1"
    user: str = SUPERUSER
    external_url: str | None = None
    _log: Path | None = field(default=None, repr=False)
    _args: list[str] = field(default_factory=list, repr=False)
    _run_as: dict[str, int] = field(default_factory=dict, repr=False)

    @classmethod
    def start(cls, *, durable: bool = False, timeout: float = 60.0) -> PostgresServer:
        """Start a server. ``durable=False`` turns fsync off: a test's database need not
        survive a power cut (killed client processes are unaffected), and the suite is faster."""
        external = os.environ.get(EXTERNAL_URL_ENV)
        if external:
            return cls(port=0, external_url=external.rstrip("/"))
        binaries = find_binaries()
        account = _server_user()
        directory = Path(tempfile.mkdtemp(prefix="stationmaster-pg-"))
        data, log = directory / "data", directory / "server.log"
        if account is not None:
            os.chown(directory, account.pw_uid, account.pw_gid)
        run_as = {} if account is None else {"user": account.pw_uid, "group": account.pw_gid}
        init = subprocess.run(
            [str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust",
             "-E", "UTF8", "--no-locale", "--no-sync"],
            capture_output=True, text=True, cwd=directory, timeout=timeout, check=False,
            **run_as,  # type: ignore[arg-type]
        )
        if init.returncode != 0:
            shutil.rmtree(directory, ignore_errors=True)
            raise ServerUnavailable(f"initdb failed: {init.stderr.strip() or init.stdout.strip()}")
        port = _free_port()
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(port),
            "unix_socket_directories": "",
            "max_connections": "200",
            "fsync": "on" if durable else "off",
            "full_page_writes": "on" if durable else "off",
        }
        args = [str(binaries / "postgres"), "-D", str(data)]
        for name, value in settings.items():
            args += ["-c", f"{name}={value}"]
        server = cls(port=port, directory=directory, _log=log, _args=args, _run_as=run_as)
        server._launch(timeout)
        return server

    def _launch(self, timeout: float) -> None:
        """Start the postmaster on the data directory (again, after ``halt``)."""
        assert self.directory is not None and self._log is not None
        handle = open(self._log, "wb")  # noqa: SIM115 (the server writes to it until stop)
        if self._run_as:
            os.chown(self._log, self._run_as["user"], self._run_as["group"])
        self.process = subprocess.Popen(
            self._args, stdout=handle, stderr=subprocess.STDOUT, cwd=self.directory,
            start_new_session=True, **self._run_as,  # type: ignore[arg-type]
        )
        handle.close()
        self._wait_ready(timeout)

    def halt(self) -> None:
        """Shut the server down as an operator does (fast shutdown: every session is ended,
        clients see their connections closed), keeping its data for ``resume``."""
        if self.external_url is not None:
            raise ServerUnavailable(f"a server given by {EXTERNAL_URL_ENV} cannot be stopped by the tests")
        assert self.process is not None
        self.process.send_signal(2)  # SIGINT: PostgreSQL's fast shutdown
        self.process.wait(timeout=30)
        self.process = None

    def resume(self, timeout: float = 60.0) -> None:
        """Start a halted server again on the same port and data."""
        self._launch(timeout)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                log = self._log.read_text(errors="replace") if self._log else ""
                self.stop()
                raise ServerUnavailable(f"postgres exited at start:\n{log[-2000:]}")
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    pass
            except OSError:
                time.sleep(0.05)
                continue
            # The port accepts before the server takes queries; the log says when it does.
            if self._log and b"ready to accept connections" in self._log.read_bytes():
                return
            time.sleep(0.05)
        self.stop()
        raise ServerUnavailable(f"postgres did not start within {timeout:.0f} s")

    def url(self, dbname: str = "postgres") -> str:
        if self.external_url is not None:
            base = self.external_url.rsplit("/", 1)[0] if self.external_url.count("/") > 2 else self.external_url
            return f"{base}/{dbname}"
        return f"postgresql://{self.user}@{self.host}:{self.port}/{dbname}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # SIGQUIT: immediate shutdown; the data directory is thrown away anyway.
            self.process.send_signal(3)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
        self.process = None
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
