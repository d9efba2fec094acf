#!/usr/bin/env python3
"""Paired A/B of two gateway builds: both run at once, short wrk runs alternate between them, and each pair of
adjacent runs gives one ratio (B's requests per server CPU-second over A's). The median of many pairs resolves
differences of a few percent on a VM whose speed drifts by a fifth within minutes, where separate runs cannot.

    bench/ab.py --a base=/tmp/old/gateway --b change=.build/release/gateway \\
        [--scenarios signup,refresh,lookup] [--pairs 15] [--seconds 2] [--connections 64]

Each gateway gets a fresh data directory and the benchmark configuration of bench/run.sh. The order within a pair
alternates (A B, B A, ...) so that a drift inside a pair does not favour one build. The one-core signing rate
(`openssl speed rsa2048`) is measured before and after each scenario; signing scenarios are also reported as a
share of it. Prints a markdown table; --out writes every pair as JSON.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import Gateway, rsa_sign_per_core  # noqa: E402


def quartiles(values):
    ordered = sorted(values)
    n = len(ordered)
    return ordered[n // 4], statistics.median(ordered), ordered[(3 * n) // 4]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--a", required=True, help="label=path of the base build")
    parser.add_argument("--b", required=True, help="label=path of the changed build")
    parser.add_argument("--scenarios", default="signup,refresh,lookup")
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--out")
    args = parser.parse_args()
    (label_a, path_a), (label_b, path_b) = (tuple(x.split("=", 1)) for x in (args.a, args.b))

    results = {}
    for scenario in [s for s in args.scenarios.split(",") if s]:
        sign_before = rsa_sign_per_core(3)
        gateways = {label_a: Gateway(path_a), label_b: Gateway(path_b)}
        try:
            for gateway in gateways.values():
                gateway.wrk(scenario, args.connections, 2)  # warm-up (and for sign-ups, the same database growth)
            pairs = []
            for index in range(args.pairs):
                order = [label_a, label_b] if index % 2 == 0 else [label_b, label_a]
                runs = {label: gateways[label].wrk(scenario, args.connections, args.seconds) for label in order}
                per_cpu = {label: run["requests"] / run["cpu_s"] for label, run in runs.items()}
                errors = sum(run["errors"] for run in runs.values())
                pairs.append({"a": per_cpu[label_a], "b": per_cpu[label_b], "ratio": per_cpu[label_b] / per_cpu[label_a],
                              "errors": errors})
                print(f"{scenario} pair {index + 1}: {label_a} {per_cpu[label_a]:,.0f}, {label_b} {per_cpu[label_b]:,.0f} "
                      f"req/CPU-s, ratio {per_cpu[label_b] / per_cpu[label_a]:.3f}", file=sys.stderr)
        finally:
            for gateway in gateways.values():
                gateway.stop()
        sign_after = rsa_sign_per_core(3)
        results[scenario] = {"pairs": pairs, "sign": (sign_before, sign_after)}

    print(f"Paired runs: {args.pairs} pairs × {args.seconds} s per build and scenario, {args.connections} connections, "
          f"both builds running at once, order alternating; wrk with 1 thread on the same cores.\n")
    print(f"| scenario | {label_a} req/CPU-s (median) | {label_b} req/CPU-s (median) | ratio {label_b}/{label_a}: "
          f"median (quartiles) | {label_b} wins | one-core sign/s | {label_a} ÷ sign | {label_b} ÷ sign | errors |")
    print("|---|---|---|---|---|---|---|---|---|")
    for scenario, result in results.items():
        pairs = result["pairs"]
        a = statistics.median(p["a"] for p in pairs)
        b = statistics.median(p["b"] for p in pairs)
        low, mid, high = quartiles([p["ratio"] for p in pairs])
        wins = sum(1 for p in pairs if p["ratio"] > 1)
        sign = sum(result["sign"]) / 2
        signing = scenario != "lookup"
        print(f"| {scenario} | {a:,.0f} | {b:,.0f} | {mid:.3f} ({low:.3f}–{high:.3f}) | {wins}/{len(pairs)} | "
              f"{result['sign'][0]:,.0f}–{result['sign'][1]:,.0f} | {f'{a / sign:.0%}' if signing else '—'} | "
              f"{f'{b / sign:.0%}' if signing else '—'} | {sum(p['errors'] for p in pairs)} |")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
