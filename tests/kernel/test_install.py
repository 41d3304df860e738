"""Installing the kernel spec (python -m mlang.kernel install, mlang --install-kernel) and
what mlang --version says about the optional parts."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import version

import pytest

from mlang.frontends import cli

pytest.importorskip("jupyter_client")


def _run(*args, env=None):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def _check_spec(folder):
    spec = json.loads((folder / "kernel.json").read_text())
    assert spec["argv"] == [sys.executable, "-m", "mlang.kernel", "-f", "{connection_file}"]
    assert spec["language"] == "matlab" and spec["interrupt_mode"] == "signal"
    for logo in ("logo-32x32.png", "logo-64x64.png"):
        assert (folder / logo).read_bytes().startswith(b"\x89PNG")


def test_install_into_a_prefix(tmp_path):
    done = _run("-m", "mlang.kernel", "install", "--prefix", str(tmp_path))
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "share" / "jupyter" / "kernels" / "mlang"
    assert str(folder) in done.stdout
    _check_spec(folder)


def test_install_for_the_user_from_the_command_line(tmp_path):
    done = _run("-m", "mlang", "--install-kernel", env={"JUPYTER_DATA_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    _check_spec(tmp_path / "kernels" / "mlang")


def test_install_options_are_exclusive(tmp_path):
    done = _run("-m", "mlang.kernel", "install", "--user", "--prefix", str(tmp_path))
    assert done.returncode != 0 and "not allowed" in done.stderr


def test_version_names_the_libraries_then_the_optional_parts():
    text = cli.version_text()
    assert text.startswith(f"mlang 0.1.0 (numpy {version('numpy')}, scipy {version('scipy')}, "
                           f"matplotlib {version('matplotlib')}; optional: h5py ")
    assert f"ipykernel {version('ipykernel')}" in text
    assert re.fullmatch(r"mlang \S+ \((\S+ \S+, )*\S+ \S+; optional: (\S+ \S+, )*\S+ \S+\)", text)


def test_version_marks_missing_parts(monkeypatch):
    monkeypatch.setattr(cli, "REQUIRED_PARTS", (("scipy", "scipy"),))
    monkeypatch.setattr(cli, "OPTIONAL_PARTS", (("no-such-dist", "no_such_module_anywhere"),
                                                ("numpy", "numpy")))
    assert cli.version_text() == (f"mlang 0.1.0 (scipy {version('scipy')}; "
                                  f"optional: no-such-dist -, numpy {version('numpy')})")


def test_version_loads_nothing_optional():
    code = ("import sys; from mlang.frontends.cli import main; main(['--version']); "
            "print(sorted(m for m in ('numpy', 'scipy', 'matplotlib', 'ipykernel', 'h5py', "
            "'importlib.metadata') if m in sys.modules))")
    done = _run("-c", code)
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_wheel_carries_the_kernel_spec(tmp_path):
    from tests.test_packaging import wheel_files

    files = set(wheel_files(tmp_path))
    assert {"mlang/kernel/kernel.json", "mlang/kernel/logo-32x32.png", "mlang/kernel/logo-64x64.png",
            "mlang/kernel/kernel.py", "mlang/kernel/__main__.py", "mlang/api/session.py",
            "mlang/builtins/graphics/inline.py"} <= files
