#!/usr/bin/env python3
"""The share of the gateway's CPU spent signing, sampled by perf while the load runs: a yardstick that moves with
the machine instead of being measured beside it.

    bench/signing_share.py [--binary .build/release/gateway] [--scenarios signup,refresh] [--rounds 8] [--seconds 4]

Why: the issue's ratio (requests per server CPU-second ÷ one-core `openssl speed rsa2048`) divides a number
measured under load by one measured seconds later. On a shared VM the one-core rate itself moves by a quarter
within a minute (2,816 to 3,644 signatures/s in consecutive 2-s readings), so a round's ratio can land anywhere
between 61 % and 93 % for one binary. Sampling where the gateway's own CPU goes answers the same question inside
one measurement: when every request costs one RSA signature, the share of its CPU that libcrypto takes is the
share of the signing limit reached, provided a signature costs as much in the gateway as in `openssl speed`
(each round prints both costs, so that proviso is checked, not assumed). Both halves of that share are sampled at
the same instants, so a slower or faster machine moves them together.

libcrypto's share is the signature's within about a point: libcrypto also hashes the ID token (SHA-256) and seals
the refresh token (AES-GCM), while the signature's own allocations run in libc (a DWARF profile of signUp:
libcrypto 74.8 % of the samples, `RSA_sign` and what it calls 75.6 %).

Each round: wrk at 64 connections for --seconds under `perf record -F 499` (leaf samples only, no call graphs, so
perf itself costs well under a percent), then a 1-s one-core `openssl speed` for the classic ratio beside it.
Needs perf (`linux-perf` on Debian) and permission to attach to the process (root, or perf_event_paranoid <= 1).
"""

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import Gateway, rsa_sign_per_core  # noqa: E402

CRYPTO = "libcrypto.so.3"


def dso_shares(perf_data: str) -> dict[str, float]:
    """Percent of the samples in each shared object."""
    report = subprocess.run(["perf", "report", "-i", perf_data, "--sort", "dso", "--stdio", "-g", "none"],
                            capture_output=True, text=True, check=True).stdout
    return {m.group(2): float(m.group(1)) for m in re.finditer(r"^\s+([\d.]+)%\s+(\S+)", report, re.M)}


def sampled_round(gateway: Gateway, scenario: str, seconds: int) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".perf") as data:
        # perf stops a second before wrk does, so that it samples only the steady part of the run.
        perf = subprocess.Popen(["perf", "record", "-F", "499", "-o", data.name, "-p", str(gateway.process.pid),
                                 "--", "sleep", str(seconds - 1)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run = gateway.wrk(scenario, 64, seconds)
        perf.wait()
        shares = dso_shares(data.name)
    sign_rate = rsa_sign_per_core(1)
    us_per_request = 1e6 * run["cpu_s"] / run["requests"]
    share = shares.get(CRYPTO, 0.0) / 100
    return {"req_per_cpu_s": run["requests"] / run["cpu_s"], "us_per_request": us_per_request,
            "share": share, "crypto_us": share * us_per_request, "sign_rate": sign_rate,
            "sign_us": 1e6 / sign_rate, "ratio": run["requests"] / run["cpu_s"] / sign_rate,
            "errors": run["errors"]}


def spread(values: list[float], fmt: str) -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/gateway")
    parser.add_argument("--scenarios", default="signup,refresh")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=4)
    args = parser.parse_args()

    rows = []
    for scenario in args.scenarios.split(","):
        gateway = Gateway(args.binary)
        try:
            gateway.wrk(scenario, 64, 2)   # warm-up: first connections, first WAL growth
            rounds = [sampled_round(gateway, scenario, args.seconds) for _ in range(args.rounds)]
        finally:
            gateway.stop()
        for index, r in enumerate(rounds, 1):
            print(f"{scenario} round {index}: {r['req_per_cpu_s']:,.0f} req/CPU-s ({r['us_per_request']:.0f} µs), "
                  f"libcrypto {r['share']:.1%} = {r['crypto_us']:.0f} µs; openssl speed {r['sign_rate']:,.0f}/s "
                  f"= {r['sign_us']:.0f} µs; ratio {r['ratio']:.1%}; errors {r['errors']}", file=sys.stderr)
        rows.append((scenario, rounds))

    print(f"{args.rounds} rounds of {args.seconds} s per scenario, 64 connections, wrk with 1 thread on the same cores; "
          "median (range).\n")
    print("| scenario | libcrypto share of the gateway's CPU | req per server CPU-s ÷ one-core sign/s (1-s reading after "
          "each round) | signature in the gateway ÷ in `openssl speed` (µs) | errors |")
    print("|---|---|---|---|---|")
    for scenario, rounds in rows:
        cost = [r["crypto_us"] / r["sign_us"] for r in rounds]
        print(f"| {scenario} | {spread([100 * r['share'] for r in rounds], '{:.1f} %')} "
              f"| {spread([100 * r['ratio'] for r in rounds], '{:.0f} %')} "
              f"| {spread(cost, '{:.2f}')} | {sum(r['errors'] for r in rounds)} |")


if __name__ == "__main__":
    main()
