"""Train a per-channel sensor encoder whose output passes through a host-side smoothing filter.

The smoothing runs in NumPy; its adjoint is registered on the tape with record_func.
"""

import numpy as np
import warp as wp

CHANNELS = 64


@wp.kernel
def encode(raw: wp.array(dtype=float), gain: wp.array(dtype=float), bias: wp.array(dtype=float), latent: wp.array(dtype=float)):
    i = wp.tid()
    latent[i] = wp.tanh(gain[i] * raw[i] + bias[i])


@wp.kernel
def accumulate(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] += src[i]


@wp.kernel
def l2_to_target(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


KERNEL = np.array([0.25, 0.5, 0.25])


def smooth(x):
    return np.convolve(np.pad(x, 1, mode="edge"), KERNEL, mode="valid")


def smooth_adjoint(g):
    # transpose of edge-padded convolution
    out = np.convolve(g, KERNEL[::-1], mode="full")[1:-1].copy()
    out[0] += KERNEL[0] * g[0]
    out[-1] += KERNEL[2] * g[-1]
    return out


class SensorPipeline:
    def __init__(self):
        self.gain = wp.array(np.ones(CHANNELS, dtype=np.float32), dtype=float, requires_grad=True)
        self.bias = wp.zeros(CHANNELS, dtype=float, requires_grad=True)
        self.staging = wp.zeros(CHANNELS, dtype=float)

    def forward(self, tape, raw_np, target, loss):
        self.staging.assign(raw_np)
        latent = wp.zeros(CHANNELS, dtype=float, requires_grad=True)
        wp.launch(encode, dim=CHANNELS, inputs=[self.staging, self.gain, self.bias], outputs=[latent])

        smoothed = wp.array(smooth(latent.numpy()).astype(np.float32), dtype=float, requires_grad=True)

        def smoothing_backward():
            self.staging.assign(smooth_adjoint(smoothed.grad.numpy()).astype(np.float32))  # expect: TW106
            wp.launch(accumulate, dim=CHANNELS, inputs=[self.staging], outputs=[latent.grad])

        tape.record_func(backward=smoothing_backward, arrays=[latent, smoothed])
        wp.launch(l2_to_target, dim=CHANNELS, inputs=[smoothed, target], outputs=[loss])


def sensor_frames(num, seed=8):
    rng = np.random.default_rng(seed)
    base = np.linspace(-2.0, 2.0, CHANNELS)
    for _ in range(num):
        raw = (base + rng.normal(0.0, 0.3, CHANNELS)).astype(np.float32)
        target = np.tanh(1.7 * smooth(raw) - 0.2).astype(np.float32)
        yield raw, wp.array(target, dtype=float)


def main():
    pipe = SensorPipeline()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    lr = 0.05
    for it, (raw_np, target) in enumerate(sensor_frames(30)):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            pipe.forward(tape, raw_np, target, loss)
        tape.backward(loss)
        pipe.gain.assign(pipe.gain.numpy() - lr * pipe.gain.grad.numpy())
        pipe.bias.assign(pipe.bias.numpy() - lr * pipe.bias.grad.numpy())
        if it % 6 == 0:
            print(f"frame {it:2d} loss {loss.numpy()[0]:.5f} mean gain {pipe.gain.numpy().mean():.4f}")
        tape.zero()

    print("mean gain", pipe.gain.numpy().mean(), "mean bias", pipe.bias.numpy().mean())


if __name__ == "__main__":
    main()
