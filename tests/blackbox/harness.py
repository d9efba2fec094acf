"""Starts and stops the real `gateway` binary for black-box tests.

Every gateway runs on a free loopback port with its own data directory; stdout (the JSON log) and
stderr are captured to files so tests can read the logs after the fact.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

REPO_ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_SECONDS = 20.0
STOP_TIMEOUT_SECONDS = 15.0
DEFAULT_PROJECT_ID = "demo-blackbox"
# Every gateway the suite starts accepts this admin token (unless a test configures `adminTokens` itself):
# outside emulator mode `Bearer owner` is not an admin credential, so tests use a configured token.
ADMIN_TOKEN = "blackbox-admin-token-0123456789"


def gateway_binary() -> Path:
    """The binary under test: `$GATEHOUSE_BIN`, else the debug build of this repository."""
    configured = os.environ.get("GATEHOUSE_BIN", ".build/debug/gateway")
    path = Path(configured)
    return path if path.is_absolute() else REPO_ROOT / path


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def clean_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The caller's environment without GATEHOUSE_* overrides, so only what a test says applies."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GATEHOUSE_")}
    env.update(extra or {})
    return env


def run_cli(*args: str, env: dict[str, str] | None = None, timeout: float = 30.0) -> subprocess.CompletedProcess:
    """Runs a one-shot subcommand (`keys rotate`, `backup`, ...) and returns its completed process."""
    return subprocess.run(
        [str(gateway_binary()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=clean_environment(env),
        cwd=REPO_ROOT,
    )


@dataclass
class Gateway:
    """One running gateway process."""

    data_dir: Path
    work_dir: Path
    project_id: str = DEFAULT_PROJECT_ID
    config: dict | None = None
    env: dict[str, str] = field(default_factory=dict)
    database_url: str | None = None
    port: int = 0
    process: subprocess.Popen | None = None
    starts: int = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def host_port(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def stdout_path(self) -> Path:
        return self.work_dir / f"stdout-{self.starts}.log"

    @property
    def stderr_path(self) -> Path:
        return self.work_dir / f"stderr-{self.starts}.log"

    @property
    def config_path(self) -> Path:
        return self.work_dir / "config.json"

    def url(self, path: str) -> str:
        return self.base_url + path

    def start(self) -> "Gateway":
        assert self.process is None, "gateway already running"
        self.starts += 1
        self.port = free_loopback_port()
        args = [
            str(gateway_binary()), "serve",
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--data-dir", str(self.data_dir),
            "--project-id", self.project_id,
        ]
        config = {"adminTokens": [ADMIN_TOKEN], **(self.config or {})}
        self.config_path.write_text(json.dumps(config))
        args += ["--config", str(self.config_path)]
        if self.database_url is not None:
            args += ["--database-url", self.database_url]
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                args, stdout=out, stderr=err, env=clean_environment(self.env), cwd=self.work_dir
            )
        self._wait_until_ready()
        return self

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            exit_status = self.process.poll()
            if exit_status is not None:
                self.process = None
                raise AssertionError(
                    f"gateway exited with {exit_status} before /readyz answered 200:\n"
                    f"{self.stderr_path.read_text(errors='replace')}\n{self.stdout_path.read_text(errors='replace')}"
                )
            try:
                if requests.get(self.url("/readyz"), timeout=1).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"/readyz did not answer 200 within {READY_TIMEOUT_SECONDS} s")

    def stop(self) -> int:
        """SIGTERM, then wait; returns the exit status (the fixture asserts it is 0)."""
        assert self.process is not None, "gateway not running"
        process, self.process = self.process, None
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise AssertionError(f"gateway did not exit within {STOP_TIMEOUT_SECONDS} s of SIGTERM")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def restart(self) -> "Gateway":
        assert self.stop() == 0
        return self.start()

    def is_alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log_text(self) -> str:
        """Everything the gateway wrote to stdout, across all of its starts."""
        return "".join(
            (self.work_dir / f"stdout-{n}.log").read_text(errors="replace") for n in range(1, self.starts + 1)
        )

    def log_lines(self) -> list[str]:
        return [line for line in self.log_text().splitlines() if line.strip()]
