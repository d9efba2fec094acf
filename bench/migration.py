#!/usr/bin/env python3
"""Import and export throughput of `gateway users import|export` (issue 15), against the physical limit measured
in the same run: SQLite itself writing (and dumping) the same rows into the same schema.

  bench/migration.py [--binary .build/release/gateway] [--counts 100000 1000000]

For each count: an auth:export file of pre-hashed users (Firebase scrypt shaped, so no hash is computed) is made
(`bench/make_auth_export.py`, not timed), imported into an empty data directory, then exported. The ceiling runs
the sqlite3 shell on a copy of the gateway's schema: one `INSERT … SELECT` from a recursive CTE writes the same
number of users (and a third as many identities, as in the file) with the same columns, indexes and pragmas (WAL,
synchronous=NORMAL), and `.mode json` dumps the users table; that is what the storage engine can do on this machine
with no parsing, checking or per-row round trips. Ratios are gateway ÷ ceiling. Results replace the migration
section of bench/REPORT.md (between the markers).
"""
from __future__ import annotations

import argparse
import base64
import datetime
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "bench" / "REPORT.md"
BEGIN, END = "<!-- migration:begin -->", "<!-- migration:end -->"
KEY = base64.b64encode(b"k" * 64).decode()
GOAL_SECONDS = 60


def timed(args: list[str], **kwargs) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall seconds, CPU seconds of the child (user + system) and the finished process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(args[:3])} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return wall, cpu, done


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def sqlite_ceiling(schema_source: Path, work: Path, count: int) -> tuple[float, float, float, float]:
    """Wall and CPU seconds for sqlite3 to insert `count` users (+ count/3 identities) into the schema, then to dump
    them as JSON."""
    schema = subprocess.run(["sqlite3", str(schema_source), ".schema"], capture_output=True, text=True, check=True).stdout
    database = work / "ceiling.sqlite"
    for suffix in ["", "-wal", "-shm"]:
        Path(str(database) + suffix).unlink(missing_ok=True)
    subprocess.run(["sqlite3", str(database)], input="PRAGMA journal_mode=WAL;\n" + schema, text=True, check=True,
                   capture_output=True)
    insert = f"""
PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;
BEGIN IMMEDIATE;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {count - 1})
INSERT INTO users (local_id, email, email_verified, display_name, photo_url, phone_number, password_algorithm,
  password_parameters, password_hash, password_salt, password_updated_at, email_link_signin, disabled,
  custom_attributes, valid_since, created_at, last_login_at, last_refresh_at, tenant_id)
SELECT printf('user%08d', i), 'user' || i || '@example.com', i % 2, 'User ' || i, NULL, NULL, 'FIREBASE_SCRYPT',
  '{{"signerKey":"{KEY}","saltSeparator":"Bw==","rounds":8,"memCost":14}}', randomblob(64), randomblob(16),
  1600000000000 + i, 0, 0, CASE WHEN i % 10 = 0 THEN '{{"tier":"gold","n":' || i || '}}' END,
  1600000000 + i / 1000, 1600000000000 + i, 1600000500000 + i, NULL, NULL FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 3 FROM n WHERE i + 3 < {count})
INSERT INTO identities (provider_id, federated_id, local_id, email, email_lower, display_name, linked_at)
SELECT 'google.com', 'g' || i, printf('user%08d', i), 'user' || i || '@gmail.com', 'user' || i || '@gmail.com',
  'User ' || i, 1600000000000 + i FROM n;
COMMIT;
"""
    start, cpu = time.monotonic(), child_cpu()
    subprocess.run(["sqlite3", str(database)], input=insert, text=True, check=True, capture_output=True)
    insert_seconds, insert_cpu = time.monotonic() - start, child_cpu() - cpu
    start, cpu = time.monotonic(), child_cpu()
    with open(work / "ceiling.json", "w") as out:
        subprocess.run(["sqlite3", "-json", str(database), "SELECT * FROM users"], stdout=out, check=True)
    dump_seconds, dump_cpu = time.monotonic() - start, child_cpu() - cpu
    return insert_seconds, insert_cpu, dump_seconds, dump_cpu


