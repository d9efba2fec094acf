"""State that outlives a process: users and signing keys across restarts, key rotation, online backup."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time

import google.oauth2.id_token as google_id_token
from google.auth.transport.requests import Request

from harness import run_cli
from verbs import (
    X509_PATH, assert_business_error, jwt_header, lookup, published_kids, refresh, refresh_raw, sign_up_anonymously,
)


def rotate_keys(gw) -> None:
    args = ["keys", "rotate", "--data-dir", str(gw.data_dir)]
    if gw.config is not None:
        gw.config_path.write_text(json.dumps(gw.config))
        args += ["--config", str(gw.config_path)]
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr + result.stdout


def test_users_and_keys_survive_a_restart(make_gateway):
    gw = make_gateway()
    account = sign_up_anonymously(gw)
    kids_before = published_kids(gw)

    gw.restart()

    assert published_kids(gw) == kids_before
    assert lookup(gw, account["idToken"])["localId"] == account["localId"]
    assert refresh(gw, account["refreshToken"])["user_id"] == account["localId"]


def test_rotated_key_is_published_at_once_but_signs_only_after_max_age(make_gateway):
    gw = make_gateway()
    old_kid = jwt_header(sign_up_anonymously(gw)["idToken"])["kid"]
    assert gw.stop() == 0

    rotate_keys(gw)
    gw.start()

    x509_kids, jwks_kids = published_kids(gw)
    assert len(jwks_kids) == 2 and x509_kids == jwks_kids
    assert old_kid in jwks_kids
    assert jwt_header(sign_up_anonymously(gw)["idToken"])["kid"] == old_kid


def test_rotated_key_takes_over_after_a_short_max_age(make_gateway):
    gw = make_gateway(config={"tokens": {"keyCacheMaxAgeSeconds": 1}})
    old_account = sign_up_anonymously(gw)
    old_kid = jwt_header(old_account["idToken"])["kid"]
    assert gw.stop() == 0

    rotate_keys(gw)
    gw.start()
    (new_kid,) = published_kids(gw)[1] - {old_kid}

    deadline = time.monotonic() + 6
    kid = jwt_header(sign_up_anonymously(gw)["idToken"])["kid"]
    while kid == old_kid and time.monotonic() < deadline:
        time.sleep(0.25)
        kid = jwt_header(sign_up_anonymously(gw)["idToken"])["kid"]
    assert kid == new_kid

    assert lookup(gw, old_account["idToken"])["localId"] == old_account["localId"]
    claims = google_id_token.verify_token(old_account["idToken"], Request(), audience=gw.project_id,
                                          certs_url=gw.url(X509_PATH))
    assert claims["sub"] == old_account["localId"]


def test_keys_list_names_every_key(make_gateway):
    gw = make_gateway()
    kids = published_kids(gw)[1]
    assert gw.stop() == 0
    result = run_cli("keys", "list", "--data-dir", str(gw.data_dir))
    assert result.returncode == 0, result.stderr
    assert all(kid in result.stdout for kid in kids)


def test_online_backup_is_a_sqlite_database_with_the_users(make_gateway, tmp_path):
    gw = make_gateway()
    uids = {sign_up_anonymously(gw)["localId"] for _ in range(3)}
    backup = tmp_path / "backup.sqlite"

    result = run_cli("backup", str(backup), "--data-dir", str(gw.data_dir))
    assert result.returncode == 0, result.stderr + result.stdout
    assert gw.is_alive()
    # The copy holds password hashes and personal data: readable by its owner only.
    assert backup.stat().st_mode & 0o077 == 0, oct(backup.stat().st_mode)

    with sqlite3.connect(f"file:{backup}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        user_tables = [t for t in tables if "user" in t.lower() or "account" in t.lower()]
        counts = {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in user_tables}
    assert len(uids) in counts.values(), counts


def test_master_key_file_is_private(make_gateway):
    gw = make_gateway()
    assert (gw.data_dir / "master.key").stat().st_mode & 0o777 == 0o600
    assert (gw.data_dir / "gatehouse.sqlite").exists()
    assert (gw.data_dir / "gatehouse.sqlite").stat().st_mode & 0o077 == 0


def test_master_key_from_the_environment_leaves_no_key_file(make_gateway):
    gw = make_gateway(env={"GATEHOUSE_MASTER_KEY": "ab" * 32})
    account = sign_up_anonymously(gw)
    assert not (gw.data_dir / "master.key").exists()
    gw.restart()
    assert refresh(gw, account["refreshToken"])["user_id"] == account["localId"]


def test_after_a_clean_stop_the_database_file_alone_holds_every_user(make_gateway, tmp_path):
    gw = make_gateway()
    accounts = [sign_up_anonymously(gw) for _ in range(5)]
    for account in accounts:  # reads too, so the reader connections have been used
        assert lookup(gw, account["idToken"])["localId"] == account["localId"]
    assert gw.stop() == 0

    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(gw.data_dir / "gatehouse.sqlite", alone / "gatehouse.sqlite")
    with sqlite3.connect(f"file:{alone / 'gatehouse.sqlite'}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = {row[0] for row in db.execute("SELECT local_id FROM users")}
    assert stored == {account["localId"] for account in accounts}
    wal = gw.data_dir / "gatehouse.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0, "committed data left in the -wal file"


def test_another_project_on_the_same_data_refuses_the_first_projects_refresh_tokens(make_gateway):
    first = make_gateway()
    account = sign_up_anonymously(first)
    assert first.stop() == 0

    second = make_gateway(data_dir=first.data_dir, start=False)
    second.project_id = "another-project"
    second.start()
    assert_business_error(refresh_raw(second, account["refreshToken"]), "INVALID_REFRESH_TOKEN")
    own = sign_up_anonymously(second)
    assert refresh(second, own["refreshToken"])["user_id"] == own["localId"]
    assert second.stop() == 0

    first.start()
    assert refresh(first, account["refreshToken"])["user_id"] == account["localId"]
    assert_business_error(refresh_raw(first, own["refreshToken"]), "INVALID_REFRESH_TOKEN")
