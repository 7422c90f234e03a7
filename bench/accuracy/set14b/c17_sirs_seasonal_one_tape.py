# correct: one tape is created before the season loop and re-entered for every season, so the whole four-season run is differentiated.
"""SIRS model of seasonal influenza with sinusoidal transmission forcing.

Four seasons of weekly ILI incidence are simulated season by season (a
report is printed between seasons); R0 and the forcing amplitude are fitted
to the surveillance series over all four seasons.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DT = 1.0  # day
WEEKS = 52
GAMMA = 1.0 / 4.0
OMEGA = 1.0 / 365.0


@wp.kernel
def sirs_week(y: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), day0: float, y_out: wp.array(dtype=wp.vec3),
              inc: wp.array(dtype=float)):
    s = y[0][0]
    i = y[0][1]
    r = y[0][2]
    new_week = float(0.0)
    for d in range(7):
        t = day0 + float(d)
        beta = prm[0] * GAMMA * (1.0 + prm[1] * wp.cos(2.0 * wp.pi * t / 365.0))
        new = DT * beta * s * i
        s = s - new + DT * OMEGA * r
        i = i + new - DT * GAMMA * i
        r = r + DT * GAMMA * i - DT * OMEGA * r
        new_week = new_week + new
    y_out[0] = wp.vec3(s, i, r)
    inc[0] = new_week


@wp.kernel
def ili_misfit(inc: wp.array(dtype=float), obs: wp.array(dtype=float), k: int, loss: wp.array(dtype=float)):
    d = 1.0e3 * (inc[0] - obs[k])
    wp.atomic_add(loss, 0, d * d)


def simulate(p, obs, n_seasons=4, verbose=False):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    y = wp.array([wp.vec3(0.6, 1e-3, 0.399)], dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    series = []
    tape = wp.Tape()
    for season in range(n_seasons):
        with tape:
            for w in range(WEEKS):
                y_new = wp.empty_like(y)
                inc = wp.zeros(1, dtype=float, requires_grad=True)
                wp.launch(sirs_week, dim=1, inputs=[y, prm, float((season * WEEKS + w) * 7)], outputs=[y_new, inc])
                if obs is not None:
                    wp.launch(ili_misfit, dim=1, inputs=[inc, obs, season * WEEKS + w], outputs=[loss])
                series.append(inc)
                y = y_new
        if verbose:
            print(f"season {season}: peak weekly incidence {max(float(a.numpy()[0]) for a in series[-WEEKS:]):.4f}")
    return tape, prm, loss, series


OBS = wp.array(np.array([float(a.numpy()[0]) for a in simulate([1.3, 0.25], None)[3]]) * 1.04, dtype=float)
PARAMS0 = np.array([1.25, 0.22])


def evaluate(p, verbose=False):
    tape, prm, loss, _ = simulate(p, OBS, verbose=verbose)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0, verbose=True)
    print(f"misfit {l:.4f}; d/d(R0, forcing amplitude) = {g}")
