"""Behaviour selected by the config file: API keys, anonymous sign-up policy, token lifetime."""

from __future__ import annotations

import os
import time
from pathlib import Path

from verbs import (
    IDENTITY, assert_business_error, jwt_claims, lookup_raw, ok_json, post_json, sign_up_anonymously,
    sign_up_anonymously_raw,
)


def test_only_configured_api_keys_are_accepted(make_gateway):
    gw = make_gateway(config={"apiKeys": ["good-key"]})
    assert ok_json(sign_up_anonymously_raw(gw, key="good-key"))["localId"]
    response = sign_up_anonymously_raw(gw, key="bad-key")
    assert response.status_code == 400
    message = "API key not valid. Please pass a valid API key."
    error = response.json()["error"]
    assert (error["code"], error["message"], error["status"]) == (400, message, "INVALID_ARGUMENT")
    assert error["errors"] == [{"message": message, "domain": "global", "reason": "keyInvalid"}]


def test_api_keys_from_the_environment(make_gateway):
    gw = make_gateway(env={"GATEHOUSE_API_KEYS": "env-key-1,env-key-2"})
    assert sign_up_anonymously_raw(gw, key="env-key-2").status_code == 200
    assert sign_up_anonymously_raw(gw, key="other").status_code == 400


def test_anonymous_sign_up_can_be_disabled(make_gateway):
    gw = make_gateway(config={"anonymous": {"enabled": False}})
    assert_business_error(sign_up_anonymously_raw(gw), "ADMIN_ONLY_OPERATION")


def test_anonymous_sign_ups_are_rate_limited_per_ip(make_gateway):
    gw = make_gateway(config={"anonymous": {"signUpsPerIPPerHour": 3}})
    for _ in range(3):
        assert sign_up_anonymously_raw(gw).status_code == 200
    assert_business_error(sign_up_anonymously_raw(gw), "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_expired_id_token_is_rejected(make_gateway):
    gw = make_gateway(config={"tokens": {"idTokenLifetimeSeconds": 1, "clockSkewSeconds": 0}})
    account = sign_up_anonymously(gw)
    assert account["expiresIn"] == "1"
    claims = jwt_claims(account["idToken"])
    assert claims["exp"] - claims["iat"] == 1

    deadline = time.monotonic() + 10
    response = lookup_raw(gw, account["idToken"])
    while response.status_code == 200 and time.monotonic() < deadline:
        time.sleep(1)
        response = lookup_raw(gw, account["idToken"])
    assert_business_error(response, "TOKEN_EXPIRED")


def test_project_id_from_the_environment(make_gateway):
    gw = make_gateway(env={"GATEHOUSE_PROJECT_ID": "ignored-because-flag-wins"})
    claims = jwt_claims(sign_up_anonymously(gw)["idToken"])
    assert claims["aud"] == gw.project_id


def test_admin_token_from_config(make_gateway):
    gw = make_gateway(config={"adminTokens": ["s3cret-admin-token-for-tests"]})
    path = f"{IDENTITY}/projects/{gw.project_id}/accounts:lookup"
    response = post_json(gw, path, {"localId": ["nobody"]}, key=None, headers={"Authorization": "Bearer s3cret-admin-token-for-tests"})
    assert ok_json(response) == {"kind": "identitytoolkit#GetAccountInfoResponse"}


def _loop_thread_policies(gw, expected: list[int]) -> list[int]:
    """The kernel scheduling policy of each `http-loop` thread of the gateway process. A loop sets its policy
    just after naming itself, so this looks again (for up to 2 s) until the policies are `expected`."""
    tasks = Path(f"/proc/{gw.process.pid}/task")
    for _ in range(100):
        policies = [os.sched_getscheduler(int(task.name)) for task in tasks.iterdir()
                    if (task / "comm").read_text().strip() == "http-loop"]
        if policies == expected:
            break
        time.sleep(0.02)
    return policies


def test_event_loops_run_as_sched_batch_unless_configured_normal(make_gateway):
    # Batch by default: a loop woken by a request must not preempt the thread signing the previous one.
    gw = make_gateway(config={"http": {"eventLoops": 2}})
    assert _loop_thread_policies(gw, [os.SCHED_BATCH] * 2) == [os.SCHED_BATCH] * 2
    assert sign_up_anonymously_raw(gw).status_code == 200
    gw = make_gateway(config={"http": {"eventLoops": 2, "eventLoopScheduling": "normal"}})
    assert _loop_thread_policies(gw, [os.SCHED_OTHER] * 2) == [os.SCHED_OTHER] * 2
    assert sign_up_anonymously_raw(gw).status_code == 200
