"""Graph capture: nothing the probe does joins or breaks the user's graph, and what it could not
check inside the capture happens on the graph's first replay or is counted as not measured."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")

pytestmark = pytest.mark.skipif(not hasattr(wp._src.context, "capture_begin") or
                                tuple(int(p) for p in wp.config.version.split(".")[:2]) < (1, 19),
                                reason="graph capture on the CPU needs Warp 1.19")


@wp.kernel
def squared_error(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def descend(x: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    x[i] = x[i] - lr * g[i]


def _training(zero: bool):
    x = wp.zeros(8, dtype=float, requires_grad=True)
    target = wp.array(np.linspace(0.0, 1.0, 8, dtype=np.float32))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    wp.load_module()
    with wp.ScopedCapture() as forward_backward:
        loss.zero_()
        with tape:
            wp.launch(squared_error, dim=8, inputs=[x, target], outputs=[loss])
        tape.backward(loss)
    with wp.ScopedCapture() as update:
        wp.launch(descend, dim=8, inputs=[x, x.grad, 0.1])
        if zero:
            tape.zero()
    return x, loss, forward_backward.graph, update.graph


def test_the_probe_adds_nothing_to_a_captured_graph(probe):
    """The same capture with the probe standing aside and with it on records the same operations."""
    hooks_own = probe.probe.hooks.own
    with hooks_own():
        _, _, quiet_fb, quiet_up = _training(zero=True)
    _, _, fb, up = _training(zero=True)
    assert fb._apic_capture.operation_count == quiet_fb._apic_capture.operation_count
    assert up._apic_capture.operation_count == quiet_up._apic_capture.operation_count


def test_checks_run_on_the_first_replay(probe):
    x, loss, fb, up = _training(zero=True)
    assert probe.findings() == []
    for _ in range(4):
        wp.capture_launch(fb)
        wp.capture_launch(up)
    assert probe.findings() == []
    done = probe.at_exit()
    checks = done["launch_checks"]
    assert checks["checked"] == 1 and checks["passed"] == 1, checks
    skipped = {i["what"] for i in done["not_measured"]["items"]}
    assert "measuring whether overwrites change the gradient" in skipped


def test_gradients_summed_across_replays(probe):
    x, loss, fb, up = _training(zero=False)
    for _ in range(4):
        wp.capture_launch(fb)
        wp.capture_launch(up)
    found = probe.findings("TW202")
    assert len(found) == 1 and "captured in a graph that is replayed" in found[0]["message"]
    assert found[0]["line"] == _line_of("        tape.backward(loss)")


def test_a_graph_never_launched_is_counted(probe):
    _training(zero=True)
    checks = probe.at_exit()["launch_checks"]
    assert checks["checked"] == 0
    assert checks["skip_reasons"] == {"recorded inside a graph capture whose graph was never launched": 1}


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        return next(n for n, line in enumerate(f, start=1) if line.rstrip("\n") == text)
