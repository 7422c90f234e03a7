"""Measles outbreak: fit transmission and recovery rates of a discrete SIR model to weekly case counts (relative error)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_WEEK = 12
N_TOWN = 16
rng = np.random.default_rng(9)
POP = rng.uniform(5e3, 5e4, N_TOWN).astype(np.float32)


@wp.kernel
def sir_step(p: wp.array(dtype=float), s: wp.array(dtype=float), i_: wp.array(dtype=float),
             s_out: wp.array(dtype=float), i_out: wp.array(dtype=float)):
    k = wp.tid()
    new_inf = p[0] * s[k] * i_[k]
    s_out[k] = s[k] - new_inf
    i_out[k] = i_[k] + new_inf - p[1] * i_[k]


class Outbreak:
    def __init__(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.s = [wp.array(np.full(N_TOWN, 0.95, np.float32), dtype=float, requires_grad=True)]
        self.i = [wp.array((20.0 / POP).astype(np.float32), dtype=float, requires_grad=True)]
        for w in range(N_WEEK):
            self.s.append(wp.zeros(N_TOWN, dtype=float, requires_grad=True))
            self.i.append(wp.zeros(N_TOWN, dtype=float, requires_grad=True))

    def simulate(self):
        for w in range(N_WEEK):
            wp.launch(sir_step, dim=N_TOWN, inputs=[self.p, self.s[w], self.i[w]], outputs=[self.s[w + 1], self.i[w + 1]])
        return self.i[-1]


def _cases(beta=1.9, gamma=0.7):
    s = np.full(N_TOWN, 0.95)
    i = 20.0 / POP
    for w in range(N_WEEK):
        n = beta * s * i
        s, i = s - n, i + n - gamma * i
    return i


OBS = _cases()


def evaluate(p):
    model = Outbreak(p)
    tape = wp.Tape()
    with tape:
        prev = model.simulate()
    rel = (prev.numpy().astype(np.float64) - OBS) / OBS
    loss = float(np.sum(rel ** 2))
    prev.grad.assign((2.0 * rel).astype(np.float32))  # expect: seeding
    tape.backward()
    return loss, model.p.grad.numpy().astype(np.float64)


PARAMS0 = [1.8, 0.72]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 1e-4 * g
    print("SIR relative-error loss %.4f params %s" % (l, p))
