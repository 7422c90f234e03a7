"""District-level SIR epidemics and their final attack rates.

Eight districts differ in contact intensity (relative to a shared R0) and
initial infections; the recovery rate is known. R0 and the reporting fraction are fitted
to serological attack-rate surveys; the objective is the mean squared error
over the districts.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_DIST = 8
GAMMA = 0.2
DT = 0.5
N_STEPS = 120
CONTACT = np.linspace(0.8, 1.25, N_DIST).astype(np.float32)
SEED = np.linspace(1e-3, 3e-3, N_DIST).astype(np.float32)
SURVEY = np.array([0.33, 0.37, 0.40, 0.45, 0.48, 0.50, 0.55, 0.57], dtype=np.float32)


@wp.kernel
def sir_euler(s: wp.array(dtype=float), i: wp.array(dtype=float), contact: wp.array(dtype=float),
              prm: wp.array(dtype=float), s_out: wp.array(dtype=float), i_out: wp.array(dtype=float)):
    d = wp.tid()
    beta = prm[0] * GAMMA * contact[d]
    new = DT * beta * s[d] * i[d]
    s_out[d] = s[d] - new
    i_out[d] = i[d] + new - DT * GAMMA * i[d]


@wp.kernel
def survey_error(s: wp.array(dtype=float), prm: wp.array(dtype=float), obs: wp.array(dtype=float),
                 err: wp.array(dtype=float)):
    d = wp.tid()
    attack = prm[1] * (1.0 - s[d])
    r = 10.0 * (attack - obs[d])
    err[d] = r * r


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    contact = wp.array(CONTACT, dtype=float)
    s = wp.array(1.0 - SEED, dtype=float, requires_grad=True)
    i = wp.array(SEED, dtype=float, requires_grad=True)
    err = wp.zeros(N_DIST, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            s_new, i_new = wp.empty_like(s), wp.empty_like(i)
            wp.launch(sir_euler, dim=N_DIST, inputs=[s, i, contact, prm], outputs=[s_new, i_new])
            s, i = s_new, i_new
        wp.launch(survey_error, dim=N_DIST, inputs=[s, prm, wp.array(SURVEY, dtype=float)], outputs=[err])
    mse = float(err.numpy().mean())
    tape.backward(grads={err: wp.ones(N_DIST, dtype=float)})  # expect: seeding
    return mse, prm.grad.numpy().copy()


PARAMS0 = np.array([1.6, 0.7])

if __name__ == "__main__":
    mse, g = evaluate(PARAMS0)
    print(f"survey MSE {mse:.5f}; d/d(R0, reporting) = {g}")
