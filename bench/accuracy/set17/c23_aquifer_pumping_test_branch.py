# correct: the Cooper-Jacob log(1 / r^2) term is evaluated only inside an if branch for observation wells (r > 0)
"""Confined-aquifer pumping test: fit transmissivity, storativity and the well
loss coefficient (Cooper-Jacob drawdown) to drawdowns logged in the pumped
well and three observation wells (vec3 well coordinates)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

Q = 0.012          # m3/s
RW = 0.15          # m, well radius
FOUR_PI = 12.566370614359172
WELLS = np.array([[0.0, 0.0, -30.0], [25.0, 0.0, -30.0], [0.0, 60.0, -32.0], [-90.0, -40.0, -31.0]], dtype=np.float32)
TIMES = np.geomspace(600.0, 86400.0, 16).astype(np.float32)


@wp.kernel
def drawdown(p: wp.array(dtype=float), wells: wp.array(dtype=wp.vec3), times: wp.array(dtype=float),
             s: wp.array2d(dtype=float)):
    w, k = wp.tid()
    d = wells[w] - wells[0]
    r = wp.length(wp.vec3(d[0], d[1], 0.0))
    tr = p[0] * 1.0e-3
    st = p[1] * 1.0e-4
    t = times[k]
    s_val = 0.012 / (12.566370614359172 * tr) * wp.log(2.25 * tr * t / (0.15 * 0.15 * st)) + p[2] * 0.012 * 0.012
    if r > 0.0:
        s_val = 0.012 / (12.566370614359172 * tr) * wp.log(2.25 * tr * t / (r * r * st))
    s[w, k] = s_val


WELLS_W, TIMES_W = wp.array(WELLS, dtype=wp.vec3), wp.array(TIMES, dtype=float)


def run(p_np, requires_grad):
    p_w = wp.array(np.asarray(p_np, dtype=np.float32), dtype=float, requires_grad=requires_grad)
    s = wp.zeros((len(WELLS), len(TIMES)), dtype=float, requires_grad=requires_grad)
    return p_w, s


_p, _s = run([2.4, 3.0, 4000.0], False)
wp.launch(drawdown, dim=_s.shape, inputs=[_p, WELLS_W, TIMES_W], outputs=[_s])
OBS = _s.numpy().astype(np.float64) + 0.01 * np.sin(np.arange(_s.size)).reshape(_s.shape)
PARAMS0 = np.array([2.0, 2.5, 3500.0])
FD_EPS = np.array([1e-3, 1e-3, 1.0])


def evaluate(p):
    p_w, s = run(p, True)
    tape = wp.Tape()
    with tape:
        wp.launch(drawdown, dim=s.shape, inputs=[p_w, WELLS_W, TIMES_W], outputs=[s])
    r = s.numpy().astype(np.float64) - OBS
    tape.backward(grads={s: wp.array((2.0 * r).astype(np.float32), dtype=float)})
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"drawdown misfit {L:.5f} m^2; grad [T (1e-3 m2/s), S (1e-4), C] = {g}")
