# correct: Calibrate gain/offset of a temperature sensor; raw readings are clipped to the ADC range inside forward().
"""Calibrate gain/offset of a temperature sensor; raw readings are clipped to the ADC range inside forward()."""
import numpy as np
import warp as wp

M = 48
rng = np.random.default_rng(11)
TRUE_T = rng.uniform(-10.0, 40.0, M).astype(np.float32)
RAW = ((TRUE_T - 2.0) / 0.8 + rng.normal(0, 0.3, M)).astype(np.float32)
RAW[::9] = 120.0  # saturated glitches


@wp.kernel
def clip_readings(raw: wp.array(dtype=float), lo: float, hi: float):
    i = wp.tid()
    raw[i] = wp.clamp(raw[i], lo, hi)


@wp.kernel
def calib_loss(raw: wp.array(dtype=float), ref: wp.array(dtype=float), gain: wp.array(dtype=float),
               offset: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = gain[0] * raw[i] + offset[0]
    r = pred - ref[i]
    wp.atomic_add(loss, 0, wp.log(1.0 + r * r) / float(M))  # robust (Cauchy) loss


class Calibrator:
    def __init__(self, p):
        self.gain = wp.array(p[:1], dtype=float, requires_grad=True)
        self.offset = wp.array(p[1:], dtype=float, requires_grad=True)
        self.ref = wp.array(TRUE_T)

    def forward(self, raw, loss):
        wp.launch(clip_readings, dim=M, inputs=[raw, -20.0, 60.0])
        wp.launch(calib_loss, dim=M, inputs=[raw, self.ref, self.gain, self.offset], outputs=[loss])

    def loss_and_grad(self):
        raw = wp.array(RAW)  # data: no gradient
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            self.forward(raw, loss)
        tape.backward(loss)
        return float(loss.numpy()[0]), np.concatenate([self.gain.grad.numpy(), self.offset.grad.numpy()])


PARAMS0 = np.array([0.7, 1.0], dtype=np.float32)


def evaluate(p):
    return Calibrator(p).loss_and_grad()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
