"""Real services for tests: a throw-away Redis server and a Celery worker process.

`make test` installs ``redis-server`` from Debian's packages when it is missing
(``scripts/system-deps.sh``); these helpers start and stop the processes.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"process exited early with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


@contextmanager
def redis_server() -> Iterator[str]:
    """Run ``redis-server`` on a free loopback port, without persistence; yield its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed: run scripts/system-deps.sh redis-server")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def celery_worker(
    broker_url: str, extra_env: dict[str, str] | None = None, *, queues: str = "celery"
) -> Iterator[str]:
    """Run a real Celery worker of ``tigris_site`` against ``broker_url``; yield its node name.

    ``queues`` names the queues it consumes, comma-separated (``"celery,bots"``).
    """
    node = f"test-{os.getpid()}-{free_port()}@localhost"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        **(extra_env or {}),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tigris_site",
            "worker",
            "--pool",
            "solo",
            "--concurrency",
            "1",
            "--hostname",
            node,
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--queues",
            queues,
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        yield node
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
