#!/usr/bin/env python3
"""Reliability under attack (issue 8): the gateway's memory during the chunk-extension attack, and a
legitimate client's latency during a connection flood. Writes the "Reliability under attack" section at the
end of bench/REPORT.md (replacing an earlier one, leaving every other section alone).

    bench/reliability.py [--binary LABEL=PATH ...] [--seconds N] [--no-write]

Without --binary it measures `.build/release/gateway` (build it with `swift build -c release --product
gateway`). Give two binaries (e.g. `before=/tmp/base/gateway after=.build/release/gateway`) to compare.

Each scenario runs against a fresh gateway with the default configuration on a free loopback port:
- attack: N connections each send `POST` with `Transfer-Encoding: chunked` and then, as fast as they can,
  chunks of one data byte behind a long extension (`1;eeee…\\r\\n \\r\\n`), until the gateway answers and
  closes or `--seconds` pass. Peak RSS is `VmHWM` of the fresh process, so it is the true maximum. A probe
  client meanwhile asks `GET /healthz` every 50 ms, which shows whether the event loops stall.
- flood: 10,050 connections from 127.0.0.1 that never send a byte (every one the gateway closes is opened
  again at once), while a client bound to 127.0.0.2 asks `GET /healthz` on a new connection every 20 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "bench" / "REPORT.md"
SECTION_TITLE = "## Reliability under attack (issue 8)"
LEGIT_SOURCE = "127.0.0.2"
FLOOD_CONNECTIONS = 10_050


# ------------------------------------------------------------------------------------------------ gateway

class Gateway:
    def __init__(self, binary: str):
        self.binary = binary
        self.data_dir = tempfile.mkdtemp(prefix="gh-reliability-")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", self.data_dir],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.startswith("GATEHOUSE_")})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if healthz_status(self.port, "127.0.0.1", path="/readyz", timeout=1) == 200:
                time.sleep(1)
                return
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"{binary} did not become ready")

    def status(self, field: str) -> float:
        """A `/proc/<pid>/status` field in MB (VmRSS now, VmHWM the peak so far)."""
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1)) / 1024

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def healthz_status(port: int, source: str, path: str = "/healthz", timeout: float = 2.0) -> int | None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    except OSError:
        return None
    finally:
        conn.close()


class Prober(threading.Thread):
    """Asks `GET /healthz` on a new connection every `interval` seconds; records latency and failures."""

    def __init__(self, port: int, interval: float):
        super().__init__(daemon=True)
        self.port, self.interval = port, interval
        self.latencies_ms: list[float] = []
        self.failures = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            started = time.monotonic()
            status = healthz_status(self.port, LEGIT_SOURCE)
            elapsed = time.monotonic() - started
            if status == 200:
                self.latencies_ms.append(elapsed * 1000)
            else:
                self.failures += 1
            self.done.wait(max(0.0, self.interval - elapsed))

    def stop(self) -> dict:
        self.done.set()
        self.join()
        ordered = sorted(self.latencies_ms)
        count = len(ordered) + self.failures
        return {
            "requests": count,
            "failed": self.failures,
            "p50": statistics.median(ordered) if ordered else None,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else None,
            "max": ordered[-1] if ordered else None,
        }


# ------------------------------------------------------------------------------------------------ attack

def attack_connection(port: int, extension_bytes: int, seconds: float, result: dict) -> None:
    head = (b"POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=k HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"1;" + b"e" * extension_bytes + b"\r\n \r\n"
    block = chunk * max(1, (1 << 20) // len(chunk))
    sock = socket.create_connection(("127.0.0.1", port))
    answered = threading.Event()
    started = time.monotonic()

    def read_answer() -> None:
        received = b""
        try:
            while b"\r\n" not in received:
                data = sock.recv(4096)
                if not data:
                    break
                received += data
        except OSError:
            pass
        if received:
            result["status"] = int(received.split(b" ", 2)[1])
            result["answered_after_s"] = time.monotonic() - started
            result["sent_before_answer_mb"] = result["sent"] / 1e6
        answered.set()

    result["sent"] = 0
    reader = threading.Thread(target=read_answer, daemon=True)
    reader.start()
    try:
        sock.sendall(head)
        while time.monotonic() - started < seconds:
            sock.sendall(block)
            result["sent"] += len(block)
    except OSError:
        pass
    answered.wait(timeout=5)
    sock.close()


def run_attack(binary: str, connections: int, extension_bytes: int, seconds: float) -> dict:
    gateway = Gateway(binary)
    try:
        idle = gateway.status("VmRSS")
        prober = Prober(gateway.port, 0.05)
        prober.start()
        results = [{} for _ in range(connections)]
        threads = [threading.Thread(target=attack_connection, args=(gateway.port, extension_bytes, seconds, r))
                   for r in results]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        probe = prober.stop()
        return {
            "connections": connections, "extension": extension_bytes, "idle_mb": idle,
            "peak_mb": gateway.status("VmHWM"),
            "statuses": sorted({r.get("status") for r in results}, key=str),
            "answered_after_s": max(r.get("answered_after_s", float("nan")) for r in results),
            "sent_mb": sum(r.get("sent_before_answer_mb", r["sent"] / 1e6) for r in results),
            "probe": probe,
        }
    finally:
        gateway.stop()


# ------------------------------------------------------------------------------------------------ flood

class Flood(threading.Thread):
    """Holds `count` silent connections from 127.0.0.1, opening a new one for each the gateway closes."""

    def __init__(self, port: int, count: int):
        super().__init__(daemon=True)
        self.port, self.count = port, count
        self.selector = selectors.DefaultSelector()
        self.reopened = 0
        self.done = threading.Event()
        self.filled = threading.Event()

    def open_one(self) -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", self.port))
        self.selector.register(sock, selectors.EVENT_READ)

    def run(self) -> None:
        for _ in range(self.count):
            self.open_one()
        self.filled.set()
        while not self.done.is_set():
            for key, _ in self.selector.select(timeout=0.1):
                sock = key.fileobj
                try:
                    data = sock.recv(1)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.selector.unregister(sock)
                    sock.close()
                    self.open_one()
                    self.reopened += 1
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def run_flood(binary: str, seconds: float) -> dict:
    gateway = Gateway(binary)
    try:
        baseline = Prober(gateway.port, 0.02)
        baseline.start()
        time.sleep(3)
        quiet = baseline.stop()
        flood = Flood(gateway.port, FLOOD_CONNECTIONS)
        flood.start()
        flood.filled.wait()
        prober = Prober(gateway.port, 0.02)
        prober.start()
        time.sleep(seconds)
        during = prober.stop()
        flood.done.set()
        flood.join()
        return {"quiet": quiet, "during": during, "reopened": flood.reopened, "rss_mb": gateway.status("VmHWM")}
    finally:
        gateway.stop()


# ------------------------------------------------------------------------------------------------ report

def ms(value) -> str:
    return "—" if value is None else f"{value:.2f}"


def render(runs: dict[str, dict], seconds: float) -> str:
    cores = os.cpu_count()
    lines = [
        SECTION_TITLE, "",
        f"Generated by `bench/reliability.py` on {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} — {cores} cores, "
        f"release builds ({', '.join(f'{label}: `{path}`' for label, (path, _) in runs.items())}), default "
        f"configuration (request deadline 10 s, `maxConnections` 10,000, `maxConnectionsPerClient` 256 where the build has it). "
        "The attacking clients run on the same cores as the gateway.", "",
    ]
    for label, (_, result) in runs.items():
        peak = max(a["peak_mb"] for a in result["attacks"])
        idle = min(a["idle_mb"] for a in result["attacks"])
        worst_probe = max((a["probe"]["max"] or 0) for a in result["attacks"])
        during = result["flood"]["during"]
        served = during["requests"] - during["failed"]
        flood = f"{served}/{during['requests']} legitimate requests answered during the flood"
        if during["p99"] is not None:
            flood += f" (p99 {during['p99']:.2f} ms)"
        lines.append(f"- **{label}**: peak RSS {peak:,.1f} MB during the attack (idle {idle:.1f} MB), slowest "
                     f"probe {worst_probe:,.0f} ms; {flood}.")
    lines += [
        "",
        "### Chunk-extension attack", "",
        f"Each connection sends chunks of one data byte behind an extension of the given length for up to {seconds:.0f} s. "
        "Peak RSS is the gateway's `VmHWM`; \"sent\" is what the attackers had written when the answer came (or in "
        "total, without one), which includes what still sat unread in the kernel's socket buffers (megabytes on "
        "loopback): the gateway itself reads at most `maxRequestBytes` (about 1.2 MB by default) of a request. The "
        "probe is `GET /healthz` on a new connection every 50 ms while the attack lasts; its latency shows whether "
        "the event loops stall. \"400\" is the chunk-size line cap (256 bytes with extensions), \"413\" the limit "
        "on a request's bytes (after) or, before, the decoded-body limit reached after a million chunks.", "",
        "| build | connections | extension bytes | answer | after s | sent MB | idle RSS MB | peak RSS MB | probe p99 ms | probe max ms | probe failures |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, (_, result) in runs.items():
        for a in result["attacks"]:
            statuses = ", ".join("none" if s is None else str(s) for s in a["statuses"])
            lines.append(
                f"| {label} | {a['connections']} | {a['extension']} | {statuses} | {a['answered_after_s']:.2f} | "
                f"{a['sent_mb']:,.1f} | {a['idle_mb']:.1f} | {a['peak_mb']:,.1f} | {ms(a['probe']['p99'])} | "
                f"{ms(a['probe']['max'])} | {a['probe']['failed']}/{a['probe']['requests']} |")
    lines += [
        "", "### Connection flood", "",
        f"{FLOOD_CONNECTIONS:,} connections from 127.0.0.1 that never send a byte (each one the gateway closes is "
        f"opened again at once) for {seconds:.0f} s; the legitimate client, bound to {LEGIT_SOURCE}, opens a new "
        "connection for `GET /healthz` every 20 ms. \"Quiet\" is the same client for 3 s before the flood.", "",
        "| build | quiet p50 ms | quiet p99 ms | flood requests | failed | flood p50 ms | flood p99 ms | flood max ms | p99 flood ÷ quiet | flood reconnects | peak RSS MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, (_, result) in runs.items():
        f = result["flood"]
        quiet, during = f["quiet"], f["during"]
        ratio = "—" if during["p99"] is None or not quiet["p99"] else f"{during['p99'] / quiet['p99']:.1f}×"
        lines.append(
            f"| {label} | {ms(quiet['p50'])} | {ms(quiet['p99'])} | {during['requests']} | {during['failed']} | "
            f"{ms(during['p50'])} | {ms(during['p99'])} | {ms(during['max'])} | {ratio} | {f['reopened']:,} | "
            f"{f['rss_mb']:.1f} |")
    lines += ["", "Re-run: `swift build -c release --product gateway && bench/reliability.py "
              "--binary before=<old gateway> --binary after=.build/release/gateway`.", ""]
    return "\n".join(lines)


def write_section(section: str) -> None:
    """Replaces this script's section (from its title to the next `## ` heading or the end) or appends it."""
    text = REPORT.read_text() if REPORT.exists() else ""
    pattern = re.compile(rf"^{re.escape(SECTION_TITLE)}\n.*?(?=^## |\Z)", re.M | re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    REPORT.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", action="append", default=[], help="LABEL=PATH (repeatable)")
    parser.add_argument("--seconds", type=float, default=12.0, help="attack and flood duration")
    parser.add_argument("--no-write", action="store_true", help="print the section instead of updating REPORT.md")
    args = parser.parse_args()
    binaries = [b.split("=", 1) for b in args.binary] or [["this build", str(REPO / ".build/release/gateway")]]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD_CONNECTIONS + 512:
        raise SystemExit(f"the flood needs {FLOOD_CONNECTIONS + 512} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runs: dict[str, tuple[str, dict]] = {}
    for label, path in binaries:
        result = {"attacks": []}
        for extension in (4090, 240):
            for connections in (1, 3):
                print(f"reliability: {label}: attack, {connections} connection(s), {extension}-byte extensions",
                      file=sys.stderr)
                result["attacks"].append(run_attack(path, connections, extension, args.seconds))
        print(f"reliability: {label}: connection flood", file=sys.stderr)
        result["flood"] = run_flood(path, args.seconds)
        runs[label] = (path, result)
        print(json.dumps(result, indent=1, default=str), file=sys.stderr)
    section = render(runs, args.seconds)
    if args.no_write:
        print(section)
    else:
        write_section(section)
        print(f"reliability: wrote the section to {REPORT}", file=sys.stderr)


if __name__ == "__main__":
    main()
