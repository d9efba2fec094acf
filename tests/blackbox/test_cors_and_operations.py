"""CORS for browser clients, and the operational endpoints."""

from __future__ import annotations

from verbs import IDENTITY, ok_json, send

ORIGIN = "http://app.example.test"


def test_preflight_reflects_origin_and_requested_headers(gw):
    response = send(gw, "OPTIONS", IDENTITY + "/accounts:signUp", key=None, headers={
        "Origin": ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-goog-api-key,x-client-version",
    })
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in response.headers["Access-Control-Allow-Methods"].upper()
    allowed = {h.strip().lower() for h in response.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "x-goog-api-key", "x-client-version"} <= allowed
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Access-Control-Allow-Private-Network" not in response.headers


def test_preflight_allows_private_network_when_asked(gw):
    response = send(gw, "OPTIONS", "/securetoken.googleapis.com/v1/token", key=None, headers={
        "Origin": ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Private-Network": "true",
    })
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert response.headers["Access-Control-Allow-Private-Network"] == "true"


def test_actual_request_reflects_origin(gw):
    response = send(gw, "POST", IDENTITY + "/accounts:signUp", json={}, headers={"Origin": ORIGIN})
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_status_document(gw):
    body = ok_json(send(gw, "GET", "/", key=None))
    assert body["authEmulator"]["ready"] is True
    assert isinstance(body["gatehouse"]["version"], str) and body["gatehouse"]["version"]


def test_health_and_readiness(gw):
    assert ok_json(send(gw, "GET", "/healthz", key=None)) == {"status": "ok"}
    assert send(gw, "GET", "/readyz", key=None).status_code == 200
