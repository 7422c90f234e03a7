# correct: the ray-marching loop has a compile-time trip count (N_STEPS = 12), so Warp unrolls it
"""Emission-absorption volume rendering of a 2D density made of Gaussian blobs.

Horizontal rays are marched with a fixed number of samples; blob positions and amplitudes
are recovered from the rendered line image.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

K_BLOBS = 3
N_STEPS = 12
N_RAYS = 8


@wp.func
def density(p: wp.vec2, blobs: wp.array(dtype=wp.vec3)):
    s = float(0.0)
    for k in range(K_BLOBS):
        b = blobs[k]
        d = p - wp.vec2(b[0], b[1])
        s += b[2] * wp.exp(-8.0 * wp.dot(d, d))
    return s


@wp.func
def emission(x: float):
    return 0.6 + 0.4 * x


@wp.kernel
def march(blobs: wp.array(dtype=wp.vec3), ray_y: wp.array(dtype=float), n_steps: int, pixels: wp.array(dtype=float)):
    r = wp.tid()
    dt = 2.0 / float(n_steps)
    T = float(1.0)
    L = float(0.0)
    for k in range(N_STEPS):
        x = -1.0 + (float(k) + 0.5) * dt
        alpha = 1.0 - wp.exp(-density(wp.vec2(x, ray_y[r]), blobs) * dt)
        L += T * alpha * emission(x)
        T = T * (1.0 - alpha)
    pixels[r] = L


@wp.kernel
def l2(a: wp.array(dtype=float), b: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = a[i] - b[i]
    wp.atomic_add(loss, 0, r * r)


class VolumeFit:
    steps = N_STEPS

    def __init__(self):
        self.ray_y = wp.array(np.linspace(-0.8, 0.8, N_RAYS).astype(np.float32), dtype=float)
        truth = wp.array(np.array([[-0.3, 0.2, 3.0], [0.4, -0.3, 2.0], [0.0, 0.5, 1.5]], np.float32), dtype=wp.vec3)
        self.target = wp.zeros(N_RAYS, dtype=float)
        wp.launch(march, dim=N_RAYS, inputs=[truth, self.ray_y, self.steps], outputs=[self.target])

    def loss_and_grad(self, p):
        blobs = wp.array(np.asarray(p, dtype=np.float32).reshape(K_BLOBS, 3), dtype=wp.vec3, requires_grad=True)
        pix = wp.zeros(N_RAYS, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(march, dim=N_RAYS, inputs=[blobs, self.ray_y, self.steps], outputs=[pix])
            wp.launch(l2, dim=N_RAYS, inputs=[pix, self.target], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), blobs.grad.numpy().ravel().astype(np.float64)


PARAMS0 = np.array([-0.2, 0.1, 2.5, 0.3, -0.2, 2.5, 0.1, 0.4, 1.0])


def evaluate(p):
    return VolumeFit().loss_and_grad(p)


if __name__ == "__main__":
    vf = VolumeFit()
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = vf.loss_and_grad(p)
        p -= 0.1 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("blobs", np.round(p.reshape(K_BLOBS, 3), 3).tolist())
