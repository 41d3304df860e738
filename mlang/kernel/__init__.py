"""mlang's Jupyter kernel: MATLAB cells run in one persistent mlang session.

``mlang --install-kernel`` or ``python -m mlang.kernel install [--user | --sys-prefix |
--prefix DIR]`` installs the kernel spec (``kernel.json`` and the logos beside this file);
Jupyter then starts ``python -m mlang.kernel -f CONNECTION_FILE`` (``MlangKernel`` in
``mlang.kernel.kernel``).  ipykernel and jupyter_client are the optional ``jupyter`` extra.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

KERNEL_NAME = "mlang"
SPEC_FILES = ("kernel.json", "logo-32x32.png", "logo-64x64.png")
HERE = Path(__file__).resolve().parent


def write_kernel_spec(folder: Path, python: str | None = None) -> Path:
    """The kernel spec written into ``folder``: kernel.json naming ``python`` (default:
    this interpreter) and the logos."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = json.loads((HERE / "kernel.json").read_text(encoding="utf-8"))
    spec["argv"][0] = python or sys.executable
    (folder / "kernel.json").write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    for name in SPEC_FILES[1:]:
        shutil.copyfile(HERE / name, folder / name)
    return folder


def install(user: bool = False, prefix: str | None = None, sys_prefix: bool = False) -> str:
    """Install the kernel spec for Jupyter (per user, into a prefix, or system-wide);
    returns the folder it went to."""
    # jupyter_client only when installing: it is the optional jupyter extra
    from jupyter_client.kernelspec import KernelSpecManager

    if sys_prefix:
        prefix = sys.prefix
    with tempfile.TemporaryDirectory() as temporary:
        source = write_kernel_spec(Path(temporary) / KERNEL_NAME)
        return KernelSpecManager().install_kernel_spec(str(source), KERNEL_NAME, user=user,
                                                       prefix=prefix)
