"""Fit Lotka-Volterra predator-prey rates to end-of-season counts observed in
several independent enclosures.  Each thread integrates one enclosure over
the season with explicit Euler steps.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_STEPS = 12  # Euler steps per season
DT = 0.25
ENCLOSURES = 8


@wp.kernel
def season(x0: wp.array(dtype=wp.vec2), rates: wp.array(dtype=wp.vec4), n_steps: int, x_end: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    a = rates[0][0]
    b = rates[0][1]
    d = rates[0][2]
    g = rates[0][3]
    prey = x0[i][0]
    pred = x0[i][1]
    for s in range(n_steps):  # expect: dynamic_loop
        dprey = a * prey - b * prey * pred
        dpred = d * prey * pred - g * pred
        prey = prey + DT * dprey
        pred = pred + DT * dpred
    x_end[i] = wp.vec2(prey, pred)


@wp.kernel
def count_misfit(x_end: wp.array(dtype=wp.vec2), counts: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = x_end[i] - counts[i]
    wp.atomic_add(loss, 0, wp.dot(e, e) / float(ENCLOSURES))


rng = np.random.default_rng(8)
X0 = wp.array(rng.uniform(0.5, 2.0, (ENCLOSURES, 2)).astype(np.float32), dtype=wp.vec2)
TRUE_RATES = np.array([1.1, 0.6, 0.4, 0.9])


def run_season(rates):
    x_end = wp.zeros(ENCLOSURES, dtype=wp.vec2, requires_grad=True)
    wp.launch(season, dim=ENCLOSURES, inputs=[X0, rates, N_STEPS], outputs=[x_end])
    return x_end


COUNTS = run_season(wp.array([wp.vec4(*TRUE_RATES)], dtype=wp.vec4))
PARAMS0 = np.array([0.9, 0.5, 0.5, 1.0])


def evaluate(p):
    rates = wp.array([wp.vec4(*np.asarray(p, np.float32))], dtype=wp.vec4, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x_end = run_season(rates)
        wp.launch(count_misfit, dim=ENCLOSURES, inputs=[x_end, COUNTS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), rates.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(150):
        loss, g = evaluate(p)
        p -= 0.003 * g
        if it % 50 == 0:
            print(f"iter {it:3d} loss {loss:.6f} rates {np.round(p, 3)}")
