"""Fixtures: real gateway processes on loopback ports, each with a temporary data directory."""

from __future__ import annotations

import itertools

import pytest

import verbs
from harness import Gateway, free_loopback_port, gateway_binary
from smtp_sink import SmtpSink

_names = itertools.count()


def pytest_configure(config):
    binary = gateway_binary()
    if not binary.exists():
        raise pytest.UsageError(f"gateway binary not found at {binary}; build it or set GATEHOUSE_BIN")


@pytest.fixture
def make_gateway(tmp_path_factory):
    """Factory: `make_gateway(config={...}, env={...})` starts a gateway; all are stopped (exit 0) at teardown."""
    started: list[Gateway] = []

    def make(*, config: dict | None = None, env: dict | None = None, data_dir=None, start: bool = True,
             database_url: str | None = None) -> Gateway:
        work = tmp_path_factory.mktemp(f"gw{next(_names)}")
        gw = Gateway(data_dir=data_dir or work / "data", work_dir=work, config=config, env=env or {},
                     database_url=database_url)
        started.append(gw)
        return gw.start() if start else gw

    yield make
    failures = []
    for gw in started:
        if gw.process is not None:
            status = gw.stop()
            if status != 0:
                failures.append(f"gateway on port {gw.port} exited with {status}")
    assert not failures, failures


@pytest.fixture(scope="session")
def shared_gateway(tmp_path_factory):
    """One default-configured gateway for tests that only read and write their own users."""
    work = tmp_path_factory.mktemp("shared")
    gw = Gateway(data_dir=work / "data", work_dir=work).start()
    yield gw
    assert gw.stop() == 0, "gateway did not exit 0 on SIGTERM"


@pytest.fixture
def gw(shared_gateway):
    assert shared_gateway.is_alive(), "shared gateway died in an earlier test"
    return shared_gateway


@pytest.fixture(autouse=True)
def no_server_errors():
    """Fails any test during which the gateway answered a request with a 5xx."""
    verbs.seen_statuses.clear()
    yield
    server_errors = [entry for entry in verbs.seen_statuses if entry[2] >= 500]
    assert not server_errors, f"gateway answered with 5xx: {server_errors}"


@pytest.fixture
def smtp_sink():
    """A real SMTP server (aiosmtpd) on a free loopback port, stopped at teardown."""
    sink = SmtpSink(free_loopback_port()).start()
    yield sink
    sink.stop()


@pytest.fixture
def postgres():
    """The test run's PostgreSQL cluster (see `postgres_support`); skips when none is configured, fails when
    GATEHOUSE_REQUIRE_POSTGRES=1 (CI) and none is."""
    from postgres_support import PostgresCluster

    return PostgresCluster.from_environment()


@pytest.fixture
def pg_database(postgres):
    """The URL of a new, empty database on the test cluster, dropped at teardown."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@pytest.fixture
def apple():
    """A local stand-in for Apple's endpoints; point a gateway at it with `apple.gateway_config(...)`."""
    from apple_stand_in import AppleStandIn

    stand_in = AppleStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def facebook():
    """A local stand-in for Facebook's Graph API, OAuth dialog and Limited Login keys; point a gateway at it with
    `facebook.gateway_config(...)` and `env=facebook.gateway_env()`."""
    from facebook_stand_in import FacebookStandIn

    stand_in = FacebookStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def oidc_idp():
    """A local stand-in OpenID Connect provider; configure a gateway with `oidc_idp.provider_entry(...)`."""
    from oidc_stand_in import OIDCStandIn

    stand_in = OIDCStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def telegram():
    """A local stand-in for Telegram's OpenID Connect issuer; point a gateway at it with `telegram.gateway_config()`
    and `telegram.gateway_env()` (the bot tokens and client secret)."""
    from telegram_stand_in import TelegramStandIn

    stand_in = TelegramStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def second_idp():
    """Another stand-in provider (its own keys and client), for two providers configured at once."""
    from oidc_stand_in import OIDCStandIn

    stand_in = OIDCStandIn(client_id="other-client", client_secret="other-secret").start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def google_idp():
    """A stand-in for Google's endpoints, signing as Google's issuer."""
    from oidc_stand_in import GOOGLE_ISSUER, OIDCStandIn

    stand_in = OIDCStandIn(client_id="web.apps.googleusercontent.com", client_secret="g-secret", issuer=GOOGLE_ISSUER).start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def github():
    """A local stand-in for GitHub; configure a gateway with `github.gateway_config()`."""
    from github_stand_in import GitHubStandIn

    stand_in = GitHubStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def tg_gateway():
    """A local stand-in for Telegram's Gateway API (phone codes); configure a gateway with `tg_gateway.gateway_config()`
    and `tg_gateway.gateway_env()`."""
    from phone_stand_ins import TelegramGatewayStandIn

    stand_in = TelegramGatewayStandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def sms_webhook():
    """A local SMS webhook receiver that checks the gateway's signature (the README's sample receiver)."""
    from phone_stand_ins import SmsWebhookReceiver

    receiver = SmsWebhookReceiver().start()
    yield receiver
    receiver.stop()
