# tapewatch-test: cuda-only
"""A heat-diffusion fit that renders a preview on a second CUDA stream (``wp.ScopedStream``) while the
training stream waits for its backward: the preview normalises the temperature field in place, between the
recording and ``backward()``, so the diffusion adjoint reads normalised values.  Render into a buffer of
its own.  (Streams exist on CUDA devices only: this program runs in the CUDA tier.)"""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 256


@wp.kernel
def diffuse(t0: wp.array(dtype=float), k: wp.array(dtype=float), t1: wp.array(dtype=float)):
    i = wp.tid()
    left = t0[wp.max(i - 1, 0)]
    right = t0[wp.min(i + 1, N - 1)]
    t1[i] = t0[i] + k[0] * (left - 2.0 * t0[i] + right)


@wp.kernel
def normalise(t: wp.array(dtype=float), peak: float):
    i = wp.tid()
    t[i] = t[i] / peak


@wp.kernel
def misfit(t: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


t0 = wp.array(np.exp(-np.linspace(-3.0, 3.0, N) ** 2).astype(np.float32), requires_grad=True)
t1 = wp.zeros(N, dtype=float, requires_grad=True)
target = wp.array(np.exp(-np.linspace(-3.0, 3.0, N) ** 2 / 1.2).astype(np.float32))
k = wp.array([0.2], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
preview = wp.Stream()
tape = wp.Tape()
with tape:
    wp.launch(diffuse, dim=N, inputs=[t0, k], outputs=[t1])
    wp.launch(misfit, dim=N, inputs=[t1, target], outputs=[loss])
preview.wait_stream(wp.get_stream())
with wp.ScopedStream(preview):
    wp.launch(normalise, dim=N, inputs=[t0, 0.5])  # expect: TW106
wp.get_stream().wait_stream(preview)
tape.backward(loss)
print("d loss / d k", k.grad.numpy()[0])
