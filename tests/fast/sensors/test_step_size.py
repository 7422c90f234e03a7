"""Step size (``probe/sensors/step_size.py``, ``StepSize``): TW408 (information), a loss passed to
``backward()`` that grows at each of at least 5 optimizer iterations, by 10x overall, reported on the update.

The sensor keys its state by the ``backward()`` line, so each test has its own loop (no shared helper)."""

from __future__ import annotations

import pytest

wp = pytest.importorskip("warp")

LR_TOO_LARGE = 1.1  # the curvature is 2: the error grows 1.2x, the loss 1.44x per step


@wp.kernel
def parabola(k: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = k[0] - target
    loss[0] = d * d


def _problem():
    return wp.array([2.0], dtype=float, requires_grad=True), wp.zeros(1, dtype=float, requires_grad=True)


def test_a_loss_that_grows_each_step(probe):
    k, loss = _problem()
    losses = []
    tape = wp.Tape()
    for _ in range(10):
        with tape:
            wp.launch(parabola, dim=1, inputs=[k, 3.0], outputs=[loss])
        tape.backward(loss)  # grows
        losses.append(float(loss.numpy()[0]))
        k.assign(k.numpy() - LR_TOO_LARGE * k.grad.numpy())
        tape.reset()
    assert losses[-1] > 10.0 * losses[0]
    found = _final(probe.findings("TW408"))
    assert len(found) == 1 and found[0]["severity"] == "information", probe.findings()
    # reported at the first backward() that ends a run of 5 increases reaching 10x
    reported_at = next(v for n, v in enumerate(losses) if n >= 5 and v >= 10.0 * losses[0])
    assert "grew at each of the last 5 or more iterations, from 1 to %.4g" % reported_at in found[0]["message"]
    assert [r["line"] for r in found[0]["related"]] == [_line_of("tape.backward(loss)  # grows")]


def test_the_finding_sits_on_the_update(probe):
    k, loss = _problem()
    tape = wp.Tape()
    with tape:
        wp.launch(parabola, dim=1, inputs=[k, 2.0], outputs=[loss])
    tape.backward(loss)
    k.assign(k.numpy() - 0.5 * k.grad.numpy())  # a warm-up step
    tape.reset()
    for _ in range(10):
        with tape:
            wp.launch(parabola, dim=1, inputs=[k, 3.0], outputs=[loss])
        tape.backward(loss)
        k.assign(k.numpy() - LR_TOO_LARGE * k.grad.numpy())  # the diverging update
        tape.reset()
    found = _final(probe.findings("TW408"))
    assert [f["line"] for f in found] == [_line_of("# the diverging update")], probe.findings()


def test_a_loss_that_shrinks_is_quiet(probe):
    k, loss = _problem()
    losses = []
    tape = wp.Tape()
    for _ in range(10):
        with tape:
            wp.launch(parabola, dim=1, inputs=[k, 3.0], outputs=[loss])
        tape.backward(loss)
        losses.append(float(loss.numpy()[0]))
        k.assign(k.numpy() - 0.1 * k.grad.numpy())
        tape.reset()
    assert losses[-1] < losses[0]
    assert probe.findings() == []


def test_a_loss_grown_less_than_tenfold_is_quiet(probe):
    k, loss = _problem()
    losses = []
    tape = wp.Tape()
    for _ in range(6):
        with tape:
            wp.launch(parabola, dim=1, inputs=[k, 3.0], outputs=[loss])
        tape.backward(loss)
        losses.append(float(loss.numpy()[0]))
        k.assign(k.numpy() - LR_TOO_LARGE * k.grad.numpy())
        tape.reset()
    assert all(b > a for a, b in zip(losses, losses[1:])) and losses[-1] < 10.0 * losses[0]
    assert probe.findings() == []


def _final(found: list) -> list:
    """One finding per id, as last reported (a finding measured later is reported again, updated)."""
    return list({f["id"]: f for f in found}.values())


def _line_of(text: str) -> int:
    with open(__file__, encoding="utf-8") as f:
        lines = [n for n, line in enumerate(f, start=1) if text in line and "_line_of" not in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
