# correct: the melt-warmed snow temperature of the second run is written to its own array snow_t2.
"""Ski wax glide: fit a wax friction law, with the frictional melt film warming the snow on the second run."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_RUN = 40
rng = np.random.default_rng(5)
SPEED = rng.uniform(5.0, 25.0, N_RUN).astype(np.float32)
SNOW_T = rng.uniform(-15.0, -1.0, N_RUN).astype(np.float32)


@wp.kernel
def wax_friction(p: wp.array(dtype=float), speed: wp.array(dtype=float), snow_t: wp.array(dtype=float),
                 mu: wp.array(dtype=float)):
    i = wp.tid()
    # dry friction rises on cold snow, a lubricating water film lowers it at speed
    dry = p[0] * wp.exp(snow_t[i] / (8.0 * p[1]))
    mu[i] = 0.02 + dry / (1.0 + 0.05 * speed[i])


@wp.kernel
def melt_warming(p: wp.array(dtype=float), speed: wp.array(dtype=float), mu: wp.array(dtype=float),
                 snow_t: wp.array(dtype=float), warmed: wp.array(dtype=float)):
    i = wp.tid()
    warmed[i] = wp.min(snow_t[i] + 40.0 * mu[i] * speed[i] * p[1] / 25.0, 0.0)


@wp.kernel
def fit_err(mu: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (mu[i] - obs[i]) * 100.0
    wp.atomic_add(loss, 0, r * r / float(N_RUN))


class GlideTest:
    def __init__(self, obs1, obs2):
        self.speed = wp.array(SPEED, dtype=float)
        self.obs1 = wp.array(obs1, dtype=float)
        self.obs2 = wp.array(obs2, dtype=float)

    def run(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.snow_t = wp.array(SNOW_T, dtype=float, requires_grad=True)
        self.snow_t2 = wp.zeros(N_RUN, dtype=float, requires_grad=True)
        self.mu1 = wp.zeros(N_RUN, dtype=float, requires_grad=True)
        self.mu2 = wp.zeros(N_RUN, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(wax_friction, dim=N_RUN, inputs=[self.p, self.speed, self.snow_t], outputs=[self.mu1])
            wp.launch(fit_err, dim=N_RUN, inputs=[self.mu1, self.obs1], outputs=[self.loss])
            wp.launch(melt_warming, dim=N_RUN, inputs=[self.p, self.speed, self.mu1, self.snow_t], outputs=[self.snow_t2])
            wp.launch(wax_friction, dim=N_RUN, inputs=[self.p, self.speed, self.snow_t2], outputs=[self.mu2])
            wp.launch(fit_err, dim=N_RUN, inputs=[self.mu2, self.obs2], outputs=[self.loss])
        tape.backward(self.loss)
        return float(self.loss.numpy()[0]), self.p.grad.numpy().astype(np.float64)


def _synth(a=0.25, b=0.9):
    mu1 = 0.02 + a * np.exp(SNOW_T / (8 * b)) / (1 + 0.05 * SPEED)
    t2 = np.minimum(SNOW_T + 40 * mu1 * SPEED * b / 25, 0.0)
    mu2 = 0.02 + a * np.exp(t2 / (8 * b)) / (1 + 0.05 * SPEED)
    return mu1.astype(np.float32), mu2.astype(np.float32)


TEST = GlideTest(*_synth())


def evaluate(p):
    return TEST.run(p)


PARAMS0 = [0.18, 1.2]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(25):
        l, g = evaluate(p)
        p -= 0.002 * g / (1.0 + np.linalg.norm(g) * 0.01)
    print("wax glide loss %.5f params %s" % (l, p))
