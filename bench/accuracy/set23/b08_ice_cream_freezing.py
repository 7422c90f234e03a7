"""Ice-cream batch freezer: ice fraction vs draw temperature for several mixes (Freezer class); log-ratio loss on the host."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_MIX = 18
rng = np.random.default_rng(18)
SUGAR = rng.uniform(0.12, 0.22, N_MIX).astype(np.float32)
DRAW_T = rng.uniform(-7.0, -4.0, N_MIX).astype(np.float32)
OBS = (0.75 * (1.0 - (2.0 + 9.0 * SUGAR) / -DRAW_T * 0.5)).astype(np.float64)
PARAMS0 = [0.7, 1.8, 8.0]  # max ice fraction, base depression, sugar depression


@wp.kernel
def ice_fraction(p: wp.array(dtype=float), sugar: wp.array(dtype=float), draw: wp.array(dtype=float),
                 out: wp.array(dtype=float)):
    i = wp.tid()
    fp = p[1] + p[2] * sugar[i]
    out[i] = p[0] * (1.0 - 0.5 * fp / (-draw[i]))


class Freezer:
    def __init__(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.ice = wp.zeros(N_MIX, dtype=float, requires_grad=True)

    def fit_step(self):
        tape = wp.Tape()
        with tape:
            wp.launch(ice_fraction, dim=N_MIX, inputs=[self.p, wp.array(SUGAR, dtype=float), wp.array(DRAW_T, dtype=float)],
                      outputs=[self.ice])
        pred = self.ice.numpy().astype(np.float64)
        lr = np.log(pred / OBS)
        loss = float(np.sum(lr ** 2))
        self.ice.grad.assign((2.0 * lr).astype(np.float32))  # expect: seeding
        tape.backward()
        return loss, self.p.grad.numpy().copy()


def evaluate(p):
    return Freezer(p).fit_step()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("ice fraction loss", loss, "params", p)
