"""Quarter-car damper identification from dyno runs; the damper law with its hand adjoint lives in _shock_absorber.py."""
import numpy as np
import warp as wp

from _shock_absorber import damper_force

wp.config.quiet = True

N_RUN = 32
rng = np.random.default_rng(14)
SPEED = rng.uniform(0.02, 0.9, N_RUN).astype(np.float32)   # piston speed m/s
PRELOAD = rng.uniform(0.0, 0.2, N_RUN).astype(np.float32)  # kN
_c = 2.4
OBS = (np.where(SPEED < 0.3, _c * SPEED, _c * 0.3 + 0.35 * _c * (SPEED - 0.3)) + 1.5 * PRELOAD).astype(np.float32)
PARAMS0 = [2.0, 1.2]  # damping kN s/m, preload gain


@wp.kernel
def dyno(p: wp.array(dtype=float), speed: wp.array(dtype=float), preload: wp.array(dtype=float),
         obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    f = damper_force(speed[i], p[0]) + p[1] * preload[i]
    e = f - obs[i]
    wp.atomic_add(loss, 0, e * e / float(N_RUN))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dyno, dim=N_RUN, inputs=[params, wp.array(SPEED, dtype=float), wp.array(PRELOAD, dtype=float),
                                           wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(30):
        loss, g = evaluate(p)
        p = p - 0.2 * g
    print("damper loss", loss, "params", p)
