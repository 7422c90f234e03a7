"""Estimate the convective cooling coefficient of four zones along a heated
cooling fin from thermocouple readings along the fin.

1-D conduction (explicit) with a semi-implicit treatment of the Newton
cooling term per cell, base held at a fixed temperature.
"""
import numpy as np
import warp as wp

CELLS = 24
ZONES = 4
STEPS = 80
DT = 0.15
ALPHA = 0.4  # dt * diffusivity / dx^2 folded in below
T_BASE = 1.0


@wp.kernel
def conduct_and_cool(T: wp.array(dtype=float), h: wp.array(dtype=float), dt: float, T_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0:
        T_out[i] = T_BASE
        return
    left = T[i - 1]
    right = T[wp.min(i + 1, CELLS - 1)]
    T_out[i] = T[i] + ALPHA * (left - 2.0 * T[i] + right)
    T_out[i] /= 1.0 + dt * h[i * ZONES // CELLS]  # expect: inplace_op


@wp.kernel
def thermocouple_misfit(T: wp.array(dtype=float), cells: wp.array(dtype=wp.int32), readings: wp.array(dtype=float),
                        loss: wp.array(dtype=float)):
    k = wp.tid()
    d = T[cells[k]] - readings[k]
    wp.atomic_add(loss, 0, d * d)


cells = wp.array([3, 8, 13, 18, 23], dtype=wp.int32)
readings = wp.array([0.55, 0.3, 0.2, 0.14, 0.12], dtype=float)


def evaluate(p):
    h = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    T = wp.zeros(CELLS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            T_next = wp.empty_like(T)
            wp.launch(conduct_and_cool, dim=CELLS, inputs=[T, h, DT], outputs=[T_next])
            T = T_next
        wp.launch(thermocouple_misfit, dim=5, inputs=[T, cells, readings], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), h.grad.numpy().copy()


PARAMS0 = np.array([1.5, 1.0, 0.8, 0.6])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("misfit", l, "d/dh", g)
