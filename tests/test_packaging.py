"""What an install carries: every package under mlang/ and the stdlib .m files.

The file list is setuptools' own (build_py's outputs, which are the wheel's
contents for a pure-Python package), read from pyproject.toml without
building or reaching the network.  .ci/wheel-check builds and installs a
real wheel.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# Run in the repository root; egg-info (which build_py reads the data-file
# list through) is written to a temporary folder so the tree is left as it was.
WHEEL_FILES = """
import json, os, sys, warnings
warnings.simplefilter("ignore")
from setuptools.dist import Distribution
dist = Distribution({"script_name": "setup.py"})
dist.parse_config_files()
dist.get_command_obj("egg_info").egg_base = sys.argv[1]
build = dist.get_command_obj("build_py")
build.ensure_finalized()
outputs = build.get_outputs(include_bytecode=False)
print(json.dumps(sorted(os.path.relpath(p, build.build_lib).replace(os.sep, "/") for p in outputs)))
"""


def wheel_files(tmp_path: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", WHEEL_FILES, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_every_folder_of_python_code_is_a_listed_package():
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "mlang").rglob("*.py")
             if "__pycache__" not in p.parts}
    missing = found - listed
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == {"mlang.stdlib"}


def test_stdlib_is_mapped_from_the_top_level_folder():
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"mlang.stdlib": "stdlib"}
    assert "*.m" in setuptools["package-data"]["mlang.stdlib"]


def test_the_wheel_carries_the_stdlib_and_every_module(tmp_path):
    files = wheel_files(tmp_path)
    stdlib = sorted(p.name for p in (ROOT / "stdlib").glob("*.m"))
    assert stdlib, "stdlib/ has no .m files"
    for name in stdlib:
        assert f"mlang/stdlib/{name}" in files
    assert "mlang/stdlib/README.md" in files
    assert "mlang/syntax/matlab.lark" in files
    modules = sorted(str(p.relative_to(ROOT)).replace("\\", "/") for p in (ROOT / "mlang").rglob("*.py")
                     if "__pycache__" not in p.parts)
    assert [m for m in modules if m not in files] == []
