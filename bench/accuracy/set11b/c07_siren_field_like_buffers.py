# correct: the activation buffer is allocated without requires_grad=True, but with zeros_like from a pre-activation array that has it, so it inherits the flag.
"""A small sine-activated coordinate network (SIREN style, 1 -> 5 -> 1) fitted
to a 1-D seismic trace; frequencies and output weights are trained."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 80
HID = 5
TS = np.linspace(-1.0, 1.0, N).astype(np.float32)
TRACE = (np.exp(-4.0 * TS * TS) * np.cos(7.0 * TS) + 0.2 * np.sin(2.0 * TS)).astype(np.float32)
PHASE = np.linspace(0.0, 1.2, HID).astype(np.float32)
PARAMS0 = [1.0, 2.5, 4.0, 6.0, 7.5, 0.3, -0.2, 0.4, 0.1, 0.2]   # frequencies (5), output weights (5)


@wp.kernel
def pre_activation(t: wp.array(dtype=float), freq: wp.array(dtype=float), phase: wp.array(dtype=float),
                   z: wp.array2d(dtype=float)):
    i, k = wp.tid()
    z[i, k] = freq[k] * t[i] + phase[k]


@wp.kernel
def sine(z: wp.array2d(dtype=float), h: wp.array2d(dtype=float)):
    i, k = wp.tid()
    h[i, k] = wp.sin(z[i, k])


@wp.kernel
def readout(h: wp.array2d(dtype=float), w: wp.array(dtype=float), y: wp.array(dtype=float)):
    i, k = wp.tid()
    wp.atomic_add(y, i, w[k] * h[i, k])


@wp.kernel
def mse(y: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - target[i]
    wp.atomic_add(loss, 0, d * d / float(y.shape[0]))


def forward(freq, w, t):
    z = wp.zeros((t.shape[0], HID), dtype=float, requires_grad=True)
    h = wp.zeros_like(z)
    y = wp.zeros(t.shape[0], dtype=float, requires_grad=True)
    wp.launch(pre_activation, dim=z.shape, inputs=[t, freq, wp.array(PHASE, dtype=float)], outputs=[z])
    wp.launch(sine, dim=z.shape, inputs=[z], outputs=[h])
    wp.launch(readout, dim=z.shape, inputs=[h, w], outputs=[y])
    return y


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    freq = wp.array(p[:HID], dtype=float, requires_grad=True)
    w = wp.array(p[HID:], dtype=float, requires_grad=True)
    t = wp.array(TS, dtype=float)
    target = wp.array(TRACE, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        y = forward(freq, w, t)
        wp.launch(mse, dim=N, inputs=[y, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([freq.grad.numpy(), w.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(p)
        p -= 0.2 * g
        if it % 50 == 0:
            print(f"iter {it} mse {l:.5f}")
