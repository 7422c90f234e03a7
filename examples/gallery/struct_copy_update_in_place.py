"""A relaxation step that updates positions in place through a local struct built from the state
(``s = State(state.x, state.v)``): ``s.x[i] = s.x[i] + ...`` reads ``state.x`` and overwrites it in the same
kernel, so the backward pass replays the read against the new positions.  Write to a second state."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.struct
class State:
    x: wp.array(dtype=wp.vec3)
    v: wp.array(dtype=wp.vec3)


@wp.kernel
def relax(state: State, stiffness: wp.array(dtype=float)):
    i = wp.tid()
    s = State(state.x, state.v)
    s.x[i] = s.x[i] - stiffness[0] * wp.sin(s.x[i][2]) * wp.vec3(0.0, 0.0, 1.0)  # expect: TW104


@wp.kernel
def height_energy(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i][2] * x[i][2])


rng = np.random.default_rng(7)
state = State()
state.x = wp.array(rng.normal(size=(6, 3)), dtype=wp.vec3, requires_grad=True)
state.v = wp.zeros(6, dtype=wp.vec3, requires_grad=True)
stiffness = wp.array([0.3], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(relax, dim=6, inputs=[state, stiffness])
    wp.launch(height_energy, dim=6, inputs=[state.x, loss])
tape.backward(loss)
print("d loss / d stiffness", stiffness.grad.numpy()[0])
