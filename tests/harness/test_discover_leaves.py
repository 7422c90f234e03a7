"""A script with no optimizer and no gradient read: the harness picks the tape's leaves and says so."""

from __future__ import annotations

from tapewatch.harness.discover import discover
from tapewatch.harness.writer import render

SCRIPT = '''\
import numpy as np
import warp as wp

k = wp.array([1.5, 0.3], dtype=float, requires_grad=True)
x = wp.array(np.linspace(0, 1, 8).astype(np.float32), dtype=float)
scratch = wp.zeros(8, dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(bend, dim=8, inputs=[k, x], outputs=[scratch])
    wp.launch(total, dim=8, inputs=[scratch], outputs=[e])
tape.backward(e)
'''


def test_the_leaves_of_the_tape_are_the_parameters(tmp_path):
    script = tmp_path / "bend.py"
    script.write_text(SCRIPT)
    plan = discover(str(script))
    assert [(p.name, p.line) for p in plan.params] == [("k", 4)]  # scratch is written on the tape, e is the loss
    assert plan.problems == []
    assert "requires_grad=True that the tape reads and nothing on it writes (`k`)" in plan.chosen
    text = render(plan, "gradcheck", "/x")
    assert "# Chosen by Tapewatch:" in text and "fdcheck.Parameter('k', line=4)" in text
