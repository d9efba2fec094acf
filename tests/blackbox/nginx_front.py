"""Debian's nginx, running the repository's `deploy/nginx/gatehouse.conf`, in front of a test gateway.

The deployed file is used as it is, except for what a test machine must change: the upstream's port, the
listen addresses (loopback, free ports, no IPv6), the certificate (a throwaway CA and server certificate made
here with the `openssl` command) and the log and temporary paths. Each substitution must match, so a change to
the deployed file that a test would silently stop covering fails instead.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from harness import REPO_ROOT, Gateway, free_loopback_port

DEPLOYED_CONFIG = REPO_ROOT / "deploy" / "nginx" / "gatehouse.conf"
SERVER_NAME = "auth.example.com"


@dataclass
class NginxFront:
    """A running nginx: HTTPS on `tls_port`, the plain-HTTP redirect on `http_port`, trusting `ca_file`."""

    process: subprocess.Popen
    work_dir: Path
    tls_port: int
    http_port: int
    ca_file: Path

    @property
    def error_log(self) -> str:
        return (self.work_dir / "error.log").read_text(errors="replace")

    @property
    def access_log(self) -> str:
        path = self.work_dir / "access.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def make_certificates(directory: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a server certificate for SERVER_NAME and 127.0.0.1 signed by it."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Gatehouse test CA",
            "-keyout", "ca.key", "-out", "ca.pem")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={SERVER_NAME}", "-keyout", "server.key",
            "-out", "server.csr")
    (directory / "server.ext").write_text(f"subjectAltName=DNS:{SERVER_NAME},IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-days", "2", "-extfile", "server.ext", "-out", "server.pem")
    return directory / "ca.pem", directory / "server.pem", directory / "server.key"


def substitute(text: str, old: str, new: str) -> str:
    assert old in text, f"deploy/nginx/gatehouse.conf no longer contains {old!r}: update the test with it"
    return text.replace(old, new)


def site_config(gw: Gateway, work: Path, tls_port: int, http_port: int, cert: Path, key: Path) -> str:
    text = DEPLOYED_CONFIG.read_text()
    text = substitute(text, "server 127.0.0.1:9099", f"server 127.0.0.1:{gw.port}")
    text = substitute(text, "    listen 80;\n", f"    listen 127.0.0.1:{http_port};\n")
    text = substitute(text, "    listen [::]:80;\n", "")
    text = substitute(text, "    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{tls_port} ssl http2;\n")
    text = substitute(text, "    listen [::]:443 ssl http2;\n", "")
    text = substitute(text, "/etc/ssl/gatehouse/fullchain.pem", str(cert))
    text = substitute(text, "/etc/ssl/gatehouse/privkey.pem", str(key))
    text = substitute(text, "/var/log/nginx/gatehouse.access.log", str(work / "access.log"))
    return text


def main_config(work: Path, site: Path) -> str:
    # As root, the master process reads the certificates and the workers run as root too, since they
    # write to the test's private temporary directory.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "\n".join(f"    {name}_temp_path {work / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return (f"{user}daemon off;\nworker_processes 1;\npid {work / 'nginx.pid'};\n"
            f"error_log {work / 'error.log'} info;\nevents {{ worker_connections 512; }}\n"
            f"http {{\n    access_log off;\n{temp}\n    include {site};\n}}\n")


def start_nginx(gw: Gateway, work: Path) -> NginxFront:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx is not installed (scripts/bootstrap.sh installs Debian's nginx)"
    ca, cert, key = make_certificates(work)
    tls_port, http_port = free_loopback_port(), free_loopback_port()
    site = work / "gatehouse.conf"
    site.write_text(site_config(gw, work, tls_port, http_port, cert, key))
    main = work / "nginx.conf"
    main.write_text(main_config(work, site))
    checked = subprocess.run([nginx, "-t", "-q", "-p", str(work), "-c", str(main)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([nginx, "-p", str(work), "-c", str(main)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    front = NginxFront(process, work, tls_port, http_port, ca)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"nginx exited with {process.returncode}:\n{front.error_log}")
        try:
            socket.create_connection(("127.0.0.1", tls_port), timeout=1).close()
            return front
        except OSError:
            pass
        time.sleep(0.05)
    front.stop()
    raise AssertionError("nginx did not start within 10 s")
