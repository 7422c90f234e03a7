# correct: the retained force arrays are written by one launch each; the monitor only reads them back
"""A single hair strand (particle chain with stretch springs and air drag) swinging from
its root. Fit the stretch stiffness and drag so the tip follows a filmed position; the
per-step spring forces keep their gradients for a sensitivity plot."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N = 6
STEPS = 40
DT = 0.01
REST = 0.05


@wp.kernel
def strand_forces(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), params: wp.array(dtype=wp.float64),
                  rest: wp.float64, f: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    n = x.shape[0]
    acc = wp.vec3d(wp.float64(0.0), wp.float64(-9.81), wp.float64(0.0)) - params[1] * wp.length(v[i]) * v[i]
    if i > 0:
        d = x[i - 1] - x[i]
        l = wp.length(d)
        acc = acc + params[0] * (l - rest) / l * d
    if i < n - 1:
        d = x[i + 1] - x[i]
        l = wp.length(d)
        acc = acc + params[0] * (l - rest) / l * d
    f[i] = acc


@wp.kernel
def advance(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), f: wp.array(dtype=wp.vec3d),
            dt: wp.float64, x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    if i == 0:
        x_out[i] = x[i]
        v_out[i] = v[i]
    else:
        vn = v[i] + dt * f[i]
        v_out[i] = vn
        x_out[i] = x[i] + dt * vn


@wp.kernel
def tip_error(x: wp.array(dtype=wp.vec3d), filmed: wp.vec3d, loss: wp.array(dtype=wp.float64)):
    d = x[x.shape[0] - 1] - filmed
    loss[0] = wp.dot(d, d)


class Strand:
    def __init__(self):
        x0 = np.zeros((N, 3))
        x0[:, 0] = np.arange(N) * REST
        self.x = [wp.array(x0, dtype=wp.vec3d, requires_grad=True)]
        self.v = [wp.zeros(N, dtype=wp.vec3d, requires_grad=True)]
        self.f = []
        for _ in range(STEPS):
            self.x.append(wp.zeros(N, dtype=wp.vec3d, requires_grad=True))
            self.v.append(wp.zeros(N, dtype=wp.vec3d, requires_grad=True))
            self.f.append(wp.zeros(N, dtype=wp.vec3d, requires_grad=True, retain_grad=True))
        self.peak_force = []

    def forces(self, k, params):
        wp.launch(strand_forces, dim=N, inputs=[self.x[k], self.v[k], params, wp.float64(REST)], outputs=[self.f[k]])

    def monitor(self, k, params):
        # peak force magnitude at this step, for the log
        self.peak_force.append(float(np.max(np.linalg.norm(self.f[k].numpy(), axis=1))))

    def step(self, k, params):
        self.forces(k, params)
        if k % 4 == 0:
            self.monitor(k, params)
        wp.launch(advance, dim=N, inputs=[self.x[k], self.v[k], self.f[k], wp.float64(DT)],
                  outputs=[self.x[k + 1], self.v[k + 1]])


FILMED = wp.vec3d(0.12, -0.21, 0.0)
PARAMS0 = np.array([300.0, 0.4])
FD_EPS = np.array([1e-3, 1e-6])


def evaluate(p):
    s = Strand()
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            s.step(k, params)
        wp.launch(tip_error, dim=1, inputs=[s.x[-1], FILMED], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        l, g = evaluate(p)
        print(f"iter {it}: tip error {l:.6f} grad {g}")
        if it == 0:
            s = Strand()
            params = wp.array(p, dtype=wp.float64, requires_grad=True)
            loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
            with wp.Tape() as tape:
                for k in range(STEPS):
                    s.step(k, params)
                wp.launch(tip_error, dim=1, inputs=[s.x[-1], FILMED], outputs=[loss])
            tape.backward(loss)
            sens = [float(np.abs(f.grad.numpy()).max()) for f in s.f]
            print("  peak forces", np.round(s.peak_force, 2), " max |dL/df| per step:", np.round(sens[::10], 5))
        p = p - np.array([1e4, 1.0]) * g * 0.1
