"""A loopback HTTP server that answers every request with one fixed answer and records what it received: what a
client sends to something that is not the gateway (a front that redirects, a server that sets cookies, one that
answers late). Used by the Swift client tests through `stand_in_host.py`."""

from __future__ import annotations

import threading
import time

from stand_in_server import StandInHandler, StandInServer


class RecorderStandIn(StandInServer):
    def __init__(self, status: int = 200, body: str = "{}", headers: dict[str, str] | None = None,
                 delay: float = 0.0, redirect_to: str | None = None) -> None:
        """`redirect_to`: a base URL; each answer's `Location` is it plus the request's path and query."""
        self.status, self.body, self.headers = status, body, headers or {}
        self.delay, self.redirect_to = delay, redirect_to
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def recorded(self) -> list[dict]:
        with self.lock:
            return list(self.requests)

    def _handler(self):
        stand_in = self

        class Handler(StandInHandler):
            def _answer(self):
                body = self._body().decode(errors="replace")
                with stand_in.lock:
                    stand_in.requests.append({"method": self.command, "path": self.path, "body": body,
                                              "headers": {name.lower(): value for name, value in self.headers.items()}})
                if stand_in.delay:
                    time.sleep(stand_in.delay)
                location = {"Location": stand_in.redirect_to + self.path} if stand_in.redirect_to else {}
                self._send(stand_in.status, stand_in.body.encode(), headers={**location, **stand_in.headers})

            do_GET = do_POST = _answer

        return Handler
