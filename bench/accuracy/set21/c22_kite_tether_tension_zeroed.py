# correct: the parameter gradient is cleared with params.grad.zero_() before every backward pass, so Adam sees this iteration's gradient only.
"""Traction kite: tether tension and line elevation from the lift/drag
polar (quasi-steady zenith-to-power-zone sweep); lift and drag coefficients
fitted with warp.optim.Adam to load-cell and inclinometer logs."""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N_SAMPLE = 18
rng = np.random.default_rng(23)
WIND = (6.0 + 4.0 * rng.random(N_SAMPLE)).astype(np.float32)         # m/s
PHI = np.linspace(0.0, 1.2, N_SAMPLE).astype(np.float32)              # azimuth from wind window centre
AREA = 9.0


@wp.kernel
def tether(p: wp.array(dtype=float), wind: wp.array(dtype=float), phi: wp.array(dtype=float),
           tension: wp.array(dtype=float), elev: wp.array(dtype=float)):
    i = wp.tid()
    cl = p[0]
    cd = p[1] * 0.2
    ge = cl / cd                                  # glide ratio
    va = wind[i] * wp.cos(phi[i]) * wp.sqrt(1.0 + ge * ge)
    tension[i] = 0.5 * 1.225 * AREA * va * va * wp.sqrt(cl * cl + cd * cd) / 1000.0  # kN
    elev[i] = wp.atan(cd / cl)


@wp.kernel
def log_misfit(tension: wp.array(dtype=float), elev: wp.array(dtype=float), t_obs: wp.array(dtype=float),
               e_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.log(tension[i] / t_obs[i])
    b = (elev[i] - e_obs[i]) * 5.0
    wp.atomic_add(loss, 0, (a * a + b * b) / float(N_SAMPLE))


def record(params, t_obs, e_obs):
    tension = wp.zeros(N_SAMPLE, dtype=float, requires_grad=True)
    elev = wp.zeros(N_SAMPLE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(tether, dim=N_SAMPLE, inputs=[params, wp.array(WIND, dtype=float), wp.array(PHI, dtype=float)],
              outputs=[tension, elev])
    wp.launch(log_misfit, dim=N_SAMPLE, inputs=[tension, elev, t_obs, e_obs], outputs=[loss])
    return loss, tension, elev



def _logs():
    p = wp.array([0.9, 0.75], dtype=float)
    t = wp.zeros(N_SAMPLE, dtype=float)
    e = wp.zeros(N_SAMPLE, dtype=float)
    wp.launch(tether, dim=N_SAMPLE, inputs=[p, wp.array(WIND, dtype=float), wp.array(PHI, dtype=float)], outputs=[t, e])
    return wp.array(t.numpy() * 1.04, dtype=float), wp.array(e.numpy() + 0.02, dtype=float)


T_OBS, E_OBS = _logs()
PARAMS0 = np.array([1.1, 0.6])


def fit(n_iter, lr=0.02, log=None):
    params = wp.array(PARAMS0.astype(np.float32), dtype=float, requires_grad=True)
    opt = Adam([params], lr=lr)
    for it in range(n_iter):
        params.grad.zero_()
        tape = wp.Tape()
        with tape:
            loss, _, _ = record(params, T_OBS, E_OBS)
        tape.backward(loss)
        if log is not None:
            log.append((params.numpy().astype(np.float64), params.grad.numpy().astype(np.float64)))
        opt.step([params.grad])
    return params, float(loss.numpy()[0])


def objective(p):
    loss, _, _ = record(wp.array(np.asarray(p, np.float32), dtype=float), T_OBS, E_OBS)
    return float(loss.numpy()[0])


def verify(eps=1e-3):
    log = []
    fit(3, log=log)
    p, g = log[-1]
    fd = np.array([(objective(p + eps * e) - objective(p - eps * e)) / (2 * eps) for e in np.eye(2)])
    return g, fd


if __name__ == "__main__":
    params, loss = fit(60)
    print(f"kite loss {loss:.5f}  CL, CD/0.2 = {params.numpy()}")
