# correct: look-alike of b01 (Theis well-function @wp.func_grad), with the asymptotic branch log-derivative taken with the right signs.
"""Theis pumping-test analysis of a confined sandstone aquifer.

Log-drawdown at three observation wells (type-curve matching) is fitted with the Theis solution
s = Q / (4 pi T) W(u), u = r^2 S / (4 T t). The well function uses the
series expansion for small u and a rational asymptotic form for large u; its
derivative is supplied by hand through @wp.func_grad (log-derivative form).
Parameters: log transmissivity, log storativity.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

Q_PUMP = 0.012  # m^3/s
EULER = 0.5772157


@wp.func
def well_function(u: float):
    if u < 1.0:
        return -EULER - wp.log(u) + u - 0.25 * u * u + u * u * u / 18.0
    return wp.exp(-u) / u * (u + 0.6) / (u + 1.6)


@wp.func_grad(well_function)
def adj_well_function(u: float, adj_ret: float):
    if u < 1.0:
        wp.adjoint[u] += adj_ret * (-1.0 / u + 1.0 - 0.5 * u + u * u / 6.0)
    else:
        w = wp.exp(-u) / u * (u + 0.6) / (u + 1.6)
        wp.adjoint[u] += adj_ret * w * (-1.0 - 1.0 / u + 1.0 / (u + 0.6) - 1.0 / (u + 1.6))


@wp.kernel
def theis_misfit(params: wp.array(dtype=float), r: wp.array(dtype=float), t: wp.array(dtype=float),
                 s_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    T = wp.exp(params[0])
    S = wp.exp(params[1])
    u = r[i] * r[i] * S / (4.0 * T * t[i])
    s = Q_PUMP / (4.0 * wp.pi * T) * well_function(u)
    d = wp.log(s) - wp.log(s_obs[i])
    wp.atomic_add(loss, 0, d * d / float(r.shape[0]))


rng = np.random.default_rng(7)
R_WELL = np.repeat([12.0, 35.0, 80.0], 6)
T_SEC = np.tile([20.0, 40.0, 90.0, 300.0, 1800.0, 36000.0], 3)
_u = R_WELL**2 * 2.0e-4 / (4.0 * 1.5e-3 * T_SEC)
_w = np.where(_u < 1.0, -EULER - np.log(_u) + _u - _u**2 / 4 + _u**3 / 18,
              np.exp(-_u) / _u * (_u + 0.6) / (_u + 1.6))
S_OBS = Q_PUMP / (4 * np.pi * 1.5e-3) * _w * np.exp(rng.normal(0.0, 0.03, _u.size))

PARAMS0 = [np.log(1.0e-3), np.log(3.0e-4)]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    r = wp.array(R_WELL, dtype=float)
    t = wp.array(T_SEC, dtype=float)
    s_obs = wp.array(S_OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(theis_misfit, dim=len(R_WELL), inputs=[params, r, t, s_obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.02 * g / (np.linalg.norm(g) + 1e-12)
    print(f"loss {l:.5f}  T = {np.exp(p[0]):.3e} m^2/s  S = {np.exp(p[1]):.3e}")
