"""Localization in a verification run (TW403, TW404, TW405), with the real
probe under the newest and the oldest supported Warp: exact codes and lines,
nothing on a correct program, and a NaN hunt that leaves the program's
gradients exactly as a plain run leaves them."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conftest import EXAMPLES, markers, probe_run
from tapewatch.runner import RunRequest

LOCALIZATION = {"TW403", "TW404", "TW405"}


def run(script, python: str, **kw):
    return probe_run(script, python, **kw)


def related(finding, role):
    return [(r.location.path, r.location.line) for r in finding.related if r.role == role]


def lines_of(path: Path, marker: str):
    return [n for n, line in enumerate(path.read_text().splitlines(), start=1) if marker in line]


# ------------------------------------------------------------------ examples
def test_where_nan_origin(python):
    path = EXAMPLES / "where_nan.py"
    m = markers(path)
    result = run(path, python)
    assert result.exit_code == 0 and result.outcome == "ok"
    assert [(f.code, f.location.line) for f in result.findings] == [("TW403", m["expect:TW403"][0])]
    f = result.findings[0]
    assert f.severity == "error" and f.location.path == str(path)
    assert f.data["kernel"] == "contact_energy" and f.data["origin"] == "launch"
    assert f.data["arrays"] == ["x"] and f.data["arguments"] == ["x"]
    assert f.data["nonfinite"] == "NaN" and f.data["operation"] == "wp.exp"
    assert "first to produce NaN" in f.message and "wp.where" in f.message and "1 of 4 threads" in f.message
    assert related(f, "launch") == [(str(path), m["launch"][0])]
    assert related(f, "kernel") == [(str(path), lines_of(path, "def contact_energy")[0])]
    assert related(f, "allocation") == [(str(path), m["alloc"][0])]
    assert related(f, "backward") == [(str(path), lines_of(path, "tape.backward(")[0])]
    # The launch node of the tape graph carries the finding.
    launch = [n for n in result.tapes[0].nodes if n.kind == "launch" and f.id in n.finding_ids]
    assert [n.label for n in launch] == ["contact_energy"]


def test_backward_disabled(python):
    path = EXAMPLES / "backward_disabled.py"
    m = markers(path)
    result = run(path, python)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW405", m["expect:TW405"][0])]
    f = result.findings[0]
    assert f.severity == "warning" and f.count == 16  # 8 steps x 2 iterations, reported once
    assert f.data["kernel"] == "apply_drag" and f.data["option"] == "kernel" and f.data["upstream"] == ["v"]
    assert "silently skips" in f.message
    assert related(f, "kernel") == [(str(path), lines_of(path, "def apply_drag")[0])]
    assert related(f, "launch") == [(str(path), m["launch"][0])]


def test_wrong_custom_adjoint_is_silent_without_the_checks(python):
    result = run(EXAMPLES / "wrong_custom_adjoint.py", python, check_launches=False)
    assert result.findings == [] and result.exit_code == 0
    assert not [e for e in result.events if e["event"] == "launch_check"]


def test_wrong_custom_adjoint_checked(python):
    path = EXAMPLES / "wrong_custom_adjoint.py"
    m = markers(path)
    result = run(path, python, check_launches=True)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW404", m["expect:TW404"][0])]
    f = result.findings[0]
    assert f.severity == "error" and f.data["kernel"] == "actuate"
    assert (f.data["input"], f.data["output"]) == ("controls", "force")
    assert f.data["max_abs_error"] > 0.05 and f.data["max_rel_error"] > 0.5
    assert f.data["failed"] >= 1 and f.data["checked"] >= f.data["failed"]
    assert "max abs error" in f.message and "max rel error" in f.message
    assert f.data["custom_adjoint"] == "soft_clamp" and "custom adjoint of `soft_clamp`" in f.message
    assert related(f, "kernel") == [(str(path), lines_of(path, "def actuate")[0])]
    assert related(f, "launch") == [(str(path), m["launch"][0])]
    assert related(f, "function") == [(str(path), lines_of(path, "def soft_clamp")[0])]
    checks = [e for e in result.events if e["event"] == "launch_check"]
    assert {(e["kernel"], e["status"]) for e in checks} == {("actuate", "fail"), ("step", "pass"),
                                                          ("tracking_loss", "pass")}
    # Warp's gradcheck summary never reaches the user's stdout; the script's own output does.
    assert "Gradient check" not in result.stdout and "loss" in result.stdout


def test_correct_program_is_clean_with_every_check(python):
    result = run(EXAMPLES / "correct_fresh_arrays.py", python, check_launches=True)
    assert result.findings == [] and result.exit_code == 0
    checks = [e for e in result.events if e["event"] == "launch_check"]
    assert checks and all(e["status"] == "pass" for e in checks)
    # One tape structure (three iterations): its launches are checked once.
    assert sorted(e["kernel"] for e in checks) == ["height_loss", "integrate", "integrate"]


def test_where_nan_with_every_check_stays_tw403(python):
    """The per-launch check leaves NaN adjoints to TW403 (no second finding on the line)."""
    result = run(EXAMPLES / "where_nan.py", python, check_launches=True)
    assert [f.code for f in result.findings] == ["TW403"]


# ------------------------------------------------------------ the NaN hunt
NAN_PROGRAM = '''
import sys
import numpy as np
import warp as wp

MODE = sys.argv[2]


@wp.kernel
def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]


@wp.kernel
def distance(y: wp.array(dtype=float), d: wp.array(dtype=float)):
    i = wp.tid()
    d[i] = wp.sqrt(y[i])  # sqrt'(0) = inf  # expect: TW403


@wp.kernel
def total(d: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, d[i])


x = wp.array(np.array([1.0, 0.0, 4.0], dtype=np.float32), requires_grad=True)
y = wp.zeros(3, dtype=float, requires_grad=True)  # alloc: y
d = wp.zeros(3, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
for it in range(3):
    loss.zero_()
    tape = wp.Tape()
    with tape:
        wp.launch(scale, dim=3, inputs=[x], outputs=[y])
        wp.launch(distance, dim=3, inputs=[y], outputs=[d])  # launch
        wp.launch(total, dim=3, inputs=[d], outputs=[loss])
    if MODE == "loss":
        tape.backward(loss)  # backward
    elif MODE == "manual":
        loss.grad.fill_(1.0)
        tape.backward()
    else:
        tape.backward(grads={loss: wp.ones(1, dtype=float)})
    print("x.grad", x.grad.numpy().tolist())
    if it < 2:
        tape.zero()
np.savez(sys.argv[1], x=x.grad.numpy(), y=y.grad.numpy(), d=d.grad.numpy(), loss=loss.grad.numpy(),
         xv=x.numpy(), yv=y.numpy(), dv=d.numpy())
'''


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def _plain(python, script, *args):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    subprocess.run([python, str(script), *args], check=True, env=env, cwd=str(script.parent),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.parametrize("mode", ["loss", "manual", "grads"])
def test_hunt_leaves_gradients_as_a_plain_run(python, tmp_path, mode):
    script = _write(tmp_path, "nan_program.py", NAN_PROGRAM)
    m = markers(script)
    probed, plain = tmp_path / "probed.npz", tmp_path / "plain.npz"
    result = run(script, python, args=[str(probed), mode])
    assert result.exit_code == 0, result.stderr_tail
    # (Warp 1.14 also warns about reads of earlier iterations' tapes: TW107, information.)
    assert [(f.code, f.location.line) for f in result.findings if f.code != "TW107"] == [
        ("TW403", m["expect:TW403"][0])]
    assert all(f.severity == "information" for f in result.findings if f.code == "TW107")
    f = result.findings[0]
    assert f.data["kernel"] == "distance" and f.data["arrays"] == ["y"] and f.data["nonfinite"] == "Inf"
    assert f.data["operation"] == "wp.sqrt" and "1 of 3 threads" in f.message
    assert related(f, "launch") == [(str(script), m["launch"][0])]
    assert f.count == 3  # three iterations of one tape structure: one replay, one finding
    assert related(f, "allocation") == [(str(script), m["alloc"][0])]
    _plain(python, script, str(plain), mode)
    a, b = np.load(probed), np.load(plain)
    assert sorted(a.files) == sorted(b.files)
    for key in a.files:
        assert np.array_equal(a[key], b[key], equal_nan=True), key
    assert result.stdout.count("x.grad") == 3


def test_nonfinite_forward_and_seed(python, tmp_path):
    script = _write(tmp_path, "forward_nan.py", '''
        import numpy as np
        import warp as wp


        @wp.kernel
        def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = x[i] * x[i]


        x = wp.array(np.array([1.0, np.nan], dtype=np.float32), requires_grad=True)
        y = wp.zeros(2, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(square, dim=2, inputs=[x], outputs=[y])  # expect: TW407
        tape.backward(grads={y: wp.ones(2, dtype=float)})

        z = wp.array(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
        w = wp.zeros(2, dtype=float, requires_grad=True)
        tape2 = wp.Tape()
        with tape2:
            wp.launch(square, dim=2, inputs=[z], outputs=[w])
        tape2.backward(grads={w: wp.array(np.array([1.0, np.inf], dtype=np.float32))})  # seed
        ''')
    result = run(script, python)
    seed_line = lines_of(script, "# seed")[0]
    assert sorted((f.code, f.location.line) for f in result.findings) == [
        ("TW403", seed_line), ("TW407", markers(script)["expect:TW407"][0])]
    by_code = {f.code: f for f in result.findings}
    # NaN already in the data: the forward pass is at fault, not a gradient; information only.
    forward = by_code["TW407"]
    assert forward.severity == "information" and forward.data["arrays"] == ["x"] and forward.data["kind"] == "input"
    # (it never claims "not a gradient bug": what drove the parameters there was not checked)
    assert "not a gradient bug" not in forward.message and "was not checked here" in forward.message
    assert "already hold" in forward.message
    assert by_code["TW403"].data["origin"] == "seed"
    assert "when tape.backward() starts" in by_code["TW403"].message


def test_record_func_origin(python, tmp_path):
    script = _write(tmp_path, "record_func.py", '''
        import numpy as np
        import warp as wp


        @wp.kernel
        def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = 2.0 * x[i]


        x = wp.array(np.ones(2, dtype=np.float32), requires_grad=True)
        y = wp.zeros(2, dtype=float, requires_grad=True)
        z = wp.zeros(2, dtype=float, requires_grad=True)


        def copy_back():  # expect: TW403
            y.grad.assign(z.grad.numpy() / 0.0)


        tape = wp.Tape()
        with tape:
            wp.launch(double, dim=2, inputs=[x], outputs=[y])
            tape.record_func(copy_back, [y, z])
        tape.backward(grads={z: wp.ones(2, dtype=float)})
        ''')
    result = run(script, python)
    assert [(f.code, f.data["origin"], f.location.line) for f in result.findings] == [
        ("TW403", "func", markers(script)["expect:TW403"][0])]
    assert result.findings[0].data["function"] == "copy_back"


@pytest.mark.parametrize("how", ["module", "config"])
def test_backward_disabled_by_module_or_config(python, tmp_path, how):
    setting = ('wp.set_module_options({"enable_backward": False})' if how == "module"
               else "wp.config.enable_backward = False")
    script = _write(tmp_path, "disabled_%s.py" % how, '''
        import numpy as np
        import warp as wp

        %s  # expect: TW405


        @wp.kernel
        def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = 2.0 * x[i]


        x = wp.array(np.ones(2, dtype=np.float32), requires_grad=True)
        y = wp.zeros(2, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(double, dim=2, inputs=[x], outputs=[y])  # launch
        tape.backward(grads={y: wp.ones(2, dtype=float)})
        ''' % setting)
    result = run(script, python, check_launches=True)
    assert [(f.code, f.location.line) for f in result.findings] == [("TW405", markers(script)["expect:TW405"][0])]
    f = result.findings[0]
    assert f.data["option"] == how and f.data["upstream"] == ["x"]
    assert related(f, "launch") == [(str(script), markers(script)["launch"][0])]
    # Never "passed" by the launch check: it is not checked at all.
    assert not [e for e in result.events if e["event"] == "launch_check"]


def test_flag_reaches_the_probe():
    from tapewatch.cli import build_parser
    from tapewatch.runner import probe_command

    assert "--check-launches" in probe_command(RunRequest(script="s.py"), 3)  # on by default
    assert "--check-launches" not in probe_command(RunRequest(script="s.py", check_launches=False), 3)
    assert build_parser().parse_args(["check", "s.py"]).check_launches is True
    assert build_parser().parse_args(["check", "s.py", "--no-check-launches"]).check_launches is False


def test_a_conditional_expression_over_arrays_on_an_old_warp(python):
    """Warp before 1.17 drops the gradient of ``raw[i] / gain[i] if flag else raw[i]`` (NVIDIA/warp#1736):
    the launch check's TW404 sits on that expression and says so; from 1.17 on the program is correct."""
    path = Path(__file__).parent / "corpus" / "ternary_reads_arrays.py"
    result = run(path, python, check_launches=True)
    assert result.exit_code == 0 and result.outcome == "ok"
    version = tuple(int(p) for p in result.warp_version.split(".")[:2])
    if version >= (1, 17):
        assert result.findings == []
        return
    assert [(f.code, f.location.line) for f in result.findings] == \
        [("TW404", lines_of(path, "# the conditional expression")[0])]
    f = result.findings[0]
    assert "NVIDIA/warp#1736" in f.message and "`if`/`else`" in f.message and f.data["warp_issue"] == 1736
    assert related(f, "launch") == [(str(path), lines_of(path, "# the launch")[0])]
