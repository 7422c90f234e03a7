"""Related locations that say where the fix goes beyond the finding's own line."""

from __future__ import annotations

import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def advance(x: wp.array(dtype=float), damping: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] * (1.0 - damping[0]) + 0.01 * wp.sin(x[i])


class Ring:
    def __init__(self):
        self.num_buffers = 2
        self.states = [wp.zeros(8, dtype=float, requires_grad=True) for _ in range(self.num_buffers)]

    def state(self, step):
        return self.states[step % self.num_buffers]


def test_a_ring_too_short_sits_where_its_length_is_set(probe):
    ring = Ring()
    damping = wp.array([0.1], dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for step in range(4):
            wp.launch(advance, dim=8, inputs=[ring.state(step), damping], outputs=[ring.state(step + 1)])
    tape.reset()
    found = [f for f in probe.findings("TW101") if f["line"] == _line_of("self.num_buffers = 2")]
    assert found, probe.findings()
    assert "make the ring as long as the steps on the tape" in found[0]["message"]
    writers = [r["line"] for r in found[0]["related"] if r["role"] == "writer"]
    assert writers == [_line_of("outputs=[ring.state(step + 1)])")]


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        return next(n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line)
