"""Assimilate tide-gauge frames: the readings wrap a NumPy buffer that the loop refreshes in place."""

import numpy as np
import warp as wp

N = 48


@wp.kernel
def harmonic_misfit(params: wp.array(dtype=float), t: wp.array(dtype=float), obs: wp.array(dtype=float),
                    loss: wp.array(dtype=float)):
    i = wp.tid()
    model = params[0] * wp.sin(0.5 * t[i] + params[1])
    r = model - obs[i]
    wp.atomic_add(loss, 0, wp.sqrt(1.0 + r * r) - 1.0)


def assimilate(frames=4, lr=0.05):
    t_np = np.linspace(0.0, 12.0, N).astype(np.float32)
    obs_np = (0.9 * np.sin(0.5 * t_np + 0.2)).astype(np.float32)
    drift = (0.05 * np.cos(0.3 * t_np)).astype(np.float32)
    t = wp.array(t_np, dtype=float)
    params = wp.array([0.7, 0.0], dtype=float, requires_grad=True)
    for frame in range(frames):
        obs = wp.array(obs_np, dtype=float, copy=False)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(harmonic_misfit, dim=N, inputs=[params, t, obs], outputs=[loss])
        obs_np += drift  # expect@cpu: TW106 (copy=False wraps the NumPy buffer on the CPU only; on a GPU Warp copies it)
        tape.backward(loss)
        params.assign(params.numpy() - lr * params.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    assimilate()
