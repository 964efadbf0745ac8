"""What the benchmarks that run writer processes on one store share: a store to fill (a
temporary SQLite file or a throwaway PostgreSQL server with fsync on), the worker processes
started together, and percentiles."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from pg_server import PostgresServer  # noqa: E402


@asynccontextmanager
async def store(backend: str) -> AsyncIterator[str]:
    """The URL of an empty store of ``backend`` ("sqlite" or "postgresql"), removed after."""
    with tempfile.TemporaryDirectory() as tmp:
        if backend == "sqlite":
            yield f"sqlite:///{tmp}/bench.db"
            return
        server = PostgresServer.start(durable=True)
        try:
            yield server.url()
        finally:
            server.stop()


async def run_workers(script: str, url: str, rate_each: float, seconds: float, processes: int,
                      lead_seconds: float = 2.0) -> list[dict[str, Any]]:
    """Run ``script --worker URL RATE SECONDS N START_AT`` for N in range(processes), all
    starting their clocks at START_AT (``lead_seconds`` from now, once they are ready), and
    return the JSON each prints."""
    start_at = time.time() + lead_seconds
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable, script, "--worker", url, str(rate_each), str(seconds), str(n),
            str(start_at), stdout=asyncio.subprocess.PIPE,
        )
        for n in range(processes)
    ]
    results = []
    for child in children:
        out, _ = await child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"worker failed with exit code {child.returncode}")
        results.append(json.loads(out))
    return results


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]
