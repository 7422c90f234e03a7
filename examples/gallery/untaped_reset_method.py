"""An episode loop that resets the environment before differentiating.

`env.metrics()` and `env.reset()` write `env.v` after the tape recorded
`drag` reading it and before `tape.backward()`. No tape records then, so
Warp's tracker cannot see them; drag's adjoint replays against the reset
velocities.
"""

import warp as wp

from _helpers_env import Env


@wp.kernel
def cost(v: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, v[i] * v[i])


env = Env(4)
c = wp.array([0.1], dtype=float, requires_grad=True)
for episode in range(2):
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        env.step(c)
        wp.launch(cost, dim=4, inputs=[env.v_next], outputs=[out])
    env.metrics()  # expect: TW106
    env.reset()  # expect: TW106
    tape.backward(out)
    print("d cost / d c", c.grad.numpy())
    tape.zero()
