"""A second gateway on a port in use refuses to start (issue 8, item 7): listeners share their port with
SO_REUSEPORT, which would otherwise let a stale instance or a typo split clients between two databases."""

from __future__ import annotations

import socket
import subprocess
from contextlib import contextmanager

import pytest

from harness import clean_environment, free_loopback_port, gateway_binary
from verbs import assert_alive


def start_second_gateway(port: int, data_dir) -> subprocess.CompletedProcess:
    """Runs `gateway serve` on `port`; returns once it exits (a gateway that starts is killed after 20 s)."""
    args = [str(gateway_binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)]
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=20, env=clean_environment())
    except subprocess.TimeoutExpired:
        pytest.fail(f"a second gateway started on port {port}, which is already in use")


def assert_refused(result: subprocess.CompletedProcess, port: int) -> None:
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"127.0.0.1:{port}" in lines[0] and "already in use" in lines[0], lines[0]


def test_a_second_gateway_on_the_same_port_exits_with_a_clear_message(make_gateway, tmp_path):
    first = make_gateway()
    second_data = tmp_path / "second"
    assert_refused(start_second_gateway(first.port, second_data), first.port)
    assert not second_data.exists(), "the second gateway should refuse before it opens a database"
    assert_alive(first)


@contextmanager
def listener(reuse_port: bool):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", free_loopback_port()))
    sock.listen()
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


@pytest.mark.parametrize("reuse_port", [True, False], ids=["with-SO_REUSEPORT", "plain"])
def test_a_port_held_by_another_program_is_refused(tmp_path, reuse_port):
    with listener(reuse_port) as port:
        assert_refused(start_second_gateway(port, tmp_path / "data"), port)


def test_a_wildcard_listener_on_the_port_counts_as_in_use(tmp_path):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("0.0.0.0", 0))
    sock.listen()
    try:
        port = sock.getsockname()[1]
        assert_refused(start_second_gateway(port, tmp_path / "data"), port)
    finally:
        sock.close()
