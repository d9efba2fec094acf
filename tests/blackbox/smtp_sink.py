"""A real SMTP server on loopback (aiosmtpd) that keeps every message it accepts, for email tests."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from dataclasses import dataclass

from aiosmtpd.controller import Controller


@dataclass
class ReceivedMail:
    mail_from: str
    recipients: list[str]
    message: email.message.EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    def part(self, content_type: str) -> str:
        for part in self.message.walk():
            if part.get_content_type() == content_type:
                return part.get_content()
        raise AssertionError(f"no {content_type} part")

    @property
    def text(self) -> str:
        return self.part("text/plain")

    @property
    def html(self) -> str:
        return self.part("text/html")


class SmtpSink:
    """Collects messages; `wait_for(recipient)` blocks until one for that address arrives."""

    def __init__(self, port: int):
        self.port = port
        self.received: list[ReceivedMail] = []
        self._lock = threading.Condition()
        self._controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler hook
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.received.append(ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), message))
            self._lock.notify_all()
        return "250 Message accepted for delivery"

    def start(self) -> "SmtpSink":
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()
        return self

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def for_recipient(self, address: str) -> list[ReceivedMail]:
        with self._lock:
            return [mail for mail in self.received if address in mail.recipients]

    def wait_for(self, address: str, count: int = 1, timeout: float = 15.0) -> ReceivedMail:
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                mails = [mail for mail in self.received if address in mail.recipients]
                if len(mails) >= count:
                    return mails[count - 1]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no mail #{count} for {address} within {timeout} s")
                self._lock.wait(remaining)
