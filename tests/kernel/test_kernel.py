"""mlang's Jupyter kernel driven through jupyter_client, as a notebook drives it: one
kernel for the module (started from a kernel spec written into a temporary folder, so no
Jupyter folder of the user's is touched)."""

from __future__ import annotations

import base64
import io
import os
import sys
import time

import pytest

pytest.importorskip("ipykernel")
pytest.importorskip("jupyter_client")

from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

from mlang.kernel import KERNEL_NAME, write_kernel_spec  # noqa: E402

TIMEOUT = 30


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    spec_dir = tmp_path_factory.mktemp("kernels")
    write_kernel_spec(spec_dir / KERNEL_NAME)
    work = tmp_path_factory.mktemp("work")
    manager = KernelManager(kernel_name=KERNEL_NAME,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec_dir)]))
    manager.start_kernel(cwd=str(work), env={**os.environ, "MPLBACKEND": "Agg"})
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    client.work = work
    client.manager = manager
    yield client
    client.stop_channels()
    manager.shutdown_kernel(now=True)


def run(client, code, **kwargs):
    """Execute ``code``; (reply content, the iopub messages it caused)."""
    msg_id = client.execute(code, **kwargs)
    messages = []
    while True:
        msg = client.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
        messages.append(msg)
    reply = client.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=TIMEOUT)
    return reply["content"], messages


def streams(messages, name="stdout"):
    return "".join(m["content"]["text"] for m in messages
                   if m["msg_type"] == "stream" and m["content"]["name"] == name)


def of_type(messages, kind):
    return [m["content"] for m in messages if m["msg_type"] == kind]


def test_kernel_info(kernel):
    kernel.kernel_info()
    info = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert info["implementation"] == "mlang"
    language = info["language_info"]
    assert language["name"] == "matlab" and language["file_extension"] == ".m"
    assert language["codemirror_mode"] == "octave"


def test_output_as_the_command_window_shows_it(kernel):
    reply, messages = run(kernel, "x = 1 + 2\ny = 5;\nfprintf('%d\\n', y)")
    assert reply["status"] == "ok"
    assert streams(messages) == "\nx =\n\n     3\n\n5\n"


def test_the_workspace_persists_between_cells(kernel):
    run(kernel, "kept = 41;")
    reply, messages = run(kernel, "disp(kept + 1)")
    assert streams(messages) == "    42\n\n"


def test_warnings_go_to_stderr(kernel):
    _, messages = run(kernel, "warning('careful now');")
    assert streams(messages, "stderr") == "Warning: careful now\n"


def test_errors_in_matlab_layout_with_the_cell_line(kernel):
    reply, messages = run(kernel, "a = 1;\nb = undefined_thing + 1;\nc = 3;")
    assert reply["status"] == "error"
    assert reply["ename"] == "MATLAB:UndefinedFunction"
    assert reply["evalue"] == "Unrecognized function or variable 'undefined_thing'."
    error = of_type(messages, "error")[0]
    assert error["traceback"] == ["Unrecognized function or variable 'undefined_thing'.", "",
                                  "Error in cell (line 2)", "b = undefined_thing + 1;"]
    reply, _ = run(kernel, "disp(a)")  # the lines before the error ran
    assert reply["status"] == "ok"


def test_errors_from_functions_and_syntax_errors(kernel):
    reply, messages = run(kernel, "x = 5;\nerror('my:id', 'Value %d is bad.', x)")
    assert (reply["ename"], reply["evalue"]) == ("my:id", "Value 5 is bad.")
    assert of_type(messages, "error")[0]["traceback"][-2:] == [
        "Error in cell (line 2)", "error('my:id', 'Value %d is bad.', x)"]
    reply, messages = run(kernel, "x = (1 + ")
    assert reply["status"] == "error" and reply["ename"].startswith("MATLAB:m_")
    assert of_type(messages, "error")[0]["traceback"][0].startswith("Error:")


def test_figures_inline_as_png_and_written_nowhere(kernel):
    from PIL import Image

    reply, messages = run(kernel, "plot(1:10, (1:10).^2); title('squares');")
    assert reply["status"] == "ok"
    shown = of_type(messages, "display_data")
    assert len(shown) == 1
    png = base64.b64decode(shown[0]["data"]["image/png"])
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (560, 420)
    _, messages = run(kernel, "z = 1;")  # an unchanged figure is not shown again
    assert of_type(messages, "display_data") == []
    _, messages = run(kernel, "hold on; plot(1:10); figure; bar(1:3);")
    assert len(of_type(messages, "display_data")) == 2
    assert not (kernel.work / "figures").exists()
    run(kernel, "close all;")


def test_completion_reuses_the_command_window_completer(kernel):
    run(kernel, "my_variable = 1; st.alpha = 1; st.beta = 2;")
    kernel.complete("x = my_va", 9)
    reply = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert reply["matches"] == ["my_variable"]
    assert (reply["cursor_start"], reply["cursor_end"]) == (4, 9)
    kernel.complete("st.", 3)
    reply = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert reply["matches"] == ["alpha", "beta"] and reply["cursor_start"] == 3
    kernel.complete("linsp", 5)
    assert "linspace" in kernel.get_shell_msg(timeout=TIMEOUT)["content"]["matches"]


def test_inspect_shows_the_help_text(kernel):
    kernel.inspect("y = linspace(0, 1)", 6)
    reply = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert reply["found"] and "linspace" in reply["data"]["text/plain"]
    kernel.inspect("no_such_name_here", 3)
    assert kernel.get_shell_msg(timeout=TIMEOUT)["content"]["found"] is False


def test_is_complete(kernel):
    kernel.is_complete("for k = 1:3")
    assert kernel.get_shell_msg(timeout=TIMEOUT)["content"]["status"] == "incomplete"
    kernel.is_complete("x = 1")
    assert kernel.get_shell_msg(timeout=TIMEOUT)["content"]["status"] == "complete"


@pytest.mark.skipif(sys.platform == "win32", reason="interrupts are signals")
def test_interrupt_stops_the_cell_and_keeps_the_workspace(kernel):
    run(kernel, "before = 7;")
    msg_id = kernel.execute("k = 0; disp('looping'); for i = 1:1e10, k = k + 1; end")
    while True:  # wait until the loop runs (its cell has printed), however busy the machine
        msg = kernel.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream" \
                and "looping" in msg["content"]["text"]:
            break
    time.sleep(0.2)
    kernel.manager.interrupt_kernel()
    reply = kernel.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kernel.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["status"] == "error"
    assert reply["content"]["evalue"] == "Operation terminated by user."
    # k exists whether or not the loop had begun when the interrupt came (a busy machine)
    reply, messages = run(kernel, "disp(before); disp(k >= 0)")
    for _ in range(5):
        if reply["status"] != "aborted":
            break
        # (a request that reaches the kernel while it still aborts what was queued behind
        # the failed cell is answered "aborted", not run, by Jupyter's protocol: sent again)
        time.sleep(0.2)
        reply, messages = run(kernel, "disp(before); disp(k >= 0)")
    assert reply["status"] == "ok" and streams(messages) == "     7\n\n   1\n\n"
