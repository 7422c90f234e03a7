"""A cable pinned at both ends sags under its own weight. Fit the axial stiffness and the
damping so that the mid-span sag after 0.6 s matches a survey."""
import numpy as np
import warp as wp

from _rodmath import cable_forces

wp.config.quiet = True
wp.set_device("cpu")

NODES = 9
SPAN = 2.0
STEPS = 60
DT = 0.01
SURVEY = np.array([1.0, -0.25, 0.0])


@wp.kernel
def damped_step(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), f: wp.array(dtype=wp.vec3d),
                params: wp.array(dtype=wp.float64), dt: wp.float64,
                x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    if i == 0 or i == x.shape[0] - 1:
        x_out[i] = x[i]
        v_out[i] = v[i]
        return
    a = f[i] - params[1] * v[i] + wp.vec3d(wp.float64(0.0), wp.float64(-9.81), wp.float64(0.0))
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def sag_misfit(x: wp.array(dtype=wp.vec3d), survey: wp.vec3d, loss: wp.array(dtype=wp.float64)):
    d = x[x.shape[0] // 2] - survey
    loss[0] = wp.dot(d, d)


def sag_loss(p):
    params = wp.array(p, dtype=wp.float64, requires_grad=True)
    x0 = np.zeros((NODES, 3))
    x0[:, 0] = np.linspace(0.0, SPAN, NODES)
    rest = SPAN / (NODES - 1)
    xs = [wp.array(x0, dtype=wp.vec3d, requires_grad=True)]
    vs = [wp.zeros(NODES, dtype=wp.vec3d, requires_grad=True)]
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            f = wp.zeros(NODES, dtype=wp.vec3d, requires_grad=True)
            wp.launch(cable_forces, dim=NODES - 1, inputs=[xs[k], params, wp.float64(rest)], outputs=[f])
            xs.append(wp.zeros(NODES, dtype=wp.vec3d, requires_grad=True))
            vs.append(wp.zeros(NODES, dtype=wp.vec3d, requires_grad=True))
            wp.launch(damped_step, dim=NODES, inputs=[xs[k], vs[k], f, params, wp.float64(DT)],
                      outputs=[xs[k + 1], vs[k + 1]])
        wp.launch(sag_misfit, dim=1, inputs=[xs[-1], wp.vec3d(*SURVEY)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([7.0, 2.0])
FD_EPS = 1e-6


def evaluate(p):
    return sag_loss(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = sag_loss(p)
        p = p - 0.5 * g
        print(f"iter {it}: misfit {l:.6f}  k={np.exp(p[0]):.1f} c={p[1]:.4f}")
