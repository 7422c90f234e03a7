"""Enzyme kinetics: fit Vmax and Km of the Michaelis-Menten law
dS/dt = -Vmax S / (Km + S) to the substrate left after a fixed time in 20
assays with different initial concentrations. Each thread integrates one
assay with explicit Euler."""
import numpy as np
import warp as wp

wp.config.quiet = True

ASSAYS = 20
N_STEPS = 12
T_END = 3.0
S0 = np.linspace(0.5, 8.0, ASSAYS).astype(np.float32)
PARAMS0 = [1.5, 1.0]
TRUE_PARAMS = [2.0, 1.6]


@wp.kernel
def assay(s0: wp.array(dtype=float), prm: wp.array(dtype=float), n_steps: int, dt: float,
          s_end: wp.array(dtype=float)):
    i = wp.tid()
    s = s0[i]
    for k in range(n_steps):  # expect: dynamic_loop
        s = s - dt * prm[0] * s / (prm[1] + s)
    s_end[i] = s


@wp.kernel
def rel_misfit(s_end: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (s_end[i] - obs[i]) / (obs[i] + 0.1)
    wp.atomic_add(loss, 0, d * d)


def remaining(prm, requires_grad=False):
    out = wp.zeros(ASSAYS, dtype=float, requires_grad=requires_grad)
    wp.launch(assay, dim=ASSAYS, inputs=[wp.array(S0, dtype=float), prm, N_STEPS, T_END / N_STEPS], outputs=[out])
    return out


OBS = remaining(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        s_end = remaining(prm, True)
        wp.launch(rel_misfit, dim=ASSAYS, inputs=[s_end, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.02 * g
        if it % 10 == 0:
            print(f"iter {it} loss {l:.4f} Vmax {p[0]:.3f} Km {p[1]:.3f}")
