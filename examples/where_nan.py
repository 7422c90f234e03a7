"""A `wp.where` overflow guard that still puts NaN into the gradient.

Particles fall onto a floor; a soft contact penalty pushes back:
``softplus(k * depth) / k``, with the textbook guard ``wp.where(s > 20, s,
log(1 + exp(s)))`` for large arguments.  The forward pass is fine: the guard
selects ``s`` where ``exp(s)`` would overflow.  But ``wp.where`` evaluates and
differentiates *both* operands: for the deepest particle ``exp(s)`` is
``inf``, and its adjoint is ``inf * 0 = NaN``.  The NaN then flows back
through every integration step into the launch velocities.

Fix: keep the operand finite in the branch that is not taken, e.g.
``wp.log(1.0 + wp.exp(wp.min(s, 20.0)))``.
"""

import numpy as np
import warp as wp

N = 4
STEPS = 5
DT = 0.02
STIFFNESS = 400.0


@wp.kernel
def integrate(
    x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), dt: float,
    x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    vel = v[i] + wp.vec2(0.0, -9.81) * dt
    v_out[i] = vel
    x_out[i] = x[i] + vel * dt


@wp.kernel
def contact_energy(x: wp.array(dtype=wp.vec2), k: float, energy: wp.array(dtype=float)):
    i = wp.tid()
    s = k * (0.0 - x[i][1])  # scaled penetration depth below the floor y = 0
    soft = wp.where(s > 20.0, s, wp.log(1.0 + wp.exp(s)))  # overflow "guard"  # expect: TW403
    wp.atomic_add(energy, 0, soft / k)


x0 = wp.array(np.array([[0.0, 0.5], [1.0, 0.1], [2.0, -0.05], [3.0, -0.4]], dtype=np.float32),
              dtype=wp.vec2, requires_grad=True)
v0 = wp.array(np.zeros((N, 2), dtype=np.float32), dtype=wp.vec2, requires_grad=True)

tape = wp.Tape()
with tape:
    x, v = x0, v0
    for _ in range(STEPS):
        x_next = wp.empty_like(x)  # alloc: x
        v_next = wp.empty_like(v)
        wp.launch(integrate, dim=N, inputs=[x, v, DT], outputs=[x_next, v_next])
        x, v = x_next, v_next
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(contact_energy, dim=N, inputs=[x, STIFFNESS], outputs=[energy])  # launch
tape.backward(energy)

print("contact energy", energy.numpy()[0])
print("d energy / d v0", v0.grad.numpy().tolist())
