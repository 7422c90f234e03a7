import numpy as np
import warp as wp

N = 16


@wp.kernel
def correct_readings(raw: wp.array(dtype=wp.float32), calib: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    out[i] = calib[0] * raw[i] + calib[1] * raw[i] * raw[i]


@wp.kernel
def log_error(out: wp.array(dtype=wp.float32), ref: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = wp.log(1.0 + out[i] * out[i]) - wp.log(1.0 + ref[i] * ref[i])
    wp.atomic_add(loss, 0, d * d)


def readings():
    raw = np.linspace(0.1, 2.0, N).astype(np.float32)
    ref = (1.1 * raw + 0.05 * raw**2).astype(np.float32)
    return raw, ref


class Calibration:
    def __init__(self, raw_np, ref_np):
        self.raw = wp.array(raw_np, dtype=wp.float32)
        self.ref = wp.array(ref_np, dtype=wp.float32)
        self.calib = wp.array(np.array([1.0, 0.0], dtype=np.float32), dtype=wp.float32, requires_grad=True)
        self.out = wp.clone(self.raw)  # expect: requires_grad
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def grad(self):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(correct_readings, dim=N, inputs=[self.raw, self.calib], outputs=[self.out])
            wp.launch(log_error, dim=N, inputs=[self.out, self.ref], outputs=[self.loss])
        tape.backward(self.loss)
        g = self.calib.grad.numpy().copy()
        tape.zero()
        return float(self.loss.numpy()[0]), g


def main():
    raw, ref = readings()
    cal = Calibration(raw, ref)
    for it in range(6):
        l, g = cal.grad()
        print(f"iter {it}: calib={cal.calib.numpy()} loss={l:.6f} grad={g}")
        cal.calib.assign(cal.calib.numpy() - 0.5 * g)


if __name__ == "__main__":
    main()
