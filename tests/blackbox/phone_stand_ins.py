"""Local stand-ins for the two ways a phone code leaves the gateway: Telegram's Gateway API
(gatewayapi.telegram.org) and an operator's SMS webhook receiver.

The Gateway stand-in checks the Bearer token, answers `checkSendAbility` and `sendVerificationMessage` as Telegram
does (`{"ok": true, "result": RequestStatus}` or `{"ok": false, "error": ...}`), can be switched to be down (HTTP
503), slow (answers after a delay) or to refuse numbers that are not on Telegram, and posts signed delivery reports
to the callback URL it was given. The webhook receiver is the sample an operator would write: it checks the
timestamp and the HMAC signature before accepting a code.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time

import requests

from stand_in_server import StandInHandler, StandInServer

GATEWAY_TOKEN = "AAF-blackbox-gateway-token"
WEBHOOK_SECRET = "blackbox-webhook-secret-0123"


def wait_for(condition, timeout: float = 15.0, step: float = 0.05):
    """Polls `condition` until it returns something truthy (codes leave through the outbox, asynchronously)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting")


class TelegramGatewayStandIn(StandInServer):
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.mode = "working"  # working | down | slow
        self.delay = 0.0
        self.not_on_telegram: set[str] = set()
        self.messages: list[dict] = []  # sendVerificationMessage bodies that were accepted
        self.calls: list[str] = []
        super().__init__(self._handler())

    def gateway_config(self, **extra) -> dict:
        """The `telegram.gateway` part of a gateway's config; the token goes in `gateway_env()`."""
        return {"telegram": {"gateway": {"baseUrl": self.base_url, **extra}}}

    @staticmethod
    def gateway_env() -> dict[str, str]:
        return {"GATEHOUSE_TELEGRAM_GATEWAY_TOKEN": GATEWAY_TOKEN}

    def code_for(self, phone_number: str, after: int = 0) -> str:
        """Waits for the (after+1)-th code sent to the number and returns it."""
        def found():
            with self.lock:
                codes = [m["code"] for m in self.messages if m["phone_number"] == phone_number]
            return codes[after] if len(codes) > after else None
        return wait_for(found)

    def sent_to(self, phone_number: str) -> list[dict]:
        with self.lock:
            return [m for m in self.messages if m["phone_number"] == phone_number]

    def report(self, url: str, message: dict, status: str = "delivered", *, token: str = GATEWAY_TOKEN,
               timestamp: int | None = None) -> requests.Response:
        """Posts a delivery report for an accepted message to `url` (its callback URL), signed as Telegram signs it."""
        body = json.dumps({"request_id": message["request_id"], "phone_number": message["phone_number"].lstrip("+"),
                           "request_cost": 0.01, "payload": message.get("payload"),
                           "delivery_status": {"status": status, "updated_at": int(time.time())}}).encode()
        stamp = str(timestamp if timestamp is not None else int(time.time()))
        key = hashlib.sha256(token.encode()).digest()
        signature = hmac.new(key, stamp.encode() + b"\n" + body, hashlib.sha256).hexdigest()
        return requests.post(url, data=body, timeout=10, headers={
            "Content-Type": "application/json", "X-Request-Timestamp": stamp, "X-Request-Signature": signature})

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def do_POST(self):
                fields = json.loads(self._body() or b"{}")
                method = self.path.strip("/").lower()
                with stand_in.lock:
                    stand_in.calls.append(method)
                    mode, delay = stand_in.mode, stand_in.delay
                if mode == "down":
                    return self._reply(503, {"ok": False, "error": "SERVICE_UNAVAILABLE"})
                if mode == "slow":
                    time.sleep(delay)
                if self.headers.get("Authorization") != f"Bearer {GATEWAY_TOKEN}":
                    return self._reply(200, {"ok": False, "error": "ACCESS_TOKEN_INVALID"})
                number = fields.get("phone_number", "")
                if number in stand_in.not_on_telegram:
                    return self._reply(200, {"ok": False, "error": "PHONE_NUMBER_INVALID"})
                status = {"request_id": f"req-{len(stand_in.calls)}", "phone_number": number.lstrip("+"), "request_cost": 0.01}
                if method == "sendverificationmessage":
                    code = fields.get("code", "")
                    if not (code.isdigit() and 4 <= len(code) <= 8) or not 30 <= int(fields.get("ttl", 60)) <= 3600:
                        return self._reply(200, {"ok": False, "error": "CODE_INVALID"})
                    with stand_in.lock:
                        stand_in.messages.append({**fields, "request_id": status["request_id"]})
                    status["delivery_status"] = {"status": "sent", "updated_at": int(time.time())}
                    status["payload"] = fields.get("payload")
                elif method != "checksendability":
                    return self._reply(404, {"ok": False, "error": "METHOD_NOT_FOUND"})
                return self._reply(200, {"ok": True, "result": status})

        return Handler


class SmsWebhookReceiver(StandInServer):
    """The operator's side of the webhook contract, as README shows it: refuse anything not signed with the shared
    secret or older than five minutes, then hand the text to the SMS company (here: keep it)."""

    def __init__(self, secret: str = WEBHOOK_SECRET) -> None:
        self.secret = secret
        self.lock = threading.Lock()
        self.up = True
        self.accepted: list[dict] = []
        self.refused = 0
        super().__init__(self._handler())

    @property
    def url(self) -> str:
        return self.base_url + "/sms"

    def gateway_config(self, **extra) -> dict:
        return {"webhook": {"url": self.url, **extra}}

    def gateway_env(self) -> dict[str, str]:
        return {"GATEHOUSE_PHONE_WEBHOOK_SECRET": self.secret}

    def code_for(self, phone_number: str, after: int = 0) -> str:
        def found():
            with self.lock:
                codes = [m["code"] for m in self.accepted if m["phoneNumber"] == phone_number]
            return codes[after] if len(codes) > after else None
        return wait_for(found)

    def _handler(self):
        receiver = self

        class Handler(StandInHandler):
            def _answer(self, status: int) -> None:
                self._send(status, content_type=None)

            def do_POST(self):
                body = self._body()
                if not receiver.up:
                    return self._answer(503)
                timestamp = self.headers.get("X-Gatehouse-Timestamp", "")
                signature = self.headers.get("X-Gatehouse-Signature", "")
                expected = hmac.new(receiver.secret.encode(), timestamp.encode() + b"\n" + body, hashlib.sha256).hexdigest()
                fresh = timestamp.isdigit() and abs(time.time() - int(timestamp)) < 300
                if not fresh or not hmac.compare_digest(expected, signature):
                    with receiver.lock:
                        receiver.refused += 1
                    return self._answer(401)
                with receiver.lock:
                    receiver.accepted.append(json.loads(body))
                self._answer(200)

        return Handler
