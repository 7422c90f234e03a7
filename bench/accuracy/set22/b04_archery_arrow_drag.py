"""Archery: fit the drag coefficient and shaft mass of arrows from radar-measured deceleration."""
import numpy as np
import warp as wp

from _fletching import arrow_drag

wp.config.quiet = True

N_SHOT = 50
rng = np.random.default_rng(21)
SPEED = rng.uniform(30.0, 95.0, N_SHOT).astype(np.float32)
POINT = rng.uniform(0.5, 1.5, N_SHOT).astype(np.float32)  # point weight factor


@wp.kernel
def deceleration(p: wp.array(dtype=float), speed: wp.array(dtype=float), point: wp.array(dtype=float),
                 obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    cd = p[0] * 1.0e-4
    mass = p[1] * (1.0 + 0.2 * point[i])
    a = arrow_drag(speed[i], cd) / mass
    r = a - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_SHOT))


def _drag(v, cd):
    return np.where(v < 60.0, cd * v * v, cd * (120.0 * v - 3600.0))


OBS = wp.array((_drag(SPEED, 2.2e-4) / (0.9 * (1 + 0.2 * POINT))).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(deceleration, dim=N_SHOT, inputs=[params, wp.array(SPEED, dtype=float),
                                                   wp.array(POINT, dtype=float), OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [1.6, 1.1]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print("arrow drag loss %.5f params %s" % (l, p))
