"""Position-Verlet rope (particles with stretch springs) falling through air with quadratic
drag, velocities taken from the previous positions. Fit the stretch stiffness (log scale)
and drag coefficient to the rope's end position after half a second."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N = 7
STEPS = 50
DT = 0.01
SEG = 0.1


@wp.kernel
def verlet_step(x: wp.array(dtype=wp.vec2d), x_prev: wp.array(dtype=wp.vec2d), params: wp.array(dtype=wp.float64),
                seg: wp.float64, dt: wp.float64, x_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    n = x.shape[0]
    if i == 0:
        x_out[i] = x[i]
        return
    k = wp.exp(params[0])
    vel = (x[i] - x_prev[i]) / dt
    a = wp.vec2d(wp.float64(0.0), wp.float64(-9.81)) - params[1] * wp.length(vel) * vel
    d = x[i - 1] - x[i]
    l = wp.length(d)
    a = a + k * (l - seg) / l * d
    if i < n - 1:
        d2 = x[i + 1] - x[i]
        l2 = wp.length(d2)
        a = a + k * (l2 - seg) / l2 * d2
    x_out[i] = wp.float64(2.0) * x[i] - x_prev[i] + dt * dt * a


@wp.kernel
def end_misfit(x: wp.array(dtype=wp.vec2d), seen: wp.vec2d, loss: wp.array(dtype=wp.float64)):
    d = x[x.shape[0] - 1] - seen
    loss[0] = wp.dot(d, d)


class Rope:
    def __init__(self):
        x0 = np.stack([np.arange(N) * SEG, np.zeros(N)], axis=1)
        self.xs = [wp.array(x0, dtype=wp.vec2d, requires_grad=True)]
        self.x_prev = wp.array(x0, dtype=wp.vec2d, requires_grad=True)
        for _ in range(STEPS):
            self.xs.append(wp.zeros(N, dtype=wp.vec2d, requires_grad=True))

    def simulate(self, params):
        for k in range(STEPS):
            wp.launch(verlet_step, dim=N, inputs=[self.xs[k], self.x_prev, params, wp.float64(SEG), wp.float64(DT)],
                      outputs=[self.xs[k + 1]])
            wp.copy(self.x_prev, self.xs[k])  # expect: overwrite
        return self.xs[-1]


SEEN = wp.vec2d(0.25, -0.52)
PARAMS0 = np.array([np.log(800.0), 0.6])
FD_EPS = 1e-6


def evaluate(p):
    rope = Rope()
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        end = rope.simulate(params)
        wp.launch(end_misfit, dim=1, inputs=[end, SEEN], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        p = p - 0.5 * g
        p[1] = max(p[1], 0.0)
        print(f"iter {it}: misfit {l:.6f}  k={np.exp(p[0]):.1f} drag={p[1]:.4f}")
