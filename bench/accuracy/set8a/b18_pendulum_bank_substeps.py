"""A bank of identical damped pendulums released from different angles; each frame is
advanced with a configurable number of symplectic-Euler substeps inside one kernel.
Fit the common length and damping to the angles seen in the last frame."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

FRAMES = 2
FRAME_DT = 0.5
SUBSTEPS = 16
THETA0 = np.array([0.3, 0.7, 1.1, 1.5])


def synthetic_observation(length=1.0, damping=0.3):
    a, w = THETA0.copy(), np.zeros_like(THETA0)
    h = FRAME_DT / SUBSTEPS
    for _ in range(FRAMES * SUBSTEPS):
        w = w - h * (9.81 / length * np.sin(a) + damping * w)
        a = a + h * w
    return a + 0.01 * np.cos(np.arange(len(a)))


SEEN = synthetic_observation()


@wp.kernel
def advance_frame(th: wp.array(dtype=wp.float64), om: wp.array(dtype=wp.float64), params: wp.array(dtype=wp.float64),
                  frame_dt: wp.float64, substeps: int,
                  th_out: wp.array(dtype=wp.float64), om_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    h = frame_dt / wp.float64(substeps)
    g_over_l = wp.float64(9.81) / params[0]
    c = params[1]
    a = th[i]
    w = om[i]
    for s in range(substeps):
        w = w - h * (g_over_l * wp.sin(a) + c * w)  # expect: dynamic_loop
        a = a + h * w
    th_out[i] = a
    om_out[i] = w


@wp.kernel
def frame_misfit(th: wp.array(dtype=wp.float64), seen: wp.array(dtype=wp.float64), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    r = th[i] - seen[i]
    wp.atomic_add(loss, 0, r * r)


class PendulumBank:
    def __init__(self, substeps=SUBSTEPS):
        self.substeps = substeps
        n = len(THETA0)
        self.n = n
        self.th = [wp.array(THETA0, dtype=wp.float64, requires_grad=True)]
        self.om = [wp.zeros(n, dtype=wp.float64, requires_grad=True)]
        for _ in range(FRAMES):
            self.th.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))
            self.om.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))

    def play(self, params):
        for f in range(FRAMES):
            wp.launch(advance_frame, dim=self.n,
                      inputs=[self.th[f], self.om[f], params, wp.float64(FRAME_DT), self.substeps],
                      outputs=[self.th[f + 1], self.om[f + 1]])
        return self.th[-1]


PARAMS0 = np.array([0.85, 0.45])
FD_EPS = 1e-6


def evaluate(p):
    bank = PendulumBank()
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    seen = wp.array(SEEN, dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        last = bank.play(params)
        wp.launch(frame_misfit, dim=bank.n, inputs=[last, seen], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = evaluate(p)
        p = p - 0.02 * g
        print(f"iter {it}: misfit {l:.5f}  L={p[0]:.4f} c={p[1]:.4f}")
