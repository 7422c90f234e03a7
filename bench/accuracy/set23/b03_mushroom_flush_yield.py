"""Oyster-mushroom flush yield over a 2-D grid of grow rooms x days, two flushes with different humidity."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_ROOM, N_DAY = 6, 8
rng = np.random.default_rng(13)
HUMID1 = rng.uniform(0.78, 0.95, (N_ROOM, N_DAY)).astype(np.float32)
HUMID2 = rng.uniform(0.60, 0.80, (N_ROOM, N_DAY)).astype(np.float32)
DAYS = np.tile(np.arange(1, N_DAY + 1, dtype=np.float32), (N_ROOM, 1))
OBS1 = (2.0 * HUMID1 ** 3.0 * (1.0 - np.exp(-0.3 * DAYS))).astype(np.float32)
OBS2 = (2.0 * HUMID2 ** 3.0 * (1.0 - np.exp(-0.3 * DAYS)) * 0.8).astype(np.float32)
PARAMS0 = [1.8, 2.5, 0.25]  # capacity kg, humidity exponent, growth rate


@wp.kernel
def flush(p: wp.array(dtype=float), humid: wp.array2d(dtype=float), day: wp.array2d(dtype=float),
          fade: float, out: wp.array2d(dtype=float)):
    r, d = wp.tid()
    out[r, d] = fade * p[0] * wp.pow(humid[r, d], p[1]) * (1.0 - wp.exp(-p[2] * day[r, d]))


@wp.kernel
def misfit(pred: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    r, d = wp.tid()
    e = pred[r, d] - obs[r, d]
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    humid = wp.array(HUMID1, dtype=float)
    day = wp.array(DAYS, dtype=float)
    y1 = wp.zeros((N_ROOM, N_DAY), dtype=float, requires_grad=True)
    y2 = wp.zeros((N_ROOM, N_DAY), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(flush, dim=(N_ROOM, N_DAY), inputs=[params, humid, day, 1.0], outputs=[y1])
        wp.launch(misfit, dim=(N_ROOM, N_DAY), inputs=[y1, wp.array(OBS1, dtype=float)], outputs=[loss])
        humid.assign(HUMID2)  # expect: overwrite
        wp.launch(flush, dim=(N_ROOM, N_DAY), inputs=[params, humid, day, 0.8], outputs=[y2])
        wp.launch(misfit, dim=(N_ROOM, N_DAY), inputs=[y2, wp.array(OBS2, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("mushroom flush loss", loss, "params", p)
