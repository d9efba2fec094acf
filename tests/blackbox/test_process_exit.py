"""A clean stop ends with exit status 0 even while threads still use OpenSSL.

OpenSSL registers `OPENSSL_cleanup` with `atexit` unless it is first initialised with
`OPENSSL_INIT_NO_ATEXIT`. That handler frees the library's global state while the process exits, and a
worker thread still signing, hashing or freeing a key then touches freed memory: CI saw a gateway end a
clean stop with "double free or corruption" (status -6). The race itself fires in a few runs in a hundred,
so this test checks its cause deterministically: a preloaded shim records every `atexit` registration of
`OPENSSL_cleanup` in the gateway process.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from verbs import sign_up_anonymously

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* Every atexit() in a shared library lands here; record the ones that would run OpenSSL's clean-up. */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
    static int (*real)(void (*)(void *), void *, void *);
    if (!real) real = (int (*)(void (*)(void *), void *, void *))dlsym(RTLD_NEXT, "__cxa_atexit");
    void *cleanup = dlsym(RTLD_DEFAULT, "OPENSSL_cleanup");
    const char *log = getenv("ATEXIT_SHIM_LOG");
    if (cleanup && (void *)fn == cleanup && log) {
        FILE *f = fopen(log, "a");
        if (f) { fputs("OPENSSL_cleanup\n", f); fclose(f); }
    }
    return real(fn, arg, dso);
}
"""


@pytest.fixture(scope="module")
def atexit_shim(tmp_path_factory):
    compiler = shutil.which("gcc") or shutil.which("cc")
    assert compiler, "a C compiler is needed to build the atexit shim (gcc is part of the build machine)"
    work = tmp_path_factory.mktemp("atexit-shim")
    source, library = work / "shim.c", work / "shim.so"
    source.write_text(SHIM)
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source), "-ldl"], check=True)
    return library


def registrations(log) -> list[str]:
    return log.read_text().split() if log.exists() else []


def test_the_shim_sees_openssl_register_its_exit_cleanup(atexit_shim, tmp_path):
    """The shim works: the `openssl` command initialises OpenSSL the default way, and it is recorded."""
    openssl = shutil.which("openssl")
    assert openssl, "the openssl command is installed by scripts/bootstrap.sh"
    log = tmp_path / "atexit.log"
    subprocess.run([openssl, "sha256", "/dev/null"], check=True, capture_output=True,
                   env={"LD_PRELOAD": str(atexit_shim), "ATEXIT_SHIM_LOG": str(log), "PATH": "/usr/bin:/bin"})
    assert registrations(log) == ["OPENSSL_cleanup"]


def test_gateway_never_registers_openssl_exit_cleanup(make_gateway, atexit_shim, tmp_path):
    log = tmp_path / "atexit.log"
    gw = make_gateway(env={"LD_PRELOAD": str(atexit_shim), "ATEXIT_SHIM_LOG": str(log)})
    # Sign a token and seal a refresh token, so every OpenSSL path of a sign-up has run.
    sign_up_anonymously(gw)
    assert gw.stop() == 0
    assert registrations(log) == []
