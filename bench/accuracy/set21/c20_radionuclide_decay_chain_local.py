# correct: parent activity and ingrowth factor are kept in locals and the activity is stored once.
"""Radionuclide decay chain (parent -> short-lived daughter, Bateman
ingrowth): decay constants fitted to gross gamma activity of sealed
sources counted at different ages."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SRC = 15
AGE = np.linspace(0.2, 12.0, N_SRC).astype(np.float32)       # days
N0 = np.linspace(0.8, 1.2, N_SRC).astype(np.float32)         # relative loading
BRANCH = 0.9


@wp.kernel
def gross_activity(p: wp.array(dtype=float), age: wp.array(dtype=float), n0: wp.array(dtype=float),
                   act: wp.array(dtype=float)):
    i = wp.tid()
    lam1 = p[0] * 0.1
    lam2 = p[1]
    t = age[i]
    parent = n0[i] * lam1 * wp.exp(-lam1 * t)
    ingrowth = BRANCH * lam2 / (lam2 - lam1) * (1.0 - wp.exp(-(lam2 - lam1) * t))
    act[i] = parent * (1.0 + ingrowth)


@wp.kernel
def counting_misfit(act: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.log(act[i] / obs[i])
    wp.atomic_add(loss, 0, r * r)


def counted():
    lam1, lam2 = 0.12, 0.9
    t = AGE.astype(np.float64)
    a = N0 * lam1 * np.exp(-lam1 * t) * (1 + BRANCH * lam2 / (lam2 - lam1) * (1 - np.exp(-(lam2 - lam1) * t)))
    return (a * (1.0 + 0.03 * np.sin(np.arange(N_SRC)))).astype(np.float32)


OBS = counted()
PARAMS0 = np.array([1.5, 0.6])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    act = wp.zeros(N_SRC, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gross_activity, dim=N_SRC, inputs=[params, wp.array(AGE, dtype=float), wp.array(N0, dtype=float)],
                  outputs=[act])
        wp.launch(counting_misfit, dim=N_SRC, inputs=[act, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.02 * g
    print(f"log-activity loss {loss:.5f}  lambda_parent={0.1 * p[0]:.4f}/d  lambda_daughter={p[1]:.3f}/d")