def run(binary: Path, count: int, work: Path) -> dict:
    source = work / f"users-{count}.json"
    subprocess.run([sys.executable, str(REPO / "bench" / "make_auth_export.py"), str(source), str(count)], check=True)
    data = work / f"data-{count}"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    flags = ["--hash-algo", "SCRYPT", "--hash-key", KEY, "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14"]
    import_wall, import_cpu, done = timed([str(binary), "users", "import", str(source), "--data-dir", str(data), *flags])
    assert f"{count} imported" in done.stdout, done.stdout
    exported = work / f"export-{count}.json"
    export_wall, export_cpu, _ = timed([str(binary), "users", "export", str(exported), "--data-dir", str(data)])
    insert_seconds, insert_cpu, dump_seconds, dump_cpu = sqlite_ceiling(data / "gatehouse.sqlite", work, count)
    result = {"count": count, "file_mb": source.stat().st_size / 1e6, "import_s": import_wall, "import_cpu": import_cpu,
              "export_s": export_wall, "export_cpu": export_cpu, "ceiling_insert_s": insert_seconds,
              "ceiling_insert_cpu": insert_cpu, "ceiling_dump_s": dump_seconds, "ceiling_dump_cpu": dump_cpu, "export_mb": exported.stat().st_size / 1e6}
    for path in [source, exported, work / "ceiling.json"]:
        path.unlink(missing_ok=True)
    shutil.rmtree(data, ignore_errors=True)
    return result


def section(results: list[dict], binary: Path) -> str:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [BEGIN, "## Migration: `gateway users import` / `export` (issue 15)", "",
             f"Generated by `bench/migration.py` on {now} — {os.cpu_count()} cores, binary `{binary}`, SQLite data "
             "directory. Pre-hashed users (Firebase scrypt hashes stored as they are, none computed), a third with a "
             "Google identity, a tenth with custom claims. The ceiling is SQLite itself in the same run: the sqlite3 "
             "shell inserting the same number of rows into a copy of the schema from a recursive CTE (no parsing, no "
             "checks, one statement), and dumping the users table with `.mode json`. The machine is shared (other "
             "processes ran during the run), so the ratio is given on wall time and on CPU time (ceiling CPU s ÷ "
             "gateway CPU s for the same rows); the CPU ratio is the steadier one.", "",
             "| users | file MB | import s (CPU s) | import users/s | ceiling insert users/s | import ÷ ceiling "
             "(wall / CPU) | goal ≤ 60 s | export s (CPU s) | export users/s | ceiling dump users/s | export ÷ ceiling "
             "(wall / CPU) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        n = r["count"]
        imp, ceil_imp = n / r["import_s"], n / r["ceiling_insert_s"]
        exp, ceil_exp = n / r["export_s"], n / r["ceiling_dump_s"]
        imp_cpu = r["ceiling_insert_cpu"] / max(r["import_cpu"], 1e-9)
        exp_cpu = r["ceiling_dump_cpu"] / max(r["export_cpu"], 1e-9)
        goal = ("meets" if r["import_s"] <= GOAL_SECONDS else "**misses**") if n >= 1_000_000 else "—"
        lines.append(f"| {n:,} | {r['file_mb']:.0f} | {r['import_s']:.1f} ({r['import_cpu']:.1f}) | {imp:,.0f} | "
                     f"{ceil_imp:,.0f} | {imp / ceil_imp:.0%} / {imp_cpu:.0%} | {goal} | {r['export_s']:.1f} "
                     f"({r['export_cpu']:.1f}) | {exp:,.0f} | {ceil_exp:,.0f} | {exp / ceil_exp:.0%} / {exp_cpu:.0%} |")
    lines += ["", "Import reads the file once, cuts out each user with a byte scan and parses it alone (memory stays "
              "bounded by the file plus one batch), checks it, and writes 1000 users per transaction while the next "
              "batch is parsed; each user costs a look-up by localId (resume), an identity look-up per identity, and "
              "the inserts. Export makes a first pass to find the most common hash configuration, then writes every "
              "user with its identities.", END]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "gateway"))
    parser.add_argument("--counts", nargs="+", type=int, default=[100_000, 1_000_000])
    args = parser.parse_args()
    binary = Path(args.binary)
    with tempfile.TemporaryDirectory(prefix="gatehouse-migration-") as temp:
        results = []
        for count in args.counts:
            print(f"bench: {count} users", file=sys.stderr)
            results.append(run(binary, count, Path(temp)))
            print(f"bench: {results[-1]}", file=sys.stderr)
    text = REPORT.read_text()
    block = section(results, binary.relative_to(REPO) if binary.is_relative_to(REPO) else binary)
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    REPORT.write_text(text)
    print(block)


if __name__ == "__main__":
    main()
