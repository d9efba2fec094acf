"""SMTP delivery over TLS end to end: STARTTLS, implicit TLS (smtps), AUTH, and the refusals that keep mail
(and SMTP credentials) from ever crossing the network in clear or to an unverified server."""

from __future__ import annotations

import datetime
import ipaddress
import json
import ssl
import time

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from email_verbs import email_config, follow, link_in, link_params, read_form, send_oob_raw, sign_in_raw, sign_up
from harness import free_loopback_port
from smtp_sink import SmtpSink
from verbs import ok_json, send

FAILED = "mail delivery failed; will retry"


def write_self_signed(directory, stem: str, common_name: str, names: list[x509.GeneralName]):
    """A self-signed server certificate and its key, as PEM files in `directory`: (cert path, key path)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / f"{stem}-cert.pem", directory / f"{stem}-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """The server's certificate, valid for 127.0.0.1 and localhost: (cert path, key path)."""
    return write_self_signed(tmp_path_factory.mktemp("smtp-tls"), "smtp", "127.0.0.1",
                             [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")])


@pytest.fixture
def server_tls(certificate) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


@pytest.fixture
def start_sink():
    """Factory: `start_sink(**options)` starts an SmtpSink on a free loopback port; all are stopped at teardown."""
    sinks: list[SmtpSink] = []

    def start(**options) -> SmtpSink:
        sink = SmtpSink(free_loopback_port(), **options).start()
        sinks.append(sink)
        return sink

    yield start
    for sink in sinks:
        sink.stop()


def tls_config(url: str, **smtp) -> dict:
    config = email_config(0)
    config["email"]["smtp"].update(url=url, security="required", **smtp)
    return config


def request_reset(gw, address: str) -> None:
    sign_up(gw, address, "old-password")
    ok_json(send_oob_raw(gw, {"requestType": "PASSWORD_RESET", "email": address}))


def wait_for_log(gw, text: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    while text not in gw.log_text():
        assert time.monotonic() < deadline, f"gateway did not log {text!r} within {timeout} s"
        time.sleep(0.1)
    return gw.log_text()


def failed_delivery_errors(gw) -> list[str]:
    """The `error` fields of the logged failed deliveries, after at least one was logged."""
    wait_for_log(gw, FAILED)
    return [entry.get("error", "") for entry in map(json.loads, gw.log_lines()) if entry.get("msg") == FAILED]


def reset_through_link(gw, mail, address: str) -> None:
    link = link_in(mail.text)
    assert link_params(link)["mode"] == "resetPassword"
    form = read_form(follow(gw, link).text)
    form.fields["newPassword"] = "new-password"
    assert send(gw, "POST", form.action, key=None, data=form.fields).status_code == 200
    assert ok_json(sign_in_raw(gw, address, "new-password"))["registered"] is True


def test_starttls_required_delivers_over_tls_and_the_link_works(make_gateway, start_sink, server_tls, certificate):
    sink = start_sink(tls_context=server_tls, require_starttls=True)
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}", caBundle=str(certificate[0])))
    request_reset(gw, "tls@example.com")
    mail = sink.wait_for("tls@example.com")
    assert mail.tls is True
    assert sink.mail_commands == [("noreply@example.com", True)]
    reset_through_link(gw, mail, "tls@example.com")


def test_auth_with_the_wrong_password_is_refused_and_nothing_is_delivered(make_gateway, start_sink, server_tls,
                                                                         certificate):
    sink = start_sink(tls_context=server_tls, require_starttls=True, credentials=("mailer", "right-secret"))
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}", caBundle=str(certificate[0]),
                                        username="mailer", password="wrong-secret"))
    request_reset(gw, "authfail@example.com")
    errors = failed_delivery_errors(gw)
    assert errors and all("login denied" in error.lower() for error in errors), errors
    assert sink.auth_attempts and all(a.login == "mailer" and not a.accepted and a.tls for a in sink.auth_attempts)
    assert not sink.received and not sink.mail_commands
    assert "wrong-secret" not in gw.log_text()


def test_auth_with_the_right_password_delivers(make_gateway, start_sink, server_tls, certificate):
    sink = start_sink(tls_context=server_tls, require_starttls=True, credentials=("mailer", "right-secret"))
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}", caBundle=str(certificate[0]),
                                        username="mailer", password="right-secret"))
    request_reset(gw, "auth@example.com")
    mail = sink.wait_for("auth@example.com")
    assert mail.tls is True and mail.authenticated_as == "mailer"
    assert [(a.accepted, a.tls) for a in sink.auth_attempts] == [(True, True)]
    assert "right-secret" not in gw.log_text()
    reset_through_link(gw, mail, "auth@example.com")


def test_implicit_tls_smtps_delivers(make_gateway, start_sink, server_tls, certificate):
    sink = start_sink(implicit_tls=server_tls)
    gw = make_gateway(config=tls_config(f"smtps://127.0.0.1:{sink.port}", caBundle=str(certificate[0])))
    request_reset(gw, "smtps@example.com")
    mail = sink.wait_for("smtps@example.com")
    assert mail.tls is True
    reset_through_link(gw, mail, "smtps@example.com")


def test_required_tls_against_a_server_without_starttls_sends_nothing_in_clear(make_gateway, start_sink):
    sink = start_sink()  # plain SMTP, no STARTTLS offered
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}"))
    request_reset(gw, "clear@example.com")
    errors = failed_delivery_errors(gw)
    assert errors and all("starttls" in error.lower() for error in errors), errors
    assert not sink.mail_commands and not sink.received


def test_untrusted_certificate_is_refused(make_gateway, start_sink, server_tls):
    sink = start_sink(tls_context=server_tls, require_starttls=True)
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}"))  # no caBundle: system CAs only
    request_reset(gw, "untrusted@example.com")
    errors = failed_delivery_errors(gw)
    assert errors and all("certificate" in error.lower() for error in errors), errors
    assert not sink.mail_commands and not sink.received


def test_certificate_for_another_host_is_refused_even_when_trusted(make_gateway, start_sink, tmp_path):
    cert, key = write_self_signed(tmp_path, "other", "mail.example.net", [x509.DNSName("mail.example.net")])
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    sink = start_sink(tls_context=context, require_starttls=True)
    gw = make_gateway(config=tls_config(f"smtp://127.0.0.1:{sink.port}", caBundle=str(cert)))
    request_reset(gw, "mismatch@example.com")
    errors = failed_delivery_errors(gw)
    assert errors and all("127.0.0.1" in error or "subject name" in error for error in errors), errors
    assert not sink.mail_commands and not sink.received
