"""RMS normalisation "in place": `h_norm = h` makes the output the input, so the kernel overwrites the
rows it normalises and its adjoint recomputes the statistics from normalised values.  The line to
change is the alias (the look-alike gives `h_norm` an array of its own)."""

import numpy as np
import warp as wp

T = 4
D = 8


@wp.kernel
def rms_norm(h: wp.array2d(dtype=float), gain: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    t = wp.tid()
    ms = float(0.0)
    for j in range(D):
        ms += h[t, j] * h[t, j]
    inv = 1.0 / wp.sqrt(ms / float(D) + 1.0e-5)
    for j in range(D):
        out[t, j] = h[t, j] * inv * gain[j]


@wp.kernel
def readout(h: wp.array2d(dtype=float), w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t, j = wp.tid()
    wp.atomic_add(loss, 0, wp.sin(h[t, j] * w[j]))


def forward(x, gain, w, loss):
    h = wp.clone(x, requires_grad=True)
    h_norm = h  # expect: TW105
    wp.launch(rms_norm, dim=T, inputs=[h, gain], outputs=[h_norm])
    wp.launch(readout, dim=(T, D), inputs=[h_norm, w], outputs=[loss])


rng = np.random.default_rng(4)
x = wp.array(rng.normal(size=(T, D)).astype(np.float32), requires_grad=True)
gain = wp.array(np.ones(D, dtype=np.float32), requires_grad=True)
w = wp.array(rng.normal(size=D).astype(np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    forward(x, gain, w, loss)
tape.backward(loss)
print("d loss / d gain", gain.grad.numpy())
