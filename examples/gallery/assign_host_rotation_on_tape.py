"""Tune a wind turbine's induction; the helper rotates the inflow into the rotor frame on the host.

`out.assign(v.numpy() @ R.T)` writes host values into the array while the
tape records: the rotation is invisible to the tape, so the thrust misfit's
gradient never reaches the induction factor.
"""

import numpy as np
import warp as wp

from _frames_helper import to_rotor_frame_host

N = 24


@wp.kernel
def induced(a: wp.array(dtype=float), wind: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = wind[i] * (1.0 - a[0])


@wp.kernel
def thrust_misfit(v: wp.array(dtype=wp.vec3), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    u = v[i][0]
    r = 0.5 * u * u - target
    wp.atomic_add(loss, 0, r * r)


def main():
    a = wp.array([0.2], dtype=float, requires_grad=True)
    rng = np.random.default_rng(3)
    wind = wp.array(np.column_stack([8.0 + rng.normal(0, 0.5, N), rng.normal(0, 0.5, N), np.zeros(N)]).astype(np.float32),
                    dtype=wp.vec3)
    for _ in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(induced, dim=N, inputs=[a, wind], outputs=[v])
            v_rotor = to_rotor_frame_host(v, 8.0)
            wp.launch(thrust_misfit, dim=N, inputs=[v_rotor, 12.0], outputs=[loss])
        tape.backward(loss)
        a.assign(a.numpy() - 1e-4 * a.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
