"""Races: the database, not luck, decides who gets an identity."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from idp_verbs import (
    claims, emu, link_idp_raw, provider_ids, sign_in_with_idp, sign_in_with_idp_raw, sign_in_with_pending_token_raw,
    unique, users_with_email, users_with_identity,
)
from verbs import lookup, ok_json, sign_up_anonymously

PARALLEL = 50


def run_in_parallel(calls) -> list:
    """Runs every zero-argument call on its own thread at once; each request is bounded by its HTTP timeout."""
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        futures = [pool.submit(call) for call in calls]
        return [future.result(timeout=60) for future in futures]


def test_parallel_sign_ins_with_one_new_identity_create_exactly_one_user(emu):
    idp = claims(unique())
    responses = run_in_parallel([lambda: sign_in_with_idp_raw(emu, "apple.com", idp)] * PARALLEL)
    assert [r.status_code for r in responses] == [200] * PARALLEL, [r.text for r in responses if r.status_code != 200]
    local_ids = {r.json()["localId"] for r in responses}
    assert len(local_ids) == 1
    assert sum(1 for r in responses if r.json().get("isNewUser") is True) == 1
    owners = users_with_identity(emu, "apple.com", idp["sub"])
    assert [user["localId"] for user in owners] == list(local_ids)


def test_parallel_links_of_one_identity_link_it_to_exactly_one_user(emu):
    idp = claims(unique())
    users = [sign_up_anonymously(emu) for _ in range(PARALLEL)]
    responses = run_in_parallel(
        [lambda token=user["idToken"]: link_idp_raw(emu, token, "apple.com", idp) for user in users]
    )
    winners = [r for r in responses if r.status_code == 200]
    losers = [r for r in responses if r.status_code != 200]
    assert len(winners) == 1, [r.text for r in winners]
    assert len(losers) == PARALLEL - 1
    for loser in losers:
        assert loser.status_code == 400, loser.text
        assert loser.json()["error"]["message"] == "FEDERATED_USER_ID_ALREADY_LINKED", loser.text
    winner_id = winners[0].json()["localId"]
    assert winner_id in {user["localId"] for user in users}
    assert [user["localId"] for user in users_with_identity(emu, "apple.com", idp["sub"])] == [winner_id]


def test_parallel_sign_ins_with_one_verified_email_end_in_one_account(emu):
    email = f"{unique('race')}@example.com"
    providers = [f"race{n}.example.com" for n in range(PARALLEL)]
    responses = run_in_parallel(
        [lambda p=p: sign_in_with_idp_raw(emu, p, claims(unique(), email, True)) for p in providers]
    )
    assert [r.status_code for r in responses] == [200] * PARALLEL, [r.text for r in responses if r.status_code != 200]
    local_ids = {r.json()["localId"] for r in responses}
    assert len(local_ids) == 1
    assert len(users_with_email(emu, email)) == 1


def test_parallel_links_of_many_identities_of_one_provider_to_one_user_link_exactly_one(emu):
    owner = sign_up_anonymously(emu)
    identities = [claims(unique()) for _ in range(PARALLEL)]
    responses = run_in_parallel(
        [lambda idp=idp: link_idp_raw(emu, owner["idToken"], "apple.com", idp) for idp in identities]
    )
    winners = [r for r in responses if r.status_code == 200]
    assert len(winners) == 1, [r.text for r in winners]
    for loser in (r for r in responses if r.status_code != 200):
        assert loser.status_code == 400 and loser.json()["error"]["message"] == "PROVIDER_ALREADY_LINKED", loser.text
    linked = [idp["sub"] for idp in identities if users_with_identity(emu, "apple.com", idp["sub"])]
    assert linked == [winners[0].json()["federatedId"]]
    assert provider_ids(lookup(emu, owner["idToken"])) == {"apple.com"}


def test_parallel_uses_of_one_pending_token_sign_in_exactly_once(emu):
    idp = claims(unique())
    owner = sign_in_with_idp(emu, "apple.com", idp)
    other = sign_up_anonymously(emu)
    pending = ok_json(link_idp_raw(emu, other["idToken"], "apple.com", idp, return_idp_credential=True))["pendingToken"]
    responses = run_in_parallel([lambda: sign_in_with_pending_token_raw(emu, pending)] * PARALLEL)
    winners = [r for r in responses if r.status_code == 200]
    assert len(winners) == 1, [r.text for r in winners]
    assert winners[0].json()["localId"] == owner["localId"]
    for loser in (r for r in responses if r.status_code != 200):
        assert loser.status_code == 400 and loser.json()["error"]["message"] == "INVALID_PENDING_TOKEN", loser.text
