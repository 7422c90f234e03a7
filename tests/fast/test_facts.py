"""What the probe keeps about the program's arrays, tapes and kernels: one typed record each."""

from __future__ import annotations

import gc
import inspect

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def total(y: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, y[wp.tid()])


def _line() -> int:
    return inspect.currentframe().f_back.f_lineno


def test_a_gradients_lifecycle_is_one_record(probe):
    from tapewatch.probe.core import facts

    x = wp.array(np.arange(1, 5, dtype=np.float32), requires_grad=True); allocated = _line()
    y = wp.zeros(4, requires_grad=True)
    out = wp.zeros(1, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=4, inputs=[x], outputs=[y])
        wp.launch(total, dim=4, inputs=[y], outputs=[out])
    state = facts.tape_state(tape)
    assert state is not None and len(state.launches) == 2
    assert facts.known(x).alloc_site.location().line == allocated
    assert facts.known(x.grad) is None or facts.known(x.grad).filled_by is None  # nothing filled it yet
    tape.backward(loss=out)
    filled = facts.filled(x.grad)
    assert filled is not None
    assert facts.known(x.grad).read_after is None
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.arange(1, 5))
    assert facts.known(x.grad).read_after == filled  # the program read what that backward filled
    copy = wp.clone(x.grad)
    assert facts.known(copy).serial == filled  # a copy holds that backward's gradient too
    tape.zero()
    assert facts.peek(object()).filled_by is None  # anything without a record reads as blank


def test_a_sensors_record_per_tape_lives_in_the_sensor():
    from tapewatch.probe.core.sensor import PerTape

    class State:
        pass

    kept: PerTape[list] = PerTape(list)
    a, b = State(), State()
    kept.of(a).append(1)
    assert kept.of(a) == [1] and kept.get(b) is None
    assert kept.take(a) == [1] and kept.get(a) is None and kept.of(a) == []
    kept.of(b).append(2)
    del b
    gc.collect()
    assert len(kept._records) == 1  # a tape's state gone: its record too


def test_a_kernel_made_by_a_factory_knows_where(probe):
    from tapewatch.probe.core import facts

    def make():
        def scale(x: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = 2.0 * x[i]
        return wp.Kernel(scale, key="facts_scale")

    kernel = make(); made = _line()
    record = facts.known_kernel(kernel)
    assert record is not None and [s.f_lineno for s in record.made_at.snaps][-1] == made
