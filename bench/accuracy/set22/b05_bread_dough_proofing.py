"""Bread dough proofing: fit the yeast temperature optimum and tolerance width to dough rise rates."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BATCH = 60
rng = np.random.default_rng(8)
TEMP = rng.uniform(18.0, 42.0, N_BATCH).astype(np.float32)
HYDR = rng.uniform(0.6, 0.8, N_BATCH).astype(np.float32)


@wp.func
def yeast_activity(t: float, t_opt: float, width: float):
    d = t - t_opt
    if d < 0.0:
        return wp.exp(-d * d / (width * width))
    else:
        # above the optimum the yeast declines linearly towards heat death
        return 1.0 - d / (2.0 * width)


@wp.func_grad(yeast_activity)
def adj_yeast_activity(t: float, t_opt: float, width: float, adj_ret: float):
    d = t - t_opt
    if d < 0.0:
        e = wp.exp(-d * d / (width * width))
        wp.adjoint[t_opt] += adj_ret * e * 2.0 * d / (width * width)
        wp.adjoint[width] += adj_ret * e * 2.0 * d * d / (width * width * width)
    else:
        wp.adjoint[t_opt] += adj_ret / (2.0 * width)
        wp.adjoint[width] += adj_ret * d / (2.0 * width)  # expect: custom_adjoint


@wp.kernel
def rise_rate(p: wp.array(dtype=float), temp: wp.array(dtype=float), hydr: wp.array(dtype=float),
              rate: wp.array(dtype=float)):
    i = wp.tid()
    rate[i] = 2.0 * hydr[i] * yeast_activity(temp[i], p[0], p[1])


@wp.kernel
def sq_loss(rate: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = rate[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


def _act(t, t_opt=31.0, w=9.0):
    d = t - t_opt
    return np.where(d < 0, np.exp(-d * d / (w * w)), 1 - d / (2 * w))


OBS = wp.array((2 * HYDR * _act(TEMP)).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rate = wp.zeros(N_BATCH, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rise_rate, dim=N_BATCH, inputs=[params, wp.array(TEMP, dtype=float), wp.array(HYDR, dtype=float)],
                  outputs=[rate])
        wp.launch(sq_loss, dim=N_BATCH, inputs=[rate, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [28.0, 7.0]
FD_EPS = 1e-2

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(50):
        l, g = evaluate(p)
        p -= 2.0 * g
    print("proofing fit loss %.5f params %s" % (l, p))
