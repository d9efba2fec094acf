"""Connections cannot be hoarded (issue 8, item 3): a flood of silent connections from one client neither
fills the pool nor keeps it, and the gateway makes room for its connection cap in its own file limit."""

from __future__ import annotations

import http.client
import json
import resource
import select
import socket
import time
from contextlib import contextmanager

from harness import Gateway

LEGIT_SOURCE = "127.0.0.2"


def raise_file_limit(needed: int) -> None:
    """Lifts this process's soft RLIMIT_NOFILE to the hard limit; the flood needs one descriptor per socket."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 4 * needed)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft >= needed, f"this test needs {needed} open files, the hard limit allows {soft}"


@contextmanager
def silent_connections(gw: Gateway, count: int):
    """`count` connections from 127.0.0.1 that never send a byte, closed at the end."""
    raise_file_limit(count + 256)
    sockets = []
    try:
        for _ in range(count):
            sockets.append(socket.create_connection(("127.0.0.1", gw.port), timeout=10))
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def closed_by_server(sockets: list[socket.socket], expected: int, within: float) -> list[socket.socket]:
    """Waits until `expected` of `sockets` have been closed by the server (or `within` seconds pass) and
    returns the closed ones. A closed socket reads as end of file (or a reset)."""
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + within
    while len(closed) < expected and time.monotonic() < deadline:
        pending = [s for s in sockets if s not in closed]
        ready, _, _ = select.select(pending[:1000], [], [], 0.2)
        for sock in ready:
            try:
                data = sock.recv(1)
            except ConnectionResetError:
                data = b""
            assert data == b"", f"a silent connection was sent {data!r}"
            closed.add(sock)
    return [s for s in sockets if s in closed]


def get_healthz(gw: Gateway, source: str, timeout: float = 5.0) -> int:
    """One request on a new connection from `source`."""
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status
    finally:
        conn.close()


def test_a_flood_from_one_client_leaves_room_for_others(make_gateway):
    # One event loop, so the gateway accepts connections in the order they arrived.
    gw = make_gateway(config={"http": {"maxConnections": 200, "maxConnectionsPerClient": 50, "eventLoops": 1,
                                       "requestTimeoutSeconds": 60, "idleTimeoutSeconds": 60}})
    with silent_connections(gw, 250) as flood:
        statuses = [get_healthz(gw, LEGIT_SOURCE) for _ in range(20)]
        assert statuses == [200] * 20
        refused = closed_by_server(flood, expected=200, within=10)
        assert len(refused) == 200, "the flood should hold exactly its per-client share of 50 connections"
        # The flooding client keeps its 50 and gets no more, while the other client is still served.
        assert get_healthz(gw, LEGIT_SOURCE) == 200


def test_a_connection_that_sends_nothing_is_closed_after_the_request_deadline(make_gateway):
    gw = make_gateway(config={"http": {"requestTimeoutSeconds": 1, "idleTimeoutSeconds": 60}})
    with silent_connections(gw, 5) as silent:
        assert len(closed_by_server(silent, expected=5, within=15)) == 5
    assert get_healthz(gw, LEGIT_SOURCE) == 200


def test_the_gateway_raises_its_own_open_file_limit_for_the_connection_cap(make_gateway):
    """Started with a soft limit of 256 open files, the gateway still holds 400 connections and serves more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard == resource.RLIM_INFINITY or hard >= 1024, "the hard open-file limit is too low for this test"
    raise_file_limit(700)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    gw = make_gateway(config={"http": {"maxConnections": 1000, "maxConnectionsPerClient": 1000,
                                       "requestTimeoutSeconds": 60, "idleTimeoutSeconds": 60}}, start=False)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # inherited by the gateway process
    try:
        gw.start()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    with silent_connections(gw, 400):
        assert get_healthz(gw, LEGIT_SOURCE, timeout=10) == 200
    listening = [json.loads(line) for line in gw.log_lines() if '"listening"' in line]
    assert listening[0]["fileLimit"] == (hard if hard != resource.RLIM_INFINITY else 1 << 20)
