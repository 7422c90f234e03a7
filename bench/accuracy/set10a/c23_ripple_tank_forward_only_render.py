# correct: a kernel is compiled with enable_backward=False, but it only renders diagnostics from saved states outside the tape
"""Ripple tank (2-D damped wave equation on a height field): fit the source
amplitude and the damping so that the wave height at a probe matches a
recording. A forward-only kernel renders a shaded preview of every frame.
"""
import numpy as np
import warp as wp

N = 24
STEPS = 40
C2 = 0.2  # (c dt / h)^2


@wp.kernel
def wave_step(h: wp.array2d(dtype=float), h_prev: wp.array2d(dtype=float), params: wp.array(dtype=float),
              t: float, h_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        h_out[i, j] = 0.0
        return
    lap = h[i - 1, j] + h[i + 1, j] + h[i, j - 1] + h[i, j + 1] - 4.0 * h[i, j]
    src = float(0.0)
    if i == 6 and j == 12:
        src = params[0] * wp.sin(2.0 * t)
    damp = params[1]
    h_out[i, j] = (2.0 * h[i, j] - (1.0 - damp) * h_prev[i, j] + C2 * lap + src) / (1.0 + damp)


@wp.kernel(enable_backward=False)
def shade(h: wp.array2d(dtype=float), image: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    gx = h[wp.min(i + 1, N - 1), j] - h[wp.max(i - 1, 0), j]
    gy = h[i, wp.min(j + 1, N - 1)] - h[i, wp.max(j - 1, 0)]
    n = wp.normalize(wp.vec3(-gx, -gy, 0.2))
    light = wp.max(wp.dot(n, wp.normalize(wp.vec3(0.3, 0.3, 1.0))), 0.0)
    image[i, j] = wp.vec3(0.1, 0.3, 0.6) * light


@wp.kernel
def probe_loss(h: wp.array2d(dtype=float), recorded: float, loss: wp.array(dtype=float)):
    d = h[16, 12] - recorded
    loss[0] = 100.0 * d * d


def evaluate(p, render=False):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    frames = [wp.zeros((N, N), dtype=float, requires_grad=True) for _ in range(2)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            h_new = wp.zeros((N, N), dtype=float, requires_grad=True)
            wp.launch(wave_step, dim=(N, N), inputs=[frames[-1], frames[-2], params, 0.1 * k], outputs=[h_new])
            frames.append(h_new)
        wp.launch(probe_loss, dim=1, inputs=[frames[-1], 0.05], outputs=[loss])
    tape.backward(loss)
    if render:
        image = wp.zeros((N, N), dtype=wp.vec3)
        for h in frames[2:]:
            wp.launch(shade, dim=(N, N), inputs=[h], outputs=[image])
        evaluate.last_image = image.numpy()
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.3, 0.02])
FD_EPS = [1e-3, 5e-4]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0, render=True)
    print("probe misfit", l, "d/d(amplitude, damping)", g, "mean brightness", evaluate.last_image.mean())
