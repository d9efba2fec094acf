"""An acknowledged write survives the gateway being killed (SIGKILL, no clean-up) while writes are in flight.

Concurrent sign-ups share SQLite transactions (group commit); a reply must still mean that its own transaction
has committed, so every user a client was told about is there after the restart.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests

from verbs import IDENTITY, admin_post, ok_json, sign_up_anonymously


def test_killed_under_sign_up_load_loses_no_acknowledged_user(make_gateway):
    gw = make_gateway(config={"anonymous": {"signUpsPerIPPerHour": 0}})
    acknowledged: list[str] = []
    lock = threading.Lock()
    killed = threading.Event()

    def load() -> None:
        session = requests.Session()
        while not killed.is_set():
            try:
                response = session.post(gw.url(IDENTITY + "/accounts:signUp"), params={"key": "k"},
                                        json={"returnSecureToken": True}, timeout=30)
            except requests.RequestException:
                assert killed.is_set(), "a request failed before the gateway was killed"
                return
            assert response.status_code == 200, response.text
            with lock:
                acknowledged.append(response.json()["localId"])

    with ThreadPoolExecutor(max_workers=16) as pool:
        workers = [pool.submit(load) for _ in range(16)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with lock:
                if len(acknowledged) >= 400:
                    break
            time.sleep(0.01)
        killed.set()
        gw.kill()  # SIGKILL while the other clients' sign-ups are in flight
        for worker in workers:
            worker.result(timeout=60)

    ids = list(acknowledged)
    assert len(ids) >= 400, f"only {len(ids)} sign-ups acknowledged"
    gw.start()
    found: set[str] = set()
    for start in range(0, len(ids), 100):
        body = ok_json(admin_post(gw, "accounts:lookup", {"localId": ids[start:start + 100]}))
        found |= {user["localId"] for user in body.get("users", [])}
    assert found == set(ids), f"{len(set(ids) - found)} of {len(ids)} acknowledged sign-ups are missing"
    assert sign_up_anonymously(gw)["localId"]
