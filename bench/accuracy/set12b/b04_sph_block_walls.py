import numpy as np
import warp as wp

from _sph import Block

wp.init()

STEPS = 12
PARAMS0 = [2.0, 0.5]
FD_EPS = [1e-2, 1e-2]
BOX_LO = wp.vec3(0.0, 0.0, 0.0)
BOX_HI = wp.vec3(0.26, 0.26, 0.0)

block = Block()


@wp.kernel
def enforce_walls(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), lo: wp.vec3, hi: wp.vec3):
    i = wp.tid()
    p = x[i]
    q = wp.vec3(wp.clamp(p[0], lo[0], hi[0]), wp.clamp(p[1], lo[1], hi[1]), p[2])
    if q[0] != p[0] or q[1] != p[1]:
        v[i] = wp.vec3()
    x[i] = q


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x, v = block.initial_state()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x, v = block.step(params, x, v)
        block.loss(x, loss)

    wp.launch(enforce_walls, dim=block.n, inputs=[x, v, BOX_LO, BOX_HI])  # expect: untaped_write
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
