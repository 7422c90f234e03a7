# correct: b17 near-miss: the extended-hours what-if edit of the hours view happens after tape.backward().
"""Public library: weekly loans per branch as a saturating function of opening hours and footfall (Branches class)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BRANCH = 18
rng = np.random.default_rng(27)
HOURS = rng.uniform(20.0, 60.0, N_BRANCH).astype(np.float32)
FOOT = rng.uniform(0.5, 2.0, N_BRANCH).astype(np.float32)
OBS = (900.0 * FOOT * HOURS / (HOURS + 25.0)).astype(np.float32)
PARAMS0 = [800.0, 30.0]  # loans at saturation, half-saturation hours


@wp.kernel
def loans(p: wp.array(dtype=float), hours: wp.array(dtype=float), foot: wp.array(dtype=float),
          obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = p[0] * foot[i] * hours[i] / (hours[i] + p[1])
    e = (pred - obs[i]) / 100.0
    wp.atomic_add(loss, 0, e * e / float(N_BRANCH))


class Branches:
    def __init__(self):
        self.hours = wp.array(HOURS, dtype=float)
        self.foot = wp.array(FOOT, dtype=float)
        self.obs = wp.array(OBS, dtype=float)

    def fit_value(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(loans, dim=N_BRANCH, inputs=[params, self.hours, self.foot, self.obs], outputs=[loss])
        value = float(loss.numpy()[0])
        tape.backward(loss)
        grad = params.grad.numpy().copy()
        self.hours.numpy()[:] += 8.0
        self.hours.assign(HOURS)
        return value, grad


def evaluate(p):
    return Branches().fit_value(p)


FD_EPS = [1e-1, 1e-2]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 2.0 * g / (1.0 + np.linalg.norm(g))
    print("library loans loss", loss, "params", p)
