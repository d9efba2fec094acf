#!/usr/bin/env python3
"""Before/after for several gateway builds in one run, with the same-run ratio method of bench/run.sh.

    bench/compare.py --binary base=/tmp/a/gateway --binary change=.build/release/gateway \\
        [--duration 8] [--connections 64] [--rounds 2] [--half-load] [--out results.json]

The machine is shared and noisy, so builds are interleaved (every round runs each build once, in turn) and
every figure is requests per second of CPU the gateway itself used (user + system from /proc/<pid>/stat),
divided by `openssl speed rsa2048` on one core, measured at the start and at the end of the same run (the
mean is used; both are printed). wrk runs on the same cores; its CPU is not counted.

With --half-load, each build's best closed-loop rate is then offered again at half that rate (wrk with a
random per-request pause, bench/common.lua's BENCH_DELAY_MS and BENCH_PACING) and the latency percentiles at
that load are reported.
Prints a markdown table; raw numbers go to --out as JSON.
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = ("signup", "refresh", "lookup")
CONFIG = {"anonymous": {"signUpsPerIPPerHour": 1_000_000_000}, "logLevel": "info",
          "http": {"maxConnectionsPerClient": 100_000},
          "email": {"limits": {"signUpsPerIPPerHour": 1_000_000_000, "failedPasswordsPerAccount": 0}}}


def rsa_sign_per_core(seconds: int) -> float:
    out = subprocess.run(["openssl", "speed", "-seconds", str(seconds), "rsa2048"], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("rsa 2048 bits"):
            return float(line.split()[5])
    raise RuntimeError("no rsa 2048 line in openssl speed output")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Gateway:
    def __init__(self, binary: str):
        self.data_dir = tempfile.mkdtemp(prefix="gatehouse-compare-")
        config = Path(self.data_dir) / "config.json"
        config.write_text(json.dumps(CONFIG))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        data = Path(self.data_dir) / "data"
        data.mkdir()
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data),
             "--config", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/readyz", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        request = urllib.request.Request(
            self.base + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench-key",
            data=b'{"returnSecureToken":true}', headers={"Content-Type": "application/json"})
        account = json.loads(urllib.request.urlopen(request, timeout=10).read())
        self.env = dict(os.environ, BENCH_ID_TOKEN=account["idToken"], BENCH_REFRESH_TOKEN=account["refreshToken"])

    def wrk(self, scenario: str, connections: int, duration: int, delay_ms: float = 0) -> dict:
        with tempfile.NamedTemporaryFile(suffix=".json") as result:
            env = dict(self.env, BENCH_RESULT_FILE=result.name)
            if delay_ms > 0:
                env["BENCH_DELAY_MS"] = f"{delay_ms:.3f}"
                env["BENCH_PACING"] = "exponential"   # independent arrivals, as in bench/run.sh
                env["BENCH_SEED"] = "17"
            before = cpu_seconds(self.process.pid)
            subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--timeout", "10s",
                            "-s", f"bench/{scenario}.lua", self.base], cwd=REPO, env=env,
                           stdout=subprocess.DEVNULL, check=True)
            cpu = cpu_seconds(self.process.pid) - before
            data = json.loads(Path(result.name).read_text())
        data["cpu_s"] = cpu
        data["errors"] = sum(data[k] for k in ("non_2xx", "connect_errors", "read_errors", "write_errors", "timeouts"))
        data["rps"] = data["requests"] / (data["duration_us"] / 1e6)
        return data

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        shutil.rmtree(self.data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", action="append", required=True, help="label=path")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--half-load", action="store_true")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated subset of signup,refresh,lookup")
    parser.add_argument("--out")
    args = parser.parse_args()
    builds = [tuple(b.split("=", 1)) for b in args.binary]
    scenarios = [s for s in args.scenarios.split(",") if s]
    assert all(s in SCENARIOS for s in scenarios), f"scenarios must be among {SCENARIOS}"

    # The one-core signing rate drifts by a fifth within minutes on a shared VM, so it is measured before every
    # round and once more at the end; each round's runs are divided by the mean of the two measurements around it.
    sign_marks = [rsa_sign_per_core(3)]
    sign_start = sign_marks[0]
    totals = {label: {s: {"requests": 0, "cpu_s": 0.0, "rps": [], "errors": 0, "per_round": []} for s in SCENARIOS}
              for label, _ in builds}
    for round_index in range(args.rounds):
        if round_index > 0:
            sign_marks.append(rsa_sign_per_core(3))
        for label, binary in builds:
            gateway = Gateway(binary)
            try:
                gateway.wrk("lookup", 16, 2)  # warm-up
                for scenario in scenarios:
                    run = gateway.wrk(scenario, args.connections, args.duration)
                    total = totals[label][scenario]
                    total["requests"] += run["requests"]
                    total["cpu_s"] += run["cpu_s"]
                    total["rps"].append(run["rps"])
                    total["errors"] += run["errors"]
                    total["per_round"].append(run["requests"] / run["cpu_s"])
                    print(f"round {round_index + 1} {label} {scenario}: {run['rps']:,.0f} req/s, "
                          f"{run['requests'] / run['cpu_s']:,.0f} req per CPU-s, p99 {run['p99_us'] / 1000:.2f} ms",
                          file=sys.stderr)
            finally:
                gateway.stop()
    half = {}
    if args.half_load:
        for label, binary in builds:
            gateway = Gateway(binary)
            try:
                gateway.wrk("lookup", 16, 2)
                for scenario in scenarios:
                    target = max(totals[label][scenario]["rps"]) / 2
                    connections = 16
                    run = gateway.wrk(scenario, connections, args.duration, delay_ms=connections / target * 1000)
                    half[(label, scenario)] = dict(run, target=target)
                    print(f"half load {label} {scenario}: offered {target:,.0f}/s, got {run['rps']:,.0f}/s, "
                          f"p99 {run['p99_us'] / 1000:.2f} ms", file=sys.stderr)
            finally:
                gateway.stop()
    sign_end = rsa_sign_per_core(3)
    sign_marks.append(sign_end)
    sign = (sign_start + sign_end) / 2
    round_signs = [(sign_marks[i] + sign_marks[i + 1]) / 2 for i in range(args.rounds)]

    print(f"One-core RSA-2048 sign/s in this run: {sign_start:,.0f} at the start, {sign_end:,.0f} at the end "
          f"(mean {sign:,.0f}; before each round and at the end: {', '.join(f'{m:,.0f}' for m in sign_marks)}). "
          f"{args.rounds} rounds × {args.duration} s per build and scenario, "
          f"{args.connections} connections, wrk with 1 thread on the same cores.\n")
    header = "| build | " + " | ".join(f"{s} req/CPU-s | {s} ÷ sign" for s in ("signup", "refresh")) + \
             " | lookup req/CPU-s | errors |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    for label, _ in builds:
        cells = []
        for scenario in SCENARIOS:
            if scenario not in scenarios:
                cells.extend(["—"] if scenario == "lookup" else ["—", "—"])
                continue
            t = totals[label][scenario]
            per_cpu = t["requests"] / t["cpu_s"] if t["cpu_s"] else 0
            cells.append(f"{per_cpu:,.0f}")
            if scenario != "lookup":
                cells.append(f"{per_cpu / sign:.0%}")
        errors = sum(totals[label][s]["errors"] for s in scenarios)
        print(f"| {label} | " + " | ".join(cells) + f" | {errors} |")
    print("\nPer round (each round's requests per server CPU-second; signing scenarios also ÷ the one-core rate "
          "measured around that round), median and range:\n")
    print("| build | scenario | per round | median | ÷ sign per round | median ÷ sign |")
    print("|---|---|---|---|---|---|")
    for label, _ in builds:
        for scenario in scenarios:
            rounds = totals[label][scenario]["per_round"]
            median = sorted(rounds)[len(rounds) // 2]
            if scenario == "lookup":
                print(f"| {label} | {scenario} | {' / '.join(f'{r:,.0f}' for r in rounds)} | {median:,.0f} | — | — |")
            else:
                ratios = [r / s for r, s in zip(rounds, round_signs)]
                print(f"| {label} | {scenario} | {' / '.join(f'{r:,.0f}' for r in rounds)} | {median:,.0f} | "
                      f"{' / '.join(f'{x:.0%}' for x in ratios)} | {sorted(ratios)[len(ratios) // 2]:.0%} |")
    if half:
        print("\n| build | scenario | offered req/s (half the best) | achieved req/s | p50 ms | p90 ms | p99 ms | errors |")
        print("|---|---|---|---|---|---|---|---|")
        for (label, scenario), run in half.items():
            print(f"| {label} | {scenario} | {run['target']:,.0f} | {run['rps']:,.0f} | {run['p50_us'] / 1000:.2f} | "
                  f"{run['p90_us'] / 1000:.2f} | {run['p99_us'] / 1000:.2f} | {run['errors']} |")
    if args.out:
        Path(args.out).write_text(json.dumps({"sign_start": sign_start, "sign_end": sign_end, "sign_marks": sign_marks,
                                              "totals": totals,
                                              "half": {f"{k[0]}/{k[1]}": v for k, v in half.items()}}, indent=1))


if __name__ == "__main__":
    main()
