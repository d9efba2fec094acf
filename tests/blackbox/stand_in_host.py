"""Every provider stand-in in one process, driven by JSON lines on stdin: for the Swift client tests
(Tests/GatehouseAuthTests), which start a real gateway themselves and need Apple, Facebook, Telegram, Google and
OpenID Connect tokens signed by the stand-ins' keys, the mail the gateway sends, nginx in front of a gateway, and
recorders: servers that answer as a gateway never does (a redirect, a cookie, a late answer) and keep what they got.

Protocol: one request per line, `{"id": n, "cmd": "...", "args": {...}}`; one answer per line,
`{"id": n, "ok": true, "result": ...}` or `{"id": n, "ok": false, "error": "..."}`, in any order (each request runs
on its own thread). The first line written is the answer with id 0: the gateway config sections pointing at the
stand-ins and the environment variables with their secrets. When stdin closes (the test process ended, or
crashed), everything started here stops and the processes registered with `watch` get SIGTERM, then SIGKILL.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from apple_stand_in import AppleStandIn  # noqa: E402
from email_verbs import link_in  # noqa: E402
from facebook_stand_in import FacebookStandIn  # noqa: E402
from harness import free_loopback_port  # noqa: E402
from nginx_front import start_nginx  # noqa: E402
from oidc_stand_in import GOOGLE_ISSUER, OIDCStandIn  # noqa: E402
from recorder_stand_in import RecorderStandIn  # noqa: E402
from smtp_sink import SmtpSink  # noqa: E402
from telegram_stand_in import TelegramStandIn  # noqa: E402
from telegram_verbs import init_data_for, widget_for  # noqa: E402


class Host:
    def __init__(self) -> None:
        self.work = Path(tempfile.mkdtemp(prefix="gatehouse-stand-ins-"))
        self.apple = AppleStandIn().start()
        self.facebook = FacebookStandIn().start()
        self.telegram = TelegramStandIn().start()
        self.google = OIDCStandIn(client_id="web.apps.googleusercontent.com", client_secret="g-secret",
                                  issuer=GOOGLE_ISSUER).start()
        self.oidc = OIDCStandIn(client_id="corp-client", client_secret="corp-secret").start()
        self.smtp = SmtpSink(free_loopback_port()).start()
        self.fronts: dict[int, object] = {}
        self.recorders: dict[int, RecorderStandIn] = {}
        self.watched: list[int] = []
        self.threads: list[threading.Thread] = []
        self.closing = False
        self.lock = threading.Lock()
        self.output = threading.Lock()

    def ready(self) -> dict:
        key_file = self.work / "apple-key.p8"
        key_file.write_text(self.apple.p8_pem())
        key_file.chmod(0o600)
        sections = {
            **self.apple.gateway_config(key_file=key_file),
            **self.facebook.gateway_config(),
            **self.telegram.gateway_config(),
            "google": self.google.google_section(),
            "oidc": {"providers": [self.oidc.provider_entry("oidc.corp")]},
            "smtp": {"url": f"smtp://127.0.0.1:{self.smtp.port}", "security": "none", "from": "noreply@example.com",
                     "fromName": "Gatehouse Client Tests", "timeoutSeconds": 5, "initialBackoffSeconds": 1,
                     "pollSeconds": 0.2},
        }
        env = {**self.facebook.gateway_env(), **self.telegram.gateway_env()}
        return {"sections": sections, "env": env, "appleBundleId": "com.example.app",
                "googleClientId": self.google.client_id, "oidcClientId": self.oidc.client_id}

    # -- commands: each returns what the answer's `result` holds

    def apple_id_token(self, sub, nonce=None, email=None, aud=None, **claims):
        extra = {"aud": aud} if aud else {}
        return self.apple.id_token(sub=sub, nonce=nonce, email=email, **extra, **claims)

    def apple_accept_code(self, code):
        self.apple.accept_code(code)
        return None

    def apple_revoked(self):
        with self.apple.lock:
            return list(self.apple.revoked)

    def facebook_access_token(self, user_id, email=None, name="Ada Lovelace"):
        return self.facebook.issue(user_id=user_id, email=email, name=name)

    def facebook_limited_token(self, sub, nonce, email=None):
        return self.facebook.limited_token(sub=sub, nonce=nonce, email=email)

    def telegram_widget(self, user_id, first_name="Ada"):
        # Data signed in the same second for the same user is the same bytes, which the gateway accepts once.
        return widget_for(int(user_id), first_name=first_name)

    def telegram_init_data(self, user_id):
        return init_data_for(int(user_id))

    def telegram_id_token(self, user_id, nonce):
        return self.telegram.id_token(user_id=int(user_id), nonce=nonce)

    def google_id_token(self, sub, email=None, email_verified=True, nonce=None):
        return self.google.id_token(sub=sub, email=email, email_verified=email_verified, nonce=nonce)

    def oidc_id_token(self, sub, email=None, nonce=None):
        return self.oidc.id_token(sub=sub, email=email, nonce=nonce)

    def mail(self, address, count=1, timeout=15.0):
        """The `count`-th message to `address` (waiting for it): its subject, text and action link."""
        message = self.smtp.wait_for(address, count=count, timeout=timeout)
        return {"subject": message.subject, "text": message.text, "link": link_in(message.text)}

    def nginx_start(self, port):
        """nginx with the deployed site file in front of 127.0.0.1:`port` (which may have nothing listening)."""
        work = Path(tempfile.mkdtemp(prefix="nginx-", dir=self.work))
        front = start_nginx(SimpleNamespace(port=int(port)), work)
        with self.lock:
            closing = self.closing
            if not closing:
                self.fronts[front.tls_port] = front
        if closing:  # the host is shutting down: this front would outlive it
            front.stop()
            raise RuntimeError("the host is shutting down")
        return {"tlsPort": front.tls_port, "caFile": str(front.ca_file)}

    def nginx_stop(self, tls_port):
        with self.lock:
            front = self.fronts.pop(int(tls_port), None)
        if front is not None:
            front.stop()
        return None

    def nginx_access_log(self, tls_port):
        with self.lock:
            front = self.fronts[int(tls_port)]
        return front.access_log

    def recorder_start(self, status=200, body="{}", headers=None, delay=0.0, redirect_to=None):
        """A server that answers every request with `status`, `body` and `headers` (after `delay` seconds; with
        `Location: <redirect_to><path>` when given) and records the requests; returns its port."""
        recorder = RecorderStandIn(status=int(status), body=body, headers=headers, delay=float(delay),
                                   redirect_to=redirect_to).start()
        with self.lock:
            self.recorders[recorder.port] = recorder
        return recorder.port

    def recorder_requests(self, port):
        """What the recorder on `port` received: method, path, body and headers (lower-case names), in order."""
        with self.lock:
            recorder = self.recorders[int(port)]
        return recorder.recorded()

    def recorder_stop(self, port):
        with self.lock:
            recorder = self.recorders.pop(int(port), None)
        if recorder is not None:
            recorder.stop()
        return None

    def watch(self, pid):
        with self.lock:
            self.watched.append(int(pid))
        return None

    def unwatch(self, pid):
        with self.lock:
            if int(pid) in self.watched:
                self.watched.remove(int(pid))
        return None

    def exit_now(self):
        """Exits at once without answering, as a crash would look to the test process (which must then fail its
        calls, not hang on them); its stand-ins and work directory go first. Only for a host nothing else uses."""
        for stand_in in (self.apple, self.facebook, self.telegram, self.google, self.oidc, self.smtp):
            stand_in.stop()
        shutil.rmtree(self.work, ignore_errors=True)
        os._exit(3)

    # -- plumbing

    def answer(self, message: dict) -> None:
        line = json.dumps(message)
        with self.output:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def handle(self, request: dict) -> None:
        try:
            command = request["cmd"]
            if command.startswith("_") or command in ("ready", "answer", "handle", "serve", "shutdown"):
                raise ValueError(f"unknown command {command!r}")
            result = getattr(self, command)(**request.get("args", {}))
            self.answer({"id": request["id"], "ok": True, "result": result})
        except Exception as error:  # every failure goes back to the test, which fails with it
            self.answer({"id": request.get("id"), "ok": False,
                         "error": f"{type(error).__name__}: {error}\n{traceback.format_exc()}"})

    def serve(self) -> None:
        self.answer({"id": 0, "ok": True, "result": self.ready()})
        for line in sys.stdin:
            if line.strip():
                thread = threading.Thread(target=self.handle, args=(json.loads(line),), daemon=True)
                with self.lock:
                    self.threads.append(thread)
                thread.start()

    def shutdown(self) -> None:
        # Commands still running (an nginx being started) finish first, so nothing they start is left behind.
        with self.lock:
            self.closing = True
            threads = list(self.threads)
        deadline = time.monotonic() + 60
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        with self.lock:
            fronts, self.fronts = list(self.fronts.values()), {}
            recorders, self.recorders = list(self.recorders.values()), {}
            watched, self.watched = list(self.watched), []
        for front in fronts:
            front.stop()
        for recorder in recorders:
            recorder.stop()
        for pid in watched:
            stop_process(pid)
        for stand_in in (self.apple, self.facebook, self.telegram, self.google, self.oidc, self.smtp):
            stand_in.stop()
        shutil.rmtree(self.work, ignore_errors=True)


def stop_process(pid: int) -> None:
    """SIGTERM, then SIGKILL after 10 s: for processes the test left running when it ended."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def main() -> None:
    host = Host()
    try:
        host.serve()
    finally:
        host.shutdown()


if __name__ == "__main__":
    main()
