# correct: b02 near-miss: the cooled second-infusion water goes into its own array self.temp_cool.
"""Caffeine and tannin extraction while steeping tea (Steeper class), two infusions of the same leaves."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CUP = 20
rng = np.random.default_rng(12)
SECONDS = rng.uniform(60.0, 300.0, N_CUP).astype(np.float32)
WATER_C = rng.uniform(75.0, 98.0, N_CUP).astype(np.float32)


def _truth(temp, sec, left):
    return left * (1.0 - np.exp(-0.004 * (temp / 90.0) ** 2 * sec))


OBS1 = _truth(WATER_C, SECONDS, 1.0).astype(np.float32)
OBS2 = _truth(WATER_C * 0.75, SECONDS, 1.0 - OBS1 * 0.7).astype(np.float32)
PARAMS0 = [0.003, 1.6]


@wp.kernel
def extract(p: wp.array(dtype=float), temp: wp.array(dtype=float), sec: wp.array(dtype=float),
            left: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    rate = p[0] * wp.pow(temp[i] / 90.0, p[1])
    out[i] = left[i] * (1.0 - wp.exp(-rate * sec[i]))


@wp.kernel
def cooled(temp: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = temp[i] * 0.75


@wp.kernel
def sse(pred: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pred[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class Steeper:
    def __init__(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.temp = wp.array(WATER_C, dtype=float)
        self.sec = wp.array(SECONDS, dtype=float)
        self.full = wp.ones(N_CUP, dtype=float)
        self.temp_cool = wp.zeros(N_CUP, dtype=float)
        self.left2 = wp.array((1.0 - OBS1 * 0.7).astype(np.float32), dtype=float)
        self.cup1 = wp.zeros(N_CUP, dtype=float, requires_grad=True)
        self.cup2 = wp.zeros(N_CUP, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def run(self):
        tape = wp.Tape()
        with tape:
            wp.launch(extract, dim=N_CUP, inputs=[self.p, self.temp, self.sec, self.full], outputs=[self.cup1])
            wp.launch(sse, dim=N_CUP, inputs=[self.cup1, wp.array(OBS1, dtype=float)], outputs=[self.loss])
            wp.launch(cooled, dim=N_CUP, inputs=[self.temp], outputs=[self.temp_cool])
            wp.launch(extract, dim=N_CUP, inputs=[self.p, self.temp_cool, self.sec, self.left2], outputs=[self.cup2])
            wp.launch(sse, dim=N_CUP, inputs=[self.cup2, wp.array(OBS2, dtype=float)], outputs=[self.loss])
        tape.backward(self.loss)
        return float(self.loss.numpy()[0]), self.p.grad.numpy().copy()


def evaluate(p):
    return Steeper(p).run()


FD_EPS = [1e-4, 1e-2]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(15):
        loss, g = evaluate(p)
        p = p - 1e-4 * g / (1.0 + np.linalg.norm(g))
    print("tea steeping loss", loss, "params", p)
