"""Leaving Firebase with the users (issue 15): firebase-admin's `import_users` with every hash Firebase accepts, the
published Firebase scrypt vector, per-user errors, a batch of 1000; `gateway users import` of an auth:export file of
10k users interrupted and resumed; `gateway users export` re-imported into a fresh gateway where everyone signs in.

Hashes are made here with Python's hashlib, hmac and bcrypt, independently of the gateway's own code."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import bcrypt
import firebase_admin
import pytest
import requests
from firebase_admin import auth

from admin_sdk import emulator_app, production_app
from email_verbs import CHEAP_SCRYPT
from harness import REPO_ROOT, clean_environment, gateway_binary, run_cli
from verbs import API_KEY, IDENTITY, jwt_claims

PASSWORD = "correct horse"
SALT = b"NaCl-salt"
SIGNER_KEY = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")


@pytest.fixture(params=["production", "emulator"])
def admin(request, make_gateway, monkeypatch, tmp_path):
    setup = (production_app(make_gateway, monkeypatch, tmp_path) if request.param == "production"
             else emulator_app(make_gateway, monkeypatch))
    yield setup
    firebase_admin.delete_app(setup.app)


def sign_in(gw, email: str, password: str, session=requests) -> requests.Response:
    return session.post(gw.url(IDENTITY + "/accounts:signInWithPassword"), params={"key": API_KEY},
                        json={"email": email, "password": password, "returnSecureToken": True}, timeout=30)


def test_published_firebase_scrypt_vector_imports_and_signs_in(admin):
    """`UserImportHash.scrypt` with the firebase/scrypt README vector; profile, claims, identity and times kept."""
    hash_alg = auth.UserImportHash.scrypt(SIGNER_KEY, rounds=8, memory_cost=14, salt_separator=b"\x07")
    user = auth.ImportUserRecord(
        uid="imp1", email="imp1@example.com", display_name="Imp", phone_number="+15555550111", email_verified=True,
        custom_claims={"tier": "gold"},
        user_metadata=auth.UserMetadata(creation_timestamp=1600000000000, last_sign_in_timestamp=1600000001000),
        password_hash=base64.b64decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
        password_salt=base64.b64decode("42xEC+ixf3L2lw=="),
        provider_data=[auth.UserProvider(uid="g-1", provider_id="google.com", email="imp1@gmail.com")])
    result = auth.import_users([user], hash_alg=hash_alg, app=admin.app)
    assert (result.success_count, result.failure_count) == (1, 0)
    assert sign_in(admin.gw, "imp1@example.com", "user1passwore").json()["error"]["message"] == "INVALID_PASSWORD"
    signed_in = sign_in(admin.gw, "imp1@example.com", "user1password")
    assert signed_in.status_code == 200, signed_in.text
    assert jwt_claims(signed_in.json()["idToken"])["tier"] == "gold"
    record = auth.get_user("imp1", app=admin.app)
    assert (record.display_name, record.phone_number, record.email_verified) == ("Imp", "+15555550111", True)
    assert record.user_metadata.creation_timestamp == 1600000000000
    assert {p.provider_id for p in record.provider_data} >= {"google.com", "password"}
    # Rehashed to the gateway's own hash on that first success: the same password still works.
    assert sign_in(admin.gw, "imp1@example.com", "user1password").status_code == 200


def hashed(name: str) -> tuple[auth.UserImportHash, bytes, bytes | None]:
    """(firebase-admin hash option, password hash, salt) for one algorithm, computed with Python's libraries."""
    pw = PASSWORD.encode()
    key = b"signer-key"
    if name == "bcrypt":
        return auth.UserImportHash.bcrypt(), bcrypt.hashpw(pw, bcrypt.gensalt(4)), None
    if name == "standard_scrypt":
        return (auth.UserImportHash.standard_scrypt(memory_cost=1024, parallelization=2, block_size=8, derived_key_length=48),
                hashlib.scrypt(pw, salt=SALT, n=1024, r=8, p=2, dklen=48), SALT)
    if name == "scrypt":  # the published vector (password user1password)
        return (auth.UserImportHash.scrypt(SIGNER_KEY, rounds=8, memory_cost=14, salt_separator=b"\x07"),
                base64.b64decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
                base64.b64decode("42xEC+ixf3L2lw=="))
    if name.startswith("hmac_"):
        digest = name.removeprefix("hmac_")
        return getattr(auth.UserImportHash, name)(key), hmac.new(key, pw + SALT, digest).digest(), SALT
    if name.startswith("pbkdf"):
        digest, rounds = ("sha1", 0) if name == "pbkdf_sha1" else ("sha256", 1000)
        return (getattr(auth.UserImportHash, name)(rounds), hashlib.pbkdf2_hmac(digest, pw, SALT, max(1, rounds), 32), SALT)
    rounds = {"md5": 0, "sha1": 1, "sha256": 2, "sha512": 20}[name]
    if rounds == 0:
        return auth.UserImportHash.md5(0), hashlib.md5(SALT + pw).hexdigest().encode(), SALT
    value = hashlib.new(name, SALT + pw).digest()
    for _ in range(rounds - 1):
        value = hashlib.new(name, value).digest()
    return getattr(auth.UserImportHash, name)(rounds), value, SALT


