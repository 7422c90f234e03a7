"""Blocks pushed across a floor (penalty contact with regularised Coulomb friction).

Fits the friction coefficient and the viscous slip coefficient to the measured sliding
distances of three blocks launched at different speeds."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

STEPS = 60
DT = 0.005
LAUNCH = np.array([1.5, 2.5, 3.5])
MEASURED = np.array([0.24, 0.47, 0.77])


@wp.func
def floor_force(x: wp.vec2d, v: wp.vec2d, mu: wp.float64, kslip: wp.float64) -> wp.vec2d:
    pen = -x[1]
    f = wp.vec2d(wp.float64(0.0), wp.float64(0.0))
    if pen > wp.float64(0.0):
        f = wp.vec2d(-kslip * v[0], wp.float64(2.0e4) * pen - wp.float64(60.0) * v[1])
        fn = f[1]
        f[0] = wp.clamp(f[0], -mu * fn, mu * fn)  # expect: component_reassign
    return f


@wp.kernel
def block_step(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), coef: wp.array(dtype=wp.float64),
               dt: wp.float64, x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    f = floor_force(x[i], v[i], coef[0], coef[1]) + wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    vn = v[i] + dt * f
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def distance_misfit(x: wp.array(dtype=wp.vec2d), measured: wp.array(dtype=wp.float64), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    r = x[i][0] - measured[i]
    wp.atomic_add(loss, 0, r * r)


class FloorRig:
    def __init__(self):
        n = len(LAUNCH)
        # resting on the floor at the static penetration
        x0 = np.stack([np.zeros(n), np.full(n, -9.81 / 2.0e4)], axis=1)
        v0 = np.stack([LAUNCH, np.zeros(n)], axis=1)
        self.x = [wp.array(x0, dtype=wp.vec2d, requires_grad=True)]
        self.v = [wp.array(v0, dtype=wp.vec2d, requires_grad=True)]
        for _ in range(STEPS):
            self.x.append(wp.zeros(n, dtype=wp.vec2d, requires_grad=True))
            self.v.append(wp.zeros(n, dtype=wp.vec2d, requires_grad=True))
        self.n = n

    def run(self, coef):
        for k in range(STEPS):
            wp.launch(block_step, dim=self.n, inputs=[self.x[k], self.v[k], coef, wp.float64(DT)],
                      outputs=[self.x[k + 1], self.v[k + 1]])
        return self.x[-1]


PARAMS0 = np.array([0.45, 6.0])
FD_EPS = 1e-6


def evaluate(p):
    rig = FloorRig()
    coef = wp.array(p, dtype=wp.float64, requires_grad=True)
    measured = wp.array(MEASURED, dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = rig.run(coef)
        wp.launch(distance_misfit, dim=rig.n, inputs=[xf, measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = evaluate(p)
        p = p - np.array([0.05, 5.0]) * g
        print(f"iter {it}: misfit {l:.6f}  mu={p[0]:.4f} kslip={p[1]:.4f}")
