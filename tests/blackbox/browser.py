"""A headless Chromium (Debian's `chromium`) driven over the DevTools protocol through a pipe
(`--remote-debugging-pipe`: fd 3 in, fd 4 out, NUL-separated JSON), so no port, no websocket library.

Only what the popup tests need: open a page, evaluate script in a page (as a user gesture), find the window a
page opened, and serve chosen https URLs from the test (the page's network never leaves loopback)."""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable


def chromium_binary() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise RuntimeError("chromium not found: scripts/bootstrap.sh installs it (Debian package chromium)")
    return found


class Browser:
    def __init__(self) -> None:
        self.profile = tempfile.mkdtemp(prefix="gatehouse-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The browser's ends move above 4 first, so the shell's `3<&… 4>&…` never closes what it just made.
        to_browser_r, from_browser_w = (self._high(to_browser_r), self._high(from_browser_w))
        args = [chromium_binary(), "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--disable-popup-blocking", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--metrics-recording-only", "--mute-audio", "--password-store=basic",
                f"--user-data-dir={self.profile}", "about:blank"]
        script = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w} {to_browser_r}<&- {from_browser_w}>&-'
        self.process = subprocess.Popen(["bash", "-c", script, *args], pass_fds=(to_browser_r, from_browser_w),
                                        stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.profile, "stderr.log"), "wb"))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._lock = threading.Lock()
        self._answers: dict[int, dict] = {}
        self._arrived = threading.Condition(self._lock)
        self._handlers: list[Callable[[dict], None]] = []
        self.console: list[str] = []
        self.attached: set[str] = set()
        self._handlers.append(self._record_console)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.call("Target.setDiscoverTargets", {"discover": True})

    @staticmethod
    def _high(fd: int) -> int:
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
        os.close(fd)
        return moved

    # -- protocol ---------------------------------------------------------------------------------------------

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                with self._lock:
                    self._arrived.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._lock:
                        self._answers[message["id"]] = message
                        self._arrived.notify_all()
                else:
                    for handler in list(self._handlers):
                        handler(message)

    def _record_console(self, message: dict) -> None:
        if message.get("method") == "Runtime.consoleAPICalled":
            args = message["params"].get("args", [])
            self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
        elif message.get("method") == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.console.append("exception: " + str(details.get("exception", {}).get("description", details.get("text"))))

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return ident

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 60) -> dict:
        ident = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        with self._lock:
            while ident not in self._answers:
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError(f"no answer to {method}")
                self._arrived.wait(left)
            answer = self._answers.pop(ident)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    # -- pages ------------------------------------------------------------------------------------------------

    def attach(self, target_id: str) -> str:
        self.attached.add(target_id)
        session = self.call("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]
        self.call("Runtime.enable", session=session)
        return session

    def open(self, url: str, serve: dict[str, tuple[str, str]] | None = None) -> str:
        """A new page at `url`; `serve` maps URL prefixes (https, off loopback) to (content type, body)."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.attach(target)
        self.call("Page.enable", session=session)
        if serve:
            self.serve(session, serve)
        self.call("Page.navigate", {"url": url}, session=session)
        return session

    def serve(self, session: str, serve: dict[str, tuple[str, str]]) -> None:
        def answer(message: dict) -> None:
            if message.get("method") != "Fetch.requestPaused" or message.get("sessionId") != session:
                return
            params = message["params"]
            url = params["request"]["url"]
            for prefix, (content_type, body) in serve.items():
                if url.startswith(prefix):
                    self.send("Fetch.fulfillRequest", {
                        "requestId": params["requestId"], "responseCode": 200,
                        "responseHeaders": [{"name": "Content-Type", "value": content_type}],
                        "body": base64.b64encode(body.encode()).decode()}, session)
                    return
            self.send("Fetch.failRequest", {"requestId": params["requestId"], "errorReason": "AddressUnreachable"},
                      session)
        self._handlers.append(answer)
        self.call("Fetch.enable", {"patterns": [{"urlPattern": "https://*"}]}, session=session)

    def evaluate(self, session: str, expression: str, timeout: float = 60):
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True,
                                                "userGesture": True}, session=session, timeout=timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, session: str, expression: str, timeout: float = 90, what: str = ""):
        """Polls `expression` until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(session, expression)
            except RuntimeError:
                value = None  # the page is between two documents
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what or expression}")
            time.sleep(0.2)

    def page_opened(self, url_prefix: str, timeout: float = 90) -> str:
        """Attaches to a new page (e.g. a popup) whose URL starts with `url_prefix`; returns its session. Pages
        attached before (a popup still closing, say) are never picked again."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for info in self.call("Target.getTargets")["targetInfos"]:
                if info["type"] == "page" and info["url"].startswith(url_prefix) and info["targetId"] not in self.attached:
                    return self.attach(info["targetId"])
            time.sleep(0.2)
        raise TimeoutError(f"no page opened at {url_prefix}")

    def close_pages(self) -> None:
        """Closes every page this test opened or attached to, so the next test starts with an idle browser."""
        for info in self.call("Target.getTargets")["targetInfos"]:
            if info["type"] == "page" and info["targetId"] in self.attached:
                try:
                    self.call("Target.closeTarget", {"targetId": info["targetId"]})
                except RuntimeError:
                    pass  # already gone

    def pages(self) -> list[str]:
        return [info["url"] for info in self.call("Target.getTargets")["targetInfos"] if info["type"] == "page"]

    def close(self) -> None:
        try:
            self.send("Browser.close")
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        shutil.rmtree(self.profile, ignore_errors=True)