ALGORITHMS = ["md5", "sha1", "sha256", "sha512", "hmac_md5", "hmac_sha1", "hmac_sha256", "hmac_sha512", "pbkdf_sha1",
              "pbkdf2_sha256", "standard_scrypt", "bcrypt", "scrypt"]


def test_one_vector_per_algorithm_signs_in(make_gateway, monkeypatch, tmp_path):
    setup = production_app(make_gateway, monkeypatch, tmp_path)
    try:
        for name in ALGORITHMS:
            hash_alg, password_hash, salt = hashed(name)
            password = "user1password" if name == "scrypt" else PASSWORD
            user = auth.ImportUserRecord(uid=f"alg-{name}", email=f"{name}@example.com", password_hash=password_hash,
                                         password_salt=salt)
            result = auth.import_users([user], hash_alg=hash_alg, app=setup.app)
            assert (result.success_count, result.failure_count) == (1, 0), (name, [e.reason for e in result.errors])
            wrong = sign_in(setup.gw, f"{name}@example.com", password + "!")
            assert wrong.json()["error"]["message"] == "INVALID_PASSWORD", name
            assert sign_in(setup.gw, f"{name}@example.com", password).status_code == 200, name
    finally:
        firebase_admin.delete_app(setup.app)


def test_batch_of_1000_with_claims_identities_and_per_user_errors(make_gateway, monkeypatch, tmp_path):
    setup = production_app(make_gateway, monkeypatch, tmp_path)
    try:
        key = b"batch-key"
        users = []
        for n in range(1000):
            salt = os.urandom(8)
            users.append(auth.ImportUserRecord(
                uid=f"b{n:04d}", email=f"b{n}@example.com", display_name=f"B {n}", disabled=n % 7 == 0,
                custom_claims={"n": n, "role": "member"},
                password_hash=hmac.new(key, f"pw-{n}".encode() + salt, "sha256").digest(), password_salt=salt,
                provider_data=[auth.UserProvider(uid=f"gh-{n}", provider_id="github.com", display_name=f"B {n}")]))
        result = auth.import_users(users, hash_alg=auth.UserImportHash.hmac_sha256(key), app=setup.app)
        assert (result.success_count, result.failure_count) == (1000, 0)
        record = auth.get_user("b0999", app=setup.app)
        assert record.custom_claims == {"n": 999, "role": "member"}
        assert any(p.provider_id == "github.com" and p.uid == "gh-999" for p in record.provider_data)
        assert auth.get_user("b0007", app=setup.app).disabled
        signed_in = sign_in(setup.gw, "b999@example.com", "pw-999")
        assert jwt_claims(signed_in.json()["idToken"])["n"] == 999

        # Per-user errors: firebase-admin reports each by index, the others are imported.
        mixed = [auth.ImportUserRecord(uid="fresh-1", email="fresh1@example.com"),
                 auth.ImportUserRecord(uid="b0001"),
                 auth.ImportUserRecord(uid="fresh-2", email="B2@example.com"),
                 auth.ImportUserRecord(uid="fresh-3", provider_data=[auth.UserProvider(uid="gh-3", provider_id="github.com")]),
                 auth.ImportUserRecord(uid="fresh-4")]
        outcome = auth.import_users(mixed, app=setup.app)
        assert (outcome.success_count, outcome.failure_count) == (2, 3)
        assert [(e.index, e.reason) for e in outcome.errors] == [
            (1, "localId belongs to an existing account - can not overwrite."),
            (2, "email exists in other account in database"),
            (3, "raw id exists in other account in database")]
        assert auth.get_user("fresh-4", app=setup.app).uid == "fresh-4"
    finally:
        firebase_admin.delete_app(setup.app)


