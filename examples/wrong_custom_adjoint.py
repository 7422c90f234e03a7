"""A hand-written adjoint (`@wp.func_grad`) with wrong math.

Actuator forces are squashed by a smooth saturation
``soft_clamp(u) = limit * u / sqrt(limit^2 + u^2)``.  Its custom adjoint
forgets the chain rule through the square root: the derivative is
``limit^3 / (limit^2 + u^2)^(3/2)``, not ``limit / sqrt(limit^2 + u^2)``.
The forward pass and the loss are right; every gradient with respect to the
controls is off, more so the larger the control.  Nothing crashes and
nothing is NaN: only a per-launch check against finite differences
(``tapewatch check --check-launches``) finds the launch, and then checks
the custom adjoint on its own against finite differences of ``soft_clamp``:
the finding sits on the ``wp.adjoint[u]`` line.

Fix: ``wp.adjoint[u] += adj_ret * limit * limit * limit / (s * wp.sqrt(s))``.
"""

import numpy as np
import warp as wp

N = 6
STEPS = 4
DT = 0.1
LIMIT = 2.0


@wp.func
def soft_clamp(u: float, limit: float):
    return limit * u / wp.sqrt(limit * limit + u * u)


@wp.func_grad(soft_clamp)
def adj_soft_clamp(u: float, limit: float, adj_ret: float):
    s = limit * limit + u * u
    wp.adjoint[u] += adj_ret * limit / wp.sqrt(s)  # wrong: misses the (limit^2 / s) factor  # expect: TW404


@wp.kernel
def actuate(u: wp.array(dtype=float), limit: float, force: wp.array(dtype=float)):
    i = wp.tid()
    force[i] = soft_clamp(u[i], limit)


@wp.kernel
def step(x: wp.array(dtype=float), v: wp.array(dtype=float), f: wp.array(dtype=float), dt: float,
         x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    vel = v[i] + f[i] * dt
    v_out[i] = vel
    x_out[i] = x[i] + vel * dt


@wp.kernel
def tracking_loss(x: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target
    wp.atomic_add(loss, 0, d * d)


controls = wp.array(np.linspace(-3.0, 3.0, N, dtype=np.float32), requires_grad=True)
x0 = wp.zeros(N, dtype=float, requires_grad=True)
v0 = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    force = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(actuate, dim=N, inputs=[controls, LIMIT], outputs=[force])  # launch
    x, v = x0, v0
    for _ in range(STEPS):
        x_next = wp.zeros(N, dtype=float, requires_grad=True)
        v_next = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(step, dim=N, inputs=[x, v, force, DT], outputs=[x_next, v_next])
        x, v = x_next, v_next
    wp.launch(tracking_loss, dim=N, inputs=[x, 1.0], outputs=[loss])
tape.backward(loss)

print("loss", loss.numpy()[0])
print("d loss / d controls", controls.grad.numpy().tolist())
