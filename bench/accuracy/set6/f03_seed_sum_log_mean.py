# correct: Correct look-alike of b12: the objective is the SUM (ones seed, step size scaled by 1/N); the mean is only logged.
"""Correct look-alike of b12: the objective is the SUM (ones seed, step size scaled by 1/N); the mean is only logged."""
import numpy as np
import warp as wp

SENSORS = 4
READINGS = 256


@wp.kernel
def sq_residual(raw: wp.array(dtype=float), sensor: wp.array(dtype=int), gains: wp.array(dtype=float),
                truth: wp.array(dtype=float), r2: wp.array(dtype=float)):
    i = wp.tid()
    g = gains[sensor[i]]
    r = g * raw[i] + 0.1 * g * g - truth[i]
    r2[i] = r * r


class Calibrator:
    def __init__(self, raw, sensor, truth, lr=0.1 / READINGS):
        self.raw, self.sensor, self.truth, self.lr = raw, sensor, truth, lr
        self.gains = wp.ones(SENSORS, dtype=float, requires_grad=True)
        self.r2 = wp.zeros(READINGS, dtype=float, requires_grad=True)
        self.seed = wp.ones(READINGS, dtype=float)

    def step(self):
        tape = wp.Tape()
        with tape:
            wp.launch(sq_residual, dim=READINGS, inputs=[self.raw, self.sensor, self.gains, self.truth],
                      outputs=[self.r2])
        tape.backward(grads={self.r2: self.seed})
        sse = float(np.sum(self.r2.numpy()))
        rms = float(np.sqrt(np.mean(self.r2.numpy())))  # logged only
        g = self.gains.grad.numpy().copy()
        self.gains.assign(self.gains.numpy() - self.lr * g)
        tape.zero()
        return sse, rms, g


def main():
    rng = np.random.default_rng(7)
    sensor = rng.integers(0, SENSORS, READINGS).astype(np.int32)
    truth = rng.uniform(0.0, 1.0, READINGS).astype(np.float32)
    true_gain = np.array([0.8, 1.1, 0.95, 1.3], dtype=np.float32)
    raw = ((truth - 0.1 * true_gain[sensor] ** 2) / true_gain[sensor]).astype(np.float32)
    cal = Calibrator(wp.array(raw), wp.array(sensor), wp.array(truth))
    for it in range(4):
        sse, rms, g = cal.step()
        print(f"it {it}: sse {sse:.6f} rms residual {rms:.5f} grad {g}")


if __name__ == "__main__":
    main()