# ---------------------------------------------------------------- the CLI: auth:export files

HMAC_KEY = "cli-key"
HASH_FLAGS = ["--hash-algo", "HMAC_SHA256", "--hash-key", base64.b64encode(HMAC_KEY.encode()).decode()]


def make_export(path: Path, count: int) -> None:
    done = subprocess.run([sys.executable, str(REPO_ROOT / "bench" / "make_auth_export.py"), str(path), str(count),
                           "--hmac-key", HMAC_KEY], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def user_count(data_dir: Path) -> int:
    database = data_dir / "gatehouse.sqlite"
    if not database.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT count(*) FROM users").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def interrupted_import(source: Path, data_dir: Path, total: int) -> None:
    """Starts an import and kills it (SIGKILL, no clean-up) once some but not all users are committed."""
    for batch in ["20", "5", "1"]:
        process = subprocess.Popen([str(gateway_binary()), "users", "import", str(source), "--data-dir", str(data_dir),
                                    *HASH_FLAGS, "--batch-size", batch],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=clean_environment())
        while process.poll() is None and user_count(data_dir) < total // 10:
            time.sleep(0.002)
        process.send_signal(signal.SIGKILL)
        process.wait()
        if 0 < user_count(data_dir) < total:
            return
    pytest.fail("the import always finished before it could be interrupted")


def sign_in_everyone(gw, count: int) -> None:
    def attempt(indices: range) -> list[int]:
        session = requests.Session()
        return [n for n in indices if sign_in(gw, f"user{n}@example.com", f"pw-{n}", session).status_code != 200]

    chunks = [range(start, min(count, start + 500)) for start in range(0, count, 500)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        failed = [n for part in pool.map(attempt, chunks) for n in part]
    assert failed == [], f"{len(failed)} users could not sign in, e.g. {failed[:5]}"


def test_cli_import_of_10k_interrupted_and_resumed_then_export_reimports(make_gateway, tmp_path):
    total = 10_000
    source = tmp_path / "users.json"
    make_export(source, total)
    gw = make_gateway(config={"email": {"scrypt": {"n": 16, "r": 1, "p": 1}}})

    # Written while the gateway runs on the same database; killed half-way; run again to finish.
    interrupted_import(source, gw.data_dir, total)
    partial = user_count(gw.data_dir)
    resumed = run_cli("users", "import", str(source), "--data-dir", str(gw.data_dir), *HASH_FLAGS, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert f"{total} users read: {total - partial} imported, {partial} already there (skipped), 0 failed" in resumed.stdout
    assert user_count(gw.data_dir) == total
    assert "users/s" in resumed.stderr and "ETA" in resumed.stderr
    again = run_cli("users", "import", str(source), "--data-dir", str(gw.data_dir), *HASH_FLAGS, timeout=300)
    assert f"0 imported, {total} already there (skipped), 0 failed" in again.stdout

    # A thousand users sign in first (their hashes become the gateway's scrypt): the export holds two hash groups.
    sign_in_everyone(gw, 1000)
    exported = tmp_path / "export.json"
    done = run_cli("users", "export", str(exported), "--data-dir", str(gw.data_dir), timeout=300)
    assert done.returncode == 0, done.stderr
    document = json.loads(exported.read_text())
    assert document["gatehouseHash"]["hashAlgorithm"] == "HMAC_SHA256"
    assert len(document["users"]) + len(document["gatehouseUsers"]) == total
    assert [g["hashAlgorithm"] for g in document["gatehouseHashGroups"]] == ["STANDARD_SCRYPT"]
    first = document["users"][0]
    assert set(first) <= {"localId", "email", "emailVerified", "passwordHash", "salt", "displayName", "photoUrl",
                          "lastSignedInAt", "createdAt", "phoneNumber", "disabled", "customAttributes", "providerUserInfo"}

    fresh = make_gateway(config={"email": {"scrypt": {"n": 16, "r": 1, "p": 1}}})
    reimported = run_cli("users", "import", str(exported), "--data-dir", str(fresh.data_dir), timeout=300)
    assert reimported.returncode == 0, reimported.stdout + reimported.stderr
    assert f"{total} imported" in reimported.stdout
    sign_in_everyone(fresh, total)
    claims = jwt_claims(sign_in(fresh, "user30@example.com", "pw-30").json()["idToken"])
    assert claims["tier"] == "gold" and claims["firebase"]["identities"]["google.com"] == ["g30"]


def test_cli_reports_failures_and_exits_non_zero(make_gateway, tmp_path):
    gw = make_gateway()
    source = tmp_path / "users.csv"
    # auth:export's CSV: localId, email, emailVerified, passwordHash, salt, displayName, photoUrl, providers…
    salt = b"s1"
    digest = hmac.new(HMAC_KEY.encode(), b"pw-csv" + salt, "sha256").digest()
    row = ["csv1", "csv1@example.com", "true", base64.b64encode(digest).decode(), base64.b64encode(salt).decode(),
           "\"Csv, One\""] + [""] * 16 + ["", "1600000000000", "", "", "false", ""]
    bad = ["csv2", "not-an-email"] + [""] * 26
    source.write_text(",".join(row) + "\n" + ",".join(bad) + "\n")
    done = run_cli("users", "import", str(source), "--data-dir", str(gw.data_dir), *HASH_FLAGS)
    assert done.returncode == 1
    assert "2 users read: 1 imported, 0 already there (skipped), 1 failed" in done.stdout
    assert "failed csv2: email is invalid" in done.stdout
    signed_in = sign_in(gw, "csv1@example.com", "pw-csv")
    assert signed_in.status_code == 200, signed_in.text
    bad_flags = run_cli("users", "import", str(source), "--data-dir", str(gw.data_dir), "--hash-algo", "SCRYPT", "--rounds", "9")
    assert bad_flags.returncode == 2 and "INVALID_HASH" in bad_flags.stderr


def test_cli_import_into_postgres_beside_a_running_gateway(make_gateway, pg_database, tmp_path):
    """The same import against PostgreSQL (`--database-url`), while a gateway serves from that database."""
    source = tmp_path / "users.json"
    make_export(source, 300)
    gw = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}}, env={"GATEHOUSE_MASTER_KEY": "5e" * 32},
                      database_url=pg_database)
    first = run_cli("users", "import", str(source), "--database-url", pg_database, *HASH_FLAGS, "--batch-size", "64")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "300 users read: 300 imported, 0 already there (skipped), 0 failed" in first.stdout
    again = run_cli("users", "import", str(source), "--database-url", pg_database, *HASH_FLAGS)
    assert "0 imported, 300 already there (skipped), 0 failed" in again.stdout
    sign_in_everyone(gw, 300)
    exported = tmp_path / "export.json"
    assert run_cli("users", "export", str(exported), "--database-url", pg_database).returncode == 0
    assert len(json.loads(exported.read_text())["users"]) + len(json.loads(exported.read_text()).get("gatehouseUsers", [])) == 300


