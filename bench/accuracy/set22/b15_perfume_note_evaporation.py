"""Perfume evaporation: fit volatility and fixative strength of top, heart and base notes to headspace measurements on a blotter."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_NOTE, N_TIME = 9, 8
rng = np.random.default_rng(61)
VAPOUR = np.repeat([3.0, 1.0, 0.25], 3).astype(np.float32) * rng.uniform(0.8, 1.2, N_NOTE).astype(np.float32)
TIMES = np.array([0.1, 0.25, 0.5, 1, 2, 4, 6, 8], np.float32)  # hours


@wp.kernel
def evaporate(p: wp.array(dtype=float), vapour: wp.array(dtype=float), times: wp.array(dtype=float),
              frac: wp.array2d(dtype=float)):
    n, t = wp.tid()
    rate = p[0] * vapour[n] / (1.0 + p[1] * (1.0 - vapour[n] / 3.5))
    frac[n, t] = wp.exp(-rate * times[t])


@wp.kernel
def headspace_err(frac: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, t = wp.tid()
    r = frac[n, t] - obs[n, t]
    wp.atomic_add(loss, 0, r * r)


def _obs(k=0.9, fix=1.5):
    rate = k * VAPOUR / (1 + fix * (1 - VAPOUR / 3.5))
    return np.exp(-rate[:, None] * TIMES[None, :]).astype(np.float32)


OBS = wp.array(_obs(), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    frac = wp.zeros((N_NOTE, N_TIME), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    cmd = wp.launch(evaporate, dim=(N_NOTE, N_TIME), inputs=[params, wp.array(VAPOUR, dtype=float),
                                                           wp.array(TIMES, dtype=float)], outputs=[frac], record_cmd=True)
    tape = wp.Tape()
    with tape:
        cmd.launch()  # expect: record_cmd
        wp.launch(headspace_err, dim=(N_NOTE, N_TIME), inputs=[frac, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.7, 1.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.1 * g
    print("evaporation loss %.5f params %s" % (l, p))
