"""Vineyard frost protection: fit the warming of wind machines to canopy readings on two frost nights."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_VINE = 48
rng = np.random.default_rng(11)
FAN_DIST = rng.uniform(10.0, 120.0, N_VINE).astype(np.float32)
T_NIGHT1 = rng.uniform(-4.0, 1.0, N_VINE).astype(np.float32)
T_NIGHT2 = rng.uniform(-6.0, -1.0, N_VINE).astype(np.float32)


@wp.kernel
def canopy_temp(p: wp.array(dtype=float), dist: wp.array(dtype=float), t_air: wp.array(dtype=float),
                out: wp.array(dtype=float)):
    i = wp.tid()
    # inversion strength grows as the air gets colder; fan mixing decays with distance
    inversion = p[0] * wp.log(1.0 + wp.exp(-t_air[i]))
    mixing = wp.exp(-dist[i] / (60.0 * p[1]))
    out[i] = t_air[i] + inversion * mixing


@wp.kernel
def sq_err(pred: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = pred[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_VINE))


def _truth(t, a=2.5, b=1.3):
    return t + a * np.log1p(np.exp(-t)) * np.exp(-FAN_DIST / (60.0 * b))


OBS1 = wp.array(_truth(T_NIGHT1).astype(np.float32), dtype=float)
OBS2 = wp.array(_truth(T_NIGHT2).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    dist = wp.array(FAN_DIST, dtype=float)
    t_air = wp.array(T_NIGHT1, dtype=float)
    t_night = wp.array(T_NIGHT2, dtype=float)
    c1 = wp.zeros(N_VINE, dtype=float, requires_grad=True)
    c2 = wp.zeros(N_VINE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(canopy_temp, dim=N_VINE, inputs=[params, dist, t_air], outputs=[c1])
        wp.launch(sq_err, dim=N_VINE, inputs=[c1, OBS1], outputs=[loss])
        wp.copy(t_air, t_night)  # expect: overwrite
        wp.launch(canopy_temp, dim=N_VINE, inputs=[params, dist, t_air], outputs=[c2])
        wp.launch(sq_err, dim=N_VINE, inputs=[c2, OBS2], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [1.6, 0.8]
FD_EPS = 1e-2

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.3 * g
    print("frost fan fit loss %.5f params %s" % (l, p))
