"""Drape of a hanging fabric strip (mass-spring chain with vec3 positions).

The strip is pinned at one end, released from a slightly stretched
horizontal pose and integrated with symplectic Euler. Spring stiffness and
air damping are calibrated against motion-capture marker positions after
0.12 s. The ClothStrip class keeps particle states in a small ring.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PART = 8
N_STEPS = 24
DT = 0.005
MASS = 0.02
REST = 0.1


@wp.kernel
def cloth_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), p: wp.array(dtype=float),
               x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if i == 0:
        x_out[i] = x[i]
        v_out[i] = wp.vec3(0.0, 0.0, 0.0)
        return
    k = 100.0 * p[0]
    f = wp.vec3(0.0, -9.81 * MASS, 0.0) - p[1] * v[i]
    d = x[i - 1] - x[i]
    ln = wp.length(d)
    f = f + k * (ln - REST) * d / ln
    if i < N_PART - 1:
        d2 = x[i + 1] - x[i]
        l2 = wp.length(d2)
        f = f + k * (l2 - REST) * d2 / l2
    vn = v[i] + f * (DT / MASS)
    v_out[i] = vn
    x_out[i] = x[i] + vn * DT


@wp.kernel
def marker_misfit(x: wp.array(dtype=wp.vec3), obs: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[i]
    wp.atomic_add(loss, 0, 100.0 * wp.dot(d, d))


class ClothStrip:
    def __init__(self):
        self.n_buf = 2  # expect: ring_buffer
        self.x = [wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True) for _ in range(self.n_buf)]
        self.v = [wp.zeros(N_PART, dtype=wp.vec3, requires_grad=True) for _ in range(self.n_buf)]
        self.x_init = np.array([[0.11 * i, 0.0, 0.0] for i in range(N_PART)], dtype=np.float32)

    def simulate(self, params):
        self.x[0].assign(self.x_init)
        self.v[0].zero_()
        for s in range(N_STEPS):
            a, b = s % self.n_buf, (s + 1) % self.n_buf
            wp.launch(cloth_step, dim=N_PART, inputs=[self.x[a], self.v[a], params],
                      outputs=[self.x[b], self.v[b]])
        return self.x[N_STEPS % self.n_buf]


P_TRUE = [0.9, 0.012]
PARAMS0 = [0.75, 0.02]
FD_EPS = [1e-3, 1e-4]
_strip = ClothStrip()
_obs = wp.array(_strip.simulate(wp.array(P_TRUE, dtype=float)).numpy(), dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = _strip.simulate(params)
        wp.launch(marker_misfit, dim=N_PART, inputs=[xf, _obs], outputs=[loss])
    tape.backward(loss)
    g = params.grad.numpy().astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"marker misfit {l:.5f}  dL/dk={g[0]:.4f}  dL/dc={g[1]:.4f}")
