"""Alpine catchments, two nonlinear reservoirs per catchment (fast soil
store, slow groundwater store): calibrate the recession coefficients and the
nonlinearity exponent to hourly streamflow at eight gauges.

    Q_fast = k_f S_f^m,  percolation = 0.1 S_f,  Q_slow = k_s S_s
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BASIN = 8
N_STEPS = 48
DT = 1.0  # h
_rng = np.random.default_rng(41)
RAIN = np.clip(_rng.gamma(0.6, 2.5, (N_STEPS, N_BASIN)) - 1.0, 0.0, None).astype(np.float32)  # mm/h
AREA_SCALE = np.linspace(0.6, 1.4, N_BASIN).astype(np.float32)
S0 = np.stack([np.full(N_BASIN, 12.0), np.full(N_BASIN, 40.0)], axis=1).astype(np.float32)


@wp.kernel
def reservoir_step(s: wp.array(dtype=wp.vec2), rain: wp.array2d(dtype=float), area: wp.array(dtype=float),
                   prm: wp.array(dtype=float), n: int, s_out: wp.array(dtype=wp.vec2), q: wp.array2d(dtype=float)):
    b = wp.tid()
    sf = s[b][0]
    ss = s[b][1]
    q_fast = prm[0] * wp.pow(sf, prm[2])
    perc = 0.1 * sf
    q_slow = prm[1] * ss
    s_out[b] = wp.vec2(sf + DT * (rain[n, b] - q_fast - perc), ss + DT * (perc - q_slow))
    q[n, b] = area[b] * (q_fast + q_slow)


@wp.kernel
def flow_misfit(q: wp.array2d(dtype=float), q_obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, b = wp.tid()
    d = wp.log(q[n, b]) - wp.log(q_obs[n, b])
    wp.atomic_add(loss, 0, d * d / float(N_STEPS * N_BASIN))


RAIN_W = wp.array(RAIN, dtype=float)
AREA_W = wp.array(AREA_SCALE, dtype=float)


def run(prm, requires_grad):
    states = [wp.zeros(N_BASIN, dtype=wp.vec2, requires_grad=requires_grad)] * (N_STEPS + 1)  # expect: overwrite
    states[0].assign(S0)
    q = wp.zeros((N_STEPS, N_BASIN), dtype=float, requires_grad=requires_grad)
    for n in range(N_STEPS):
        wp.launch(reservoir_step, dim=N_BASIN, inputs=[states[n], RAIN_W, AREA_W, prm, n],
                  outputs=[states[n + 1], q])
    return q


Q_OBS = wp.array(run(wp.array([0.05, 0.012, 1.4], dtype=float), False).numpy()
                 * np.exp(0.05 * _rng.standard_normal((N_STEPS, N_BASIN))).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        q = run(prm, True)
        wp.launch(flow_misfit, dim=(N_STEPS, N_BASIN), inputs=[q, Q_OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.04, 0.015, 1.3])
FD_EPS = np.array([1e-4, 1e-5, 1e-3])

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"log-flow misfit {f:.4f}; d/d(k_f, k_s, m) = {g}")
