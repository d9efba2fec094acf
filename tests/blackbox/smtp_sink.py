"""A real SMTP server on loopback (aiosmtpd) that keeps every message it accepts, for email tests."""

from __future__ import annotations

import email
import email.policy
import ssl
import threading
import time
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


@dataclass
class ReceivedMail:
    mail_from: str
    recipients: list[str]
    message: email.message.EmailMessage
    tls: bool = False  # the DATA arrived over TLS (STARTTLS or implicit)
    authenticated_as: str | None = None

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


@dataclass
class AuthAttempt:
    mechanism: str
    login: str
    accepted: bool
    tls: bool


@dataclass(eq=False)
class SmtpSink:
    """Collects messages; `wait_for(recipient)` blocks until one for that address arrives.

    Plain SMTP by default. `tls_context` offers STARTTLS (`require_starttls` refuses everything else before it),
    `implicit_tls` serves TLS from the first byte (smtps), and `credentials=(user, password)` requires SMTP AUTH
    (offered only over TLS) with exactly those credentials.
    """

    port: int
    tls_context: ssl.SSLContext | None = None
    require_starttls: bool = False
    implicit_tls: ssl.SSLContext | None = None
    credentials: tuple[str, str] | None = None
    received: list[ReceivedMail] = field(default_factory=list)
    mail_commands: list[tuple[str, bool]] = field(default_factory=list)  # (MAIL FROM address, over TLS)
    auth_attempts: list[AuthAttempt] = field(default_factory=list)

    def __post_init__(self):
        self._lock = threading.Condition()
        self._controller: Controller | None = None

    @staticmethod
    def _is_tls(server) -> bool:
        return server.transport is not None and server.transport.get_extra_info("ssl_object") is not None

    async def handle_MAIL(self, server, session, envelope, address, mail_options):  # aiosmtpd handler hook
        with self._lock:
            self.mail_commands.append((address, self._is_tls(server)))
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd handler hook
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        with self._lock:
            self.received.append(ReceivedMail(envelope.mail_from, list(envelope.rcpt_tos), message,
                                              tls=self._is_tls(server), authenticated_as=login))
            self._lock.notify_all()
        return "250 Message accepted for delivery"

    def _authenticate(self, server, session, envelope, mechanism, auth_data) -> AuthResult:
        if not isinstance(auth_data, LoginPassword) or self.credentials is None:
            return AuthResult(success=False, handled=False)
        login, password = auth_data.login.decode(), auth_data.password.decode()
        accepted = (login, password) == self.credentials
        with self._lock:
            self.auth_attempts.append(AuthAttempt(mechanism, login, accepted, self._is_tls(server)))
            self._lock.notify_all()
        return AuthResult(success=accepted, handled=False, auth_data=auth_data)

    def start(self) -> "SmtpSink":
        options: dict = {}
        if self.tls_context is not None:
            options.update(tls_context=self.tls_context, require_starttls=self.require_starttls)
        if self.credentials is not None:
            options.update(authenticator=self._authenticate, auth_required=True, auth_require_tls=True)
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, ssl_context=self.implicit_tls,
                                      **options)
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
