"""`GET /metrics` on a real gateway process: valid Prometheus text, values that move with requests (including
the KDF pool and the database), loopback-only without a credential."""

from __future__ import annotations

import re

import requests

from email_verbs import CHEAP_SCRYPT
from harness import ADMIN_TOKEN
from verbs import IDENTITY, post_json, sign_up_anonymously

# One sample line of the text format: name, optional labels, a value.
SAMPLE = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? '
                    r'(-?[0-9.e+-]+|\+Inf|-Inf|NaN)$')


def scrape(gw) -> dict[str, float]:
    response = requests.get(gw.url("/metrics"), timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for line in response.text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$", line), line
            continue
        assert SAMPLE.match(line), f"not a Prometheus sample: {line!r}"
        series, value = line.rsplit(" ", 1)
        assert series not in samples, f"duplicate series {series}"
        samples[series] = float(value)
    return samples


def test_values_move_as_requests_are_made(make_gateway):
    gw = make_gateway(config={"email": {"scrypt": CHEAP_SCRYPT}})
    before = scrape(gw)
    sign_up_anonymously(gw)
    post_json(gw, IDENTITY + "/accounts:signUp", {"email": "m@example.com", "password": "metrics-pass-1",
                                                  "returnSecureToken": True}).raise_for_status()
    wrong = post_json(gw, IDENTITY + "/accounts:signInWithPassword", {"email": "m@example.com", "password": "nope-nope-1"})
    assert wrong.status_code == 400
    after = scrape(gw)

    def moved(series: str) -> float:
        return after.get(series, 0) - before.get(series, 0)

    sign_up = 'gatehouse_http_requests_total{operation="identitytoolkit.accounts.signUp",status="200"}'
    assert moved(sign_up) == 2
    assert moved('gatehouse_sign_ups_total{provider="anonymous"}') == 1
    assert moved('gatehouse_sign_ups_total{provider="password"}') == 1
    assert moved('gatehouse_refusals_total{operation="identitytoolkit.accounts.signInWithPassword",code="INVALID_PASSWORD"}') == 1
    assert moved('gatehouse_worker_pool_jobs_total{pool="kdf"}') >= 2, "the password hashes ran on the KDF pool"
    assert moved('gatehouse_store_transaction_duration_seconds_count{kind="write"}') >= 2
    assert after['gatehouse_open_connections'] >= 1
    assert any(name.startswith('gatehouse_signing_key_age_seconds{') and 'active="1"' in name for name in after)


def test_metrics_need_a_credential_from_outside_the_metrics_networks(make_gateway):
    gw = make_gateway(config={"metricsNetworks": ["127.0.0.2/32"]})
    assert requests.get(gw.url("/metrics"), timeout=10).status_code == 401
    assert requests.get(gw.url("/metrics"), headers={"Authorization": "Bearer owner"}, timeout=10).status_code == 401
    assert requests.get(gw.url("/metrics"), headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10).status_code == 200
