"""A chamber temperature trajectory kept in one 2-D array: each step stores ``temp[t + 1, c]`` from
``temp[t, c]`` and then reads the new value back for its error term.  A thread reads what it has just
written, and no step writes an element an earlier read used."""

import numpy as np
import warp as wp

wp.config.quiet = True

CH, STEPS = 8, 40


@wp.kernel
def step(temp: wp.array2d(dtype=float), power: wp.array(dtype=float), setpoint: wp.array(dtype=float), t: int,
         err: wp.array(dtype=float)):
    c = wp.tid()
    temp[t + 1, c] = temp[t, c] + 0.05 * (power[c] - 0.1 * (temp[t, c] - 20.0))
    d = temp[t + 1, c] - setpoint[c]
    wp.atomic_add(err, 0, d * d)


power = wp.array(np.full(CH, 5.0, dtype=np.float32), requires_grad=True)
setpoint = wp.array(np.linspace(40.0, 60.0, CH).astype(np.float32))
temp = wp.full((STEPS + 1, CH), 20.0, dtype=float, requires_grad=True)
err = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for t in range(STEPS):
        wp.launch(step, dim=CH, inputs=[temp, power, setpoint, t], outputs=[err])
tape.backward(err)
print("tracking error", err.numpy()[0], "d err / d power", power.grad.numpy()[:3])
