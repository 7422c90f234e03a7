"""Ballistic steps whose kernel writes the output state through a local struct built from it
(``out = State(state_out.x, state_out.v)``, as Warp's own struct tests do), each step on its own tape: the
second tape computes ``state_out.x`` itself, so its backward continues from nothing the first tape made."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.struct
class State:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)


@wp.kernel
def step_through_copy(state_in: State, state_out: State, dt: float):
    i = wp.tid()
    out = State(state_out.x, state_out.v)
    out.v[i] = state_in.v[i] + wp.vec3(0.0, 0.0, -9.81) * dt
    out.x[i] = state_in.x[i] + out.v[i] * dt


@wp.kernel
def step(state_in: State, state_out: State, dt: float):
    i = wp.tid()
    state_out.v[i] = state_in.v[i] + wp.vec3(0.0, 0.0, -9.81) * dt
    state_out.x[i] = state_in.x[i] + state_out.v[i] * dt


@wp.kernel
def height_energy(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i][2] * x[i][2])


rng = np.random.default_rng(5)
start, end = State(), State()
start.x = wp.array(rng.normal(size=(6, 3)), dtype=wp.vec3, requires_grad=True)
start.v = wp.array(rng.normal(size=(6, 3)), dtype=wp.vec3, requires_grad=True)
end.x = wp.empty_like(start.x, requires_grad=True)
end.v = wp.empty_like(start.v, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
for kernel in (step, step_through_copy):
    tape = wp.Tape()
    with tape:
        wp.launch(kernel, dim=6, inputs=[start, end, 0.01])
        wp.launch(height_energy, dim=6, inputs=[end.x, loss])
    tape.backward(loss)
    print(kernel.key, "d loss / d x0", start.x.grad.numpy()[0])
    tape.zero()
    loss.zero_()
