"""Identify ground stiffness and damping from the rebound heights of dropped
balls. Soft (softplus) penalty contact; per-step contact forces are kept with
retain_grad=True so their sensitivities can be plotted after backward, and a
contact-power log is written for monitoring.
"""
import numpy as np
import warp as wp

N = 5
STEPS = 60
DT = 0.004
DELTA = 0.01


@wp.kernel
def ground_contact(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), ground: wp.array(dtype=float),
                   f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = -x[i][1] / DELTA
    pen = DELTA * wp.log(1.0 + wp.exp(s))
    fn = ground[0] * pen - ground[1] * pen * v[i][1]
    f[i] = wp.vec3(0.0, fn, 0.0)


@wp.kernel
def contact_power(f: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), power_log: wp.array(dtype=float),
                  step: int):
    i = wp.tid()
    wp.atomic_add(power_log, step, wp.dot(f[i], v[i]))


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), inv_m: float,
              dt: float, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + (f[i] * inv_m + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def height_misfit(x: wp.array(dtype=wp.vec3), observed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i][1] - observed[i]
    wp.atomic_add(loss, 0, d * d)


class DropTest:
    def __init__(self):
        self.x0 = np.zeros((N, 3), dtype=np.float32)
        self.x0[:, 0] = np.arange(N) * 0.2
        self.x0[:, 1] = np.linspace(0.05, 0.15, N)
        self.observed = wp.array(np.linspace(0.02, 0.06, N).astype(np.float32), dtype=float)
        self.f_contact = [wp.zeros(N, dtype=wp.vec3, requires_grad=True, retain_grad=True) for _ in range(STEPS)]
        self.power_log = wp.zeros(STEPS, dtype=float)

    def compute_contact(self, s, x, v, ground):
        wp.launch(ground_contact, dim=N, inputs=[x, v, ground], outputs=[self.f_contact[s]])

    def log_power(self, s, x, v, ground):
        self.compute_contact(s, x, v, ground)  # expect: retain_grad
        wp.launch(contact_power, dim=N, inputs=[self.f_contact[s], v, self.power_log, s])

    def loss_and_grad(self, params):
        ground = wp.array(np.asarray(params, dtype=np.float32), dtype=float, requires_grad=True)
        x = wp.array(self.x0, dtype=wp.vec3, requires_grad=True)
        v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.power_log.zero_()
        tape = wp.Tape()
        with tape:
            for s in range(STEPS):
                self.compute_contact(s, x, v, ground)
                self.log_power(s, x, v, ground)
                x1, v1 = wp.empty_like(x), wp.empty_like(v)
                wp.launch(integrate, dim=N, inputs=[x, v, self.f_contact[s], 10.0, DT], outputs=[x1, v1])
                x, v = x1, v1
            wp.launch(height_misfit, dim=N, inputs=[x, self.observed], outputs=[loss])
        tape.backward(loss)
        g = ground.grad.numpy().copy()
        tape.zero()
        return float(loss.numpy()[0]), g


test = DropTest()


def evaluate(p):
    l, g = test.loss_and_grad(np.asarray(p) * [1000.0, 1.0])
    return l, g * [1000.0, 1.0]


PARAMS0 = np.array([2.0, 30.0])
FD_EPS = [0.002, 0.05]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("misfit", l, "grad", g, "peak contact power", test.power_log.numpy().min())
