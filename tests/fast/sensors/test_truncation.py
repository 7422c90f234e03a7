"""Truncation (``probe/sensors/truncation.py``, ``Truncation``): TW207, a tape that continues from values an
earlier tape computed after that tape's ``backward()`` ran (carried outside any tape), both tapes reading
the same parameter: the gradient stops at the carried state."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def decay(x: wp.array(dtype=float), k: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * k[0]


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])


def _start():
    return wp.array([0.9], dtype=float, requires_grad=True), wp.array(np.ones(8, dtype=np.float32))


def test_a_tape_per_window_with_the_state_carried(probe):
    k, carried = _start()
    for _ in range(2):
        states = [wp.clone(carried, requires_grad=True), wp.zeros(8, dtype=float, requires_grad=True)]
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()  # a tape per window
        with tape:
            wp.launch(decay, dim=8, inputs=[states[0], k], outputs=[states[1]])
            wp.launch(total, dim=8, inputs=[states[1]], outputs=[loss])
        tape.backward(loss)
        wp.copy(carried, states[-1])  # the carry
    found = _final(probe.findings("TW207"))
    assert [f["line"] for f in found] == [_line_of("tape = wp.Tape()  # a tape per window")], probe.findings()
    assert found[0]["message"].startswith("A new tape is made here for each window. This tape continues from "
                                          "`states[0]`")
    assert "although `k` shapes both" in found[0]["message"]
    assert _line_of("wp.copy(carried, states[-1])  # the carry") in [r["line"] for r in found[0]["related"]]


def test_one_tape_reset_between_windows(probe):
    k, carried = _start()
    tape = wp.Tape()
    for _ in range(2):
        states = [wp.clone(carried, requires_grad=True), wp.zeros(8, dtype=float, requires_grad=True)]
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(decay, dim=8, inputs=[states[0], k], outputs=[states[1]])
            wp.launch(total, dim=8, inputs=[states[1]], outputs=[loss])
        tape.backward(loss)  # the window's backward
        wp.copy(carried, states[-1])
        tape.reset()
    found = _final(probe.findings("TW207"))
    assert [f["line"] for f in found] == [_line_of("# the window's backward")], probe.findings()
    assert found[0]["message"].startswith("This tape continues from `states[0]`, which its previous recording")


def test_a_fresh_episode_per_window_is_quiet(probe):
    k, carried = _start()
    for _ in range(2):
        states = [wp.clone(carried, requires_grad=True), wp.zeros(8, dtype=float, requires_grad=True)]
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(decay, dim=8, inputs=[states[0], k], outputs=[states[1]])
            wp.launch(total, dim=8, inputs=[states[1]], outputs=[loss])
        tape.backward(loss)
        wp.copy(carried, states[-1])
        carried.assign(np.ones(8, dtype=np.float32))  # a reset from host data cuts the link
    assert probe.findings() == []


def test_one_tape_over_the_whole_rollout_is_quiet(probe):
    k, carried = _start()
    states = [wp.clone(carried, requires_grad=True)] + [wp.zeros(8, dtype=float, requires_grad=True)
                                                        for _ in range(2)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(2):
            wp.launch(decay, dim=8, inputs=[states[s], k], outputs=[states[s + 1]])
        wp.launch(total, dim=8, inputs=[states[-1]], outputs=[loss])
    tape.backward(loss)
    assert probe.findings() == []
    assert k.grad.numpy()[0] == pytest.approx(2 * 0.9 * 8)


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
