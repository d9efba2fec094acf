"""Two gateway processes on one PostgreSQL database (issue 16): whatever one instance does, the other sees;
single-use things are used once across both; races are decided by the database; a server restart is ridden
out. Each test gets a fresh database on the run's throwaway cluster (`pg_database`).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from apple_stand_in import AppleStandIn
from email_verbs import CHEAP_SCRYPT, email_config, send_oob_raw, sign_in_raw, sign_up
from harness import run_cli
from idp_verbs import claims, link_idp_raw, sign_in_with_idp, sign_in_with_idp_raw, sign_in_with_pending_token_raw, unique
from test_apple import DUPLICATE, nonce
from test_apple import sign_in_raw as apple_sign_in_raw
from verbs import (
    IDENTITY, admin_headers, admin_post, assert_business_error, jwt_header, lookup, ok_json, post_json,
    published_kids, refresh, refresh_raw, send, sign_up_anonymously,
)

MASTER_KEY = {"GATEHOUSE_MASTER_KEY": "5e" * 32}
PARALLEL = 50


@pytest.fixture
def two(make_gateway, pg_database):
    """Starts two gateways (same config, same master key) on one fresh database."""

    def start(config: dict | None = None, env: dict | None = None):
        environment = {**MASTER_KEY, **(env or {})}
        return tuple(make_gateway(config=config, env=environment, database_url=pg_database) for _ in range(2))

    return start


def in_parallel(calls) -> list:
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
        return [future.result(timeout=120) for future in futures]


def test_a_user_created_on_one_signs_in_on_the_other(two):
    one, other = two({"email": {"scrypt": CHEAP_SCRYPT}})
    created = sign_up(one, "ada@example.com", "secret123")
    signed_in = ok_json(sign_in_raw(other, "ada@example.com", "secret123"))
    assert signed_in["localId"] == created["localId"]
    assert lookup(one, signed_in["idToken"])["email"] == "ada@example.com"


def test_a_refresh_token_issued_by_one_refreshes_on_the_other(two):
    one, other = two()
    account = sign_up_anonymously(one)
    refreshed = refresh(other, account["refreshToken"])
    assert refreshed["user_id"] == account["localId"]
    assert lookup(one, refreshed["id_token"])["localId"] == account["localId"]


def test_a_pending_token_used_on_both_at_once_signs_in_exactly_once(two):
    one, other = two({"emulator": True})
    idp = claims(unique())
    owner = sign_in_with_idp(one, "apple.com", idp)
    anonymous = sign_up_anonymously(other)
    pending = ok_json(link_idp_raw(other, anonymous["idToken"], "apple.com", idp, return_idp_credential=True))["pendingToken"]
    responses = in_parallel([lambda gw=gw: sign_in_with_pending_token_raw(gw, pending) for gw in (one, other) * 10])
    winners = [r for r in responses if r.status_code == 200]
    assert len(winners) == 1, [r.text for r in winners]
    assert winners[0].json()["localId"] == owner["localId"]
    for loser in (r for r in responses if r.status_code != 200):
        assert loser.status_code == 400 and loser.json()["error"]["message"] == "INVALID_PENDING_TOKEN", loser.text


def test_an_apple_nonce_used_on_both_at_once_is_accepted_exactly_once(two, apple: AppleStandIn):
    one, other = two(apple.gateway_config())
    # No warm-up: the first round meets both instances with cold key caches, whose concurrent callers share
    # one fetch of Apple's keys.
    for round_number in range(5):
        raw = nonce()
        token = apple.id_token(nonce=raw, sub=f"nonce-user-{round_number}")
        responses = in_parallel([lambda gw=gw: apple_sign_in_raw(gw, token, raw) for gw in (one, other, one, other)])
        assert sum(r.status_code == 200 for r in responses) == 1, [r.text for r in responses]
        for loser in (r for r in responses if r.status_code != 200):
            assert_business_error(loser, DUPLICATE)


def test_an_oob_code_used_on_both_at_once_works_exactly_once(two):
    one, other = two({"email": {"scrypt": CHEAP_SCRYPT}})
    sign_up(one, "oob@example.com", "old-password")
    for attempt in range(5):
        code = ok_json(admin_post(one, "accounts:sendOobCode", {
            "requestType": "PASSWORD_RESET", "email": "oob@example.com", "returnOobLink": True}))["oobCode"]
        responses = in_parallel([
            lambda gw=gw, n=n: post_json(gw, IDENTITY + "/accounts:resetPassword",
                                         {"oobCode": code, "newPassword": f"new-{attempt}-{n}"})
            for n, gw in enumerate((one, other, one, other))
        ])
        assert sum(r.status_code == 200 for r in responses) == 1, [r.text for r in responses]
        for loser in (r for r in responses if r.status_code != 200):
            assert_business_error(loser, "INVALID_OOB_CODE")


def test_parallel_sign_ins_of_one_new_identity_over_both_create_exactly_one_user(two):
    one, other = two({"emulator": True})
    idp = claims(unique())
    responses = in_parallel([lambda gw=gw: sign_in_with_idp_raw(gw, "apple.com", idp) for gw in (one, other) * (PARALLEL // 2)])
    assert [r.status_code for r in responses] == [200] * PARALLEL, [r.text for r in responses if r.status_code != 200]
    assert len({r.json()["localId"] for r in responses}) == 1
    assert sum(1 for r in responses if r.json().get("isNewUser") is True) == 1
    owners = ok_json(admin_post(other, "accounts:lookup",
                                {"federatedUserId": [{"providerId": "apple.com", "rawId": idp["sub"]}]}))["users"]
    assert len(owners) == 1


def test_password_attempt_limits_hold_across_both(two):
    limits = {"failedPasswordsPerAccount": 4, "failedPasswordWindowSeconds": 600}
    one, other = two({"email": {"scrypt": CHEAP_SCRYPT, "limits": limits}})
    sign_up(one, "guess@example.com", "right-password")
    for gw in (one, other, one, other):
        assert_business_error(sign_in_raw(gw, "guess@example.com", "wrong-guess"), "INVALID_PASSWORD")
    for gw in (one, other):
        assert_business_error(sign_in_raw(gw, "guess@example.com", "right-password"), "TOO_MANY_ATTEMPTS_TRY_LATER")


REFRESHERS = 6
RACE_ROUNDS = 6


def refreshing_during(change, gateways, refresh_token: str) -> list[int]:
    """Refreshes `refresh_token` from several threads over `gateways` until `change()` (run once the refreshes
    are flowing) has returned; the statuses the refreshes got."""
    stop = threading.Event()
    statuses: list[int] = []

    def refresh_until_stopped(gw):
        while not stop.is_set():
            statuses.append(refresh_raw(gw, refresh_token).status_code)

    threads = [threading.Thread(target=refresh_until_stopped, args=(gw,)) for gw in gateways * (REFRESHERS // 2)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while statuses.count(200) < 3 * REFRESHERS and time.monotonic() < deadline:
            time.sleep(0.005)
        change()
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert statuses.count(200) >= 3 * REFRESHERS, statuses  # the change met refreshes in flight
    assert set(statuses) <= {200, 400}, statuses
    return statuses


def test_refreshes_racing_an_admin_disable_never_undo_it(two):
    """A refresh writes lastRefreshAt: it must never write back the `disabled` it read before the disable."""
    one, other = two({"email": {"scrypt": CHEAP_SCRYPT}})
    for round_number in range(RACE_ROUNDS):
        account = sign_up(one, f"disable-{round_number}@example.com", "secret123")
        local_id = account["localId"]
        refreshing_during(lambda: ok_json(admin_post(one, "accounts:update", {"localId": local_id, "disableUser": True})),
                          (one, other), account["refreshToken"])
        user = ok_json(admin_post(other, "accounts:lookup", {"localId": [local_id]}))["users"][0]
        assert user.get("disabled") is True, f"round {round_number}: a refresh re-enabled the account"
        for gw in (one, other):
            assert_business_error(refresh_raw(gw, account["refreshToken"]), "USER_DISABLED")


def test_refreshes_racing_a_password_change_never_undo_it(two):
    """The new password works and the old one, and every session made with it, end, whatever refreshes were in
    flight on either instance."""
    one, other = two({"email": {"scrypt": CHEAP_SCRYPT}})
    for round_number in range(RACE_ROUNDS):
        address = f"change-{round_number}@example.com"
        account = sign_up(one, address, "old-secret")
        local_id = account["localId"]
        refreshing_during(lambda: ok_json(admin_post(other, "accounts:update", {"localId": local_id, "password": "new-secret"})),
                          (one, other), account["refreshToken"])
        for gw in (one, other):
            assert ok_json(sign_in_raw(gw, address, "new-secret"))["localId"] == local_id, f"round {round_number}"
            assert_business_error(sign_in_raw(gw, address, "old-secret"), "INVALID_PASSWORD")
            assert_business_error(refresh_raw(gw, account["refreshToken"]), "TOKEN_EXPIRED")


def test_a_config_change_made_through_one_reaches_the_other_at_once(two):
    one, other = two()
    path = f"/identitytoolkit.googleapis.com/v2/projects/{one.project_id}/config"
    assert ok_json(send(other, "GET", path, key=None, headers=admin_headers()))["signIn"]["allowDuplicateEmails"] is False
    ok_json(send(one, "PATCH", path, key=None, headers=admin_headers(), json={"signIn": {"allowDuplicateEmails": True}}))
    assert ok_json(send(other, "GET", path, key=None, headers=admin_headers()))["signIn"]["allowDuplicateEmails"] is True


def test_each_queued_mail_is_sent_by_exactly_one_instance(make_gateway, pg_database, smtp_sink):
    config = email_config(smtp_sink.port)
    one, other = (make_gateway(config=config, env=MASTER_KEY, database_url=pg_database) for _ in range(2))
    recipients = [f"mail{n}@example.com" for n in range(12)]
    for address in recipients:
        sign_up(one, address)
    in_parallel([lambda gw=gw, a=a: ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": a}))
                 for gw, a in zip((one, other) * 6, recipients)])
    for address in recipients:
        smtp_sink.wait_for(address)
    # Both outboxes poll every 0.2 s: a duplicate would arrive within a few polls.
    time.sleep(1.5)
    assert sorted(r for mail in smtp_sink.received for r in mail.recipients) == sorted(recipients)


def test_a_rotated_key_is_published_by_both_and_signs_on_both_from_the_same_moment(two, pg_database):
    one, other = two({"tokens": {"keyCacheMaxAgeSeconds": 2}})
    before = sign_up_anonymously(one)
    old_kid = jwt_header(before["idToken"])["kid"]
    rotated = run_cli("keys", "rotate", "--config", str(one.config_path), "--database-url", pg_database, env=MASTER_KEY)
    assert rotated.returncode == 0, rotated.stderr
    new_kid = rotated.stdout.split("new key ")[1].split()[0]
    assert new_kid != old_kid

    deadline = time.monotonic() + 15
    while not all(new_kid in published_kids(gw)[1] for gw in (one, other)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for gw in (one, other):
        assert {old_kid, new_kid} <= published_kids(gw)[1]
    # Wait until one instance signs with the new key; the other, whose clock is not behind, does too.
    deadline = time.monotonic() + 15
    while jwt_header(sign_up_anonymously(one)["idToken"])["kid"] != new_kid and time.monotonic() < deadline:
        time.sleep(0.2)
    from_one = sign_up_anonymously(one)
    from_other = sign_up_anonymously(other)
    assert jwt_header(from_one["idToken"])["kid"] == new_kid
    assert jwt_header(from_other["idToken"])["kid"] == new_kid
    assert lookup(other, from_one["idToken"])["localId"] == from_one["localId"]
    assert lookup(one, from_other["idToken"])["localId"] == from_other["localId"]
    assert lookup(other, before["idToken"])["localId"] == before["localId"]


def test_postgres_restarted_mid_load_loses_no_acknowledged_sign_up(two, postgres):
    one, other = two({"anonymous": {"signUpsPerIPPerHour": 0}})
    acknowledged: list[str] = []
    statuses: list[int] = []
    lock = threading.Lock()
    stop = threading.Event()

    def load(gw):
        while not stop.is_set():
            try:
                response = requests.post(gw.url(IDENTITY + "/accounts:signUp"), params={"key": "k"},
                                         json={"returnSecureToken": True}, timeout=30)
            except requests.RequestException as error:  # the gateway itself must never drop a connection
                with lock:
                    statuses.append(-1)
                raise AssertionError(f"request failed: {error}")
            with lock:
                statuses.append(response.status_code)
                if response.status_code == 200:
                    acknowledged.append(response.json()["localId"])

    def acknowledged_count() -> int:
        with lock:
            return len(acknowledged)

    def wait_for_count(target: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while acknowledged_count() < target and time.monotonic() < deadline:
            time.sleep(0.05)
        assert acknowledged_count() >= target, f"only {acknowledged_count()} sign-ups acknowledged"

    with ThreadPoolExecutor(max_workers=8) as pool:
        workers = [pool.submit(load, gw) for gw in (one, other) * 4]
        wait_for_count(100)
        started = postgres.psql("SELECT pg_postmaster_start_time()")
        postgres.restart("immediate")
        assert postgres.psql("SELECT pg_postmaster_start_time()") != started
        after_restart = acknowledged_count()
        wait_for_count(after_restart + 200)
        stop.set()
        for worker in workers:
            worker.result(timeout=60)

    # Transactions cut by the crash run again once the server is back; only one whose COMMIT was in flight
    # (at most one per client) may end in 503, as its outcome is unknown.
    assert set(statuses) <= {200, 503}, sorted(set(statuses))
    assert statuses.count(503) <= 8, f"{statuses.count(503)} sign-ups answered 503"
    assert one.is_alive() and other.is_alive()
    ids = list(acknowledged)
    found = set()
    for start in range(0, len(ids), 100):
        body = ok_json(admin_post(other, "accounts:lookup", {"localId": ids[start:start + 100]}))
        found |= {user["localId"] for user in body.get("users", [])}
    assert found == set(ids), f"{len(set(ids) - found)} acknowledged sign-ups are missing"
    for gw in (one, other):  # both recovered without a restart of their own
        assert sign_up_anonymously(gw)["localId"]


def test_instances_starting_together_on_an_empty_database_agree_on_one_signing_key(make_gateway, pg_database):
    gateways = [make_gateway(env=MASTER_KEY, database_url=pg_database, start=False) for _ in range(4)]
    in_parallel([gw.start for gw in gateways])
    key_sets = [published_kids(gw)[1] for gw in gateways]
    assert all(keys == key_sets[0] for keys in key_sets), key_sets
    assert len(key_sets[0]) == 1
    token = sign_up_anonymously(gateways[0])["idToken"]
    for gw in gateways[1:]:
        assert lookup(gw, token)


def test_instances_need_the_shared_master_key_and_refuse_another(make_gateway, pg_database, tmp_path):
    no_key = run_cli("serve", "--port", "0", "--data-dir", str(tmp_path), "--database-url", pg_database, timeout=30)
    assert no_key.returncode == 2
    assert "GATEHOUSE_MASTER_KEY" in no_key.stderr
    make_gateway(env=MASTER_KEY, database_url=pg_database)
    wrong = run_cli("serve", "--port", "0", "--data-dir", str(tmp_path), "--database-url", pg_database,
                    env={"GATEHOUSE_MASTER_KEY": "77" * 32}, timeout=30)
    assert wrong.returncode == 2
    assert "sealed with another master key" in wrong.stderr


def test_the_database_password_is_never_logged(make_gateway, pg_database):
    # The throwaway cluster trusts local connections, so any password is accepted and must stay secret.
    secret = "pg-sekret-4711"
    url = pg_database.replace("postgresql://postgres@", f"postgresql://postgres:{secret}@", 1)
    gw = make_gateway(env=MASTER_KEY, database_url=url)
    sign_up_anonymously(gw)
    assert gw.stop() == 0
    logs = gw.log_text() + gw.stderr_path.read_text()
    assert secret not in logs
    assert "postgresql://postgres:***@" in logs


def test_migrate_storage_moves_a_sqlite_database_with_its_sealed_secrets(make_gateway, pg_database, tmp_path):
    embedded = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}})
    anonymous = sign_up_anonymously(embedded)
    sign_up(embedded, "moved@example.com", "secret123")
    kids = published_kids(embedded)[1]
    assert embedded.stop() == 0
    master_key = (embedded.data_dir / "master.key").read_text().strip()

    moved = run_cli("migrate-storage", "--from", str(embedded.data_dir), "--to", pg_database)
    assert moved.returncode == 0, moved.stderr
    assert "copied 2 users" in moved.stdout
    again = run_cli("migrate-storage", "--from", str(embedded.data_dir), "--to", pg_database)
    assert again.returncode == 2 and "empty" in again.stderr

    env = {"GATEHOUSE_MASTER_KEY": master_key}
    one = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}}, env=env, database_url=pg_database)
    other = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}}, env=env, database_url=pg_database)
    assert published_kids(one)[1] == kids
    assert refresh(one, anonymous["refreshToken"])["user_id"] == anonymous["localId"]
    assert lookup(other, anonymous["idToken"])["localId"] == anonymous["localId"]
    assert ok_json(sign_in_raw(other, "moved@example.com", "secret123"))["registered"] is True
    wrong = run_cli("serve", "--port", "0", "--data-dir", str(tmp_path), "--database-url", pg_database, env=MASTER_KEY,
                    timeout=30)
    assert wrong.returncode == 2 and "master key" in wrong.stderr
    missing = run_cli("migrate-storage", "--from", str(embedded.data_dir / "typo"), "--to", pg_database)
    assert missing.returncode == 2 and "neither" in missing.stderr
