"""The PostgreSQL cluster the test run uses: `scripts/test.sh` (or `.ci/run`) starts a throwaway one with
`scripts/postgres.sh` and exports its URL as GATEHOUSE_TEST_POSTGRES_URL and its directory as
GATEHOUSE_TEST_POSTGRES_DIR. Every test gets a database of its own, created and dropped with psql.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import time

import pytest

from harness import REPO_ROOT

_names = itertools.count(1)


class PostgresCluster:
    def __init__(self, url: str, directory: str | None):
        self.url = url
        self.directory = directory

    @classmethod
    def from_environment(cls) -> "PostgresCluster":
        url = os.environ.get("GATEHOUSE_TEST_POSTGRES_URL", "")
        if not url:
            if os.environ.get("GATEHOUSE_REQUIRE_POSTGRES") == "1":
                pytest.fail("GATEHOUSE_REQUIRE_POSTGRES=1 but GATEHOUSE_TEST_POSTGRES_URL is not set")
            pytest.skip("no PostgreSQL test cluster (GATEHOUSE_TEST_POSTGRES_URL); scripts/test.sh starts one")
        return cls(url, os.environ.get("GATEHOUSE_TEST_POSTGRES_DIR") or None)

    def psql(self, sql: str, url: str | None = None) -> str:
        result = subprocess.run(["psql", url or self.url, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    def database_url(self, name: str) -> str:
        base, _, query = self.url.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + (("?" + query) if query else "")

    def create_database(self) -> str:
        name = f"gh_{os.getpid()}_{next(_names)}_{time.monotonic_ns() % 1_000_000}"
        self.psql(f"CREATE DATABASE {name}")
        return self.database_url(name)

    def drop_database(self, url: str) -> None:
        name = url.partition("?")[0].rsplit("/", 1)[1]
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def restart(self, mode: str = "immediate") -> None:
        """Restarts the server; `immediate` stops it as a crash would (no checkpoint, connections cut)."""
        assert self.directory, "GATEHOUSE_TEST_POSTGRES_DIR is not set: cannot restart the cluster"
        result = subprocess.run([str(REPO_ROOT / "scripts" / "postgres.sh"), "restart", self.directory, mode],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