def test_import_routes_take_bodies_over_the_default_limit_and_no_other_route_does(make_gateway):
    """1000 users with long profiles are more than the 1 MiB default body limit: the import routes have their own."""
    from harness import ADMIN_TOKEN
    gw = make_gateway()
    users = [{"localId": f"big{n}", "displayName": "d" * 1000, "photoUrl": "https://example.com/" + "p" * 1000}
             for n in range(1000)]
    body = json.dumps({"users": users})
    assert len(body) > 2_000_000
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"}
    answer = requests.post(gw.url(f"{IDENTITY}/projects/{gw.project_id}/accounts:batchCreate"), data=body,
                           headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text[:300]
    assert answer.json() == {"kind": "identitytoolkit#UploadAccountResponse", "error": []}
    other = requests.post(gw.url(IDENTITY + "/accounts:signUp"), params={"key": API_KEY}, data=body,
                          headers={"Content-Type": "application/json"}, timeout=60)
    assert other.status_code == 413
    # The larger limit needs a credential that is an admin's: any other bearer value, or none, keeps the default
    # limit on the import routes too, so an anonymous client never makes the gateway hold 16 MiB per connection.
    for authorization in ["Bearer not-a-token", "Bearer gha1.forged", "Bearer owner", None]:
        forged = {"Content-Type": "application/json", **({"Authorization": authorization} if authorization else {})}
        refused = requests.post(gw.url(f"{IDENTITY}/projects/{gw.project_id}/accounts:batchCreate"), data=body,
                                headers=forged, timeout=60)
        assert refused.status_code == 413, (authorization, refused.status_code, refused.text[:200])
