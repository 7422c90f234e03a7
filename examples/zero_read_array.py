"""``.zero_()`` on an array that a launch on the same tape already read.

The force buffer is cleared for the next substep inside the tape.  Warp's
tracker never sees ``zero_()``/``fill_()``, so nothing warns, but the
integrator's adjoint now reads zeros instead of the forces it used.
"""

import numpy as np
import warp as wp

N = 32


@wp.kernel
def gravity(m: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = m[i] * -9.81


@wp.kernel
def step(v: wp.array(dtype=float), f: wp.array(dtype=float), m: wp.array(dtype=float), dt: float,
         v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] + f[i] / m[i] * dt


@wp.kernel
def energy(v: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * v[i] * v[i])


mass = wp.array(np.full(N, 2.0, dtype=np.float32), requires_grad=True)
forces = wp.zeros(N, dtype=float, requires_grad=True)  # alloc: forces
v0 = wp.zeros(N, dtype=float, requires_grad=True)
v1 = wp.zeros(N, dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(gravity, dim=N, inputs=[mass], outputs=[forces])
    wp.launch(step, dim=N, inputs=[v0, forces, mass, 0.01], outputs=[v1])  # reader
    forces.zero_()  # expect: TW103
    wp.launch(energy, dim=N, inputs=[v1], outputs=[e])
tape.backward(e)
print("de/dmass[0]", mass.grad.numpy()[0])
