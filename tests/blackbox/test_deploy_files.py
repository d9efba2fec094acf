"""The systemd unit in deploy/systemd: `systemd-analyze verify` finds nothing to say about it, its sandbox
scores as `OK` in `systemd-analyze security`, and it runs what the README documents. The check never skips:
scripts/bootstrap.sh installs systemd's tools."""

from __future__ import annotations

import re
import shutil
import subprocess

from harness import REPO_ROOT, gateway_binary

UNIT = REPO_ROOT / "deploy" / "systemd" / "gatehouse.service"
INSTALLED_BINARY = "/usr/local/bin/gateway"


def unit_with_built_binary(tmp_path):
    """The unit as deployed, pointing at the binary under test (verify checks that ExecStart exists)."""
    text = UNIT.read_text()
    assert f"ExecStart={INSTALLED_BINARY} serve" in text
    copy = tmp_path / "gatehouse.service"
    copy.write_text(text.replace(INSTALLED_BINARY, str(gateway_binary())))
    return copy


def systemd_analyze(*args: str) -> subprocess.CompletedProcess:
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze is missing (scripts/bootstrap.sh installs the systemd package)"
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=60)


def test_systemd_analyze_verify_has_nothing_to_say(tmp_path):
    done = systemd_analyze("verify", str(unit_with_built_binary(tmp_path)))
    # verify exits 0 on directives it ignores (a typo, a bad value) and only prints them, so silence is the test.
    assert done.returncode == 0 and done.stdout.strip() == "" and done.stderr.strip() == "", done.stderr + done.stdout


def test_the_sandbox_scores_ok(tmp_path):
    done = systemd_analyze("security", "--offline=true", "--no-pager", str(unit_with_built_binary(tmp_path)))
    assert done.returncode == 0, done.stderr
    exposure = re.search(r"Overall exposure level for gatehouse\.service: ([0-9.]+)", done.stdout)
    assert exposure and float(exposure.group(1)) <= 2.0, done.stdout[-2000:]


def test_the_unit_runs_as_its_own_user_with_state_and_secrets_where_the_readme_says():
    directives = dict(
        line.split("=", 1) for line in UNIT.read_text().splitlines() if "=" in line and not line.startswith("#")
    )
    assert directives["User"] == "gatehouse" and directives["StateDirectory"] == "gatehouse"
    assert directives["EnvironmentFile"] == "-/etc/gatehouse/gatehouse.env"
    assert directives["ProtectSystem"] == "strict" and directives["NoNewPrivileges"] == "yes"
    assert "--data-dir /var/lib/gatehouse" in directives["ExecStart"]
    sysusers = (REPO_ROOT / "deploy" / "systemd" / "gatehouse.sysusers").read_text()
    assert re.search(r"^u gatehouse ", sysusers, re.MULTILINE)
