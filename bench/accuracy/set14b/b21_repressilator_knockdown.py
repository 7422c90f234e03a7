"""Repressilator (three mutually repressing genes) under partial siRNA
knockdown of the third gene's translation.

Protein levels of each colony are a wp.vec3 state; Hill repression with
n = 3; (alpha, knockdown fraction) are fitted to reporter readings.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_COL = 6
DT = 0.05
N_STEPS = 120
HILL_K = 1.0


@wp.func
def repress(x: float):
    return 1.0 / (1.0 + x * x * x / (HILL_K * HILL_K * HILL_K))


@wp.kernel
def grn_step(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), x_out: wp.array(dtype=wp.vec3)):
    c = wp.tid()
    p = x[c]
    prod = prm[0] * wp.vec3(repress(p[2]), repress(p[0]), repress(p[1]))
    prod[2] = prod[2] * prm[1]  # expect: component_reassign
    x_out[c] = p + DT * (prod - p)


@wp.kernel
def reporter_misfit(x: wp.array(dtype=wp.vec3), obs: wp.array2d(dtype=float), k: int, loss: wp.array(dtype=float)):
    c = wp.tid()
    d = x[c][1] + x[c][2] - obs[k, c]
    wp.atomic_add(loss, 0, d * d)


def simulate(p, obs=None):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x0 = np.stack([np.linspace(0.2, 1.2, N_COL), np.full(N_COL, 0.5), np.linspace(1.0, 0.1, N_COL)], 1)
    x = wp.array(x0.astype(np.float32), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    readings = []
    tape = wp.Tape()
    with tape:
        for n in range(N_STEPS):
            x_new = wp.empty_like(x)
            wp.launch(grn_step, dim=N_COL, inputs=[x, prm], outputs=[x_new])
            x = x_new
            if (n + 1) % 20 == 0:
                if obs is None:
                    readings.append(x.numpy()[:, 1] + x.numpy()[:, 2])
                else:
                    wp.launch(reporter_misfit, dim=N_COL, inputs=[x, obs, (n + 1) // 20 - 1], outputs=[loss])
    return tape, prm, loss, readings


OBS = wp.array(np.array(simulate([4.0, 0.4])[3]), dtype=float)
PARAMS0 = np.array([3.5, 0.5])


def evaluate(p):
    tape, prm, loss, _ = simulate(p, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"reporter misfit {l:.4f}; d/d(alpha, knockdown) = {g}")
