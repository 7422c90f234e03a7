"""One-compartment pharmacokinetics with first-order absorption: estimate the
absorption rate ka and the elimination rate ke of a drug from plasma samples
of ten patients with different doses (exponential integrator)."""
import numpy as np
import warp as wp

wp.config.quiet = True

PATIENTS = 10
STEPS = 24
DT = 0.5
PARAMS0 = [0.9, 0.25]
TRUE_PARAMS = [1.2, 0.18]
DOSES = np.linspace(50.0, 140.0, PATIENTS).astype(np.float32)


@wp.kernel
def pk_step(gut: wp.array(dtype=float), plasma: wp.array(dtype=float), rates: wp.array(dtype=float),
            gut_out: wp.array(dtype=float), plasma_out: wp.array(dtype=float)):
    i = wp.tid()
    keep = wp.exp(-rates[0] * DT)
    absorbed = gut[i] * (1.0 - keep)
    gut_out[i] = gut[i] * keep
    plasma_out[i] = plasma[i] + absorbed
    plasma_out[i] *= wp.exp(-rates[1] * DT)  # expect: inplace_op


@wp.kernel
def sample_misfit(plasma: wp.array(dtype=float), obs: wp.array(dtype=float), w: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = plasma[i] - obs[i]
    wp.atomic_add(loss, 0, w * d * d)


def run(rates, requires_grad, obs=None, loss=None):
    gut = wp.array(DOSES, dtype=float, requires_grad=requires_grad)
    plasma = wp.zeros(PATIENTS, dtype=float, requires_grad=requires_grad)
    samples = []
    for t in range(STEPS):
        g2 = wp.zeros_like(gut)
        p2 = wp.zeros_like(plasma)
        wp.launch(pk_step, dim=PATIENTS, inputs=[gut, plasma, rates], outputs=[g2, p2])
        gut, plasma = g2, p2
        if t % 4 == 3:
            samples.append(plasma)
            if loss is not None:
                wp.launch(sample_misfit, dim=PATIENTS, inputs=[plasma, obs[len(samples) - 1], 1.0e-3],
                          outputs=[loss])
    return samples


OBS = [s.numpy().copy() for s in run(wp.array(TRUE_PARAMS, dtype=float), False)]


def evaluate(p):
    rates = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = [wp.array(o, dtype=float) for o in OBS]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        run(rates, True, obs, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), rates.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(6):
        l, g = evaluate(p)
        p -= 1.0e-4 * g
        print(f"iter {it} misfit {l:.3f} ka {p[0]:.4f} ke {p[1]:.4f}")
