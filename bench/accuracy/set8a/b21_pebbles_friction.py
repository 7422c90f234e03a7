"""Three pebbles tossed onto a floor (one dropped straight down). Calibrates the contact
stiffness, damping and friction coefficient from their positions after landing."""
import numpy as np
import warp as wp

import _contact

wp.config.quiet = True
wp.set_device("cpu")

STEPS = 70
DT = 0.002
X0 = np.array([[0.0, 0.05, 0.0], [0.2, 0.05, 0.0], [0.4, 0.05, 0.1]])
V0 = np.array([[0.0, -1.0, 0.0], [1.2, -1.0, 0.0], [0.8, -1.0, 0.6]])
SEEN = np.array([[0.0, -0.004, 0.0], [0.32, -0.004, 0.0], [0.47, -0.004, 0.16]])


@wp.kernel
def pose_misfit(x: wp.array(dtype=wp.vec3d), seen: wp.array(dtype=wp.vec3d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - seen[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) * wp.float64(100.0))


def toss(p):
    cm = _contact.ContactModel()
    cm.coef = wp.array(p, dtype=wp.float64, requires_grad=True)
    cm.v_eps = 1e-3
    n = len(X0)
    xs = [wp.array(X0, dtype=wp.vec3d, requires_grad=True)]
    vs = [wp.array(V0, dtype=wp.vec3d, requires_grad=True)]
    for _ in range(STEPS):
        xs.append(wp.zeros(n, dtype=wp.vec3d, requires_grad=True))
        vs.append(wp.zeros(n, dtype=wp.vec3d, requires_grad=True))
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    with wp.Tape() as tape:
        for k in range(STEPS):
            wp.launch(_contact.particle_step, dim=n, inputs=[xs[k], vs[k], cm, wp.float64(DT)],
                      outputs=[xs[k + 1], vs[k + 1]])
        wp.launch(pose_misfit, dim=n, inputs=[xs[-1], wp.array(SEEN, dtype=wp.vec3d)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), cm.coef.grad.numpy().copy()


PARAMS0 = np.array([3000.0, 20.0, 0.5])
FD_EPS = np.array([1e-2, 1e-4, 1e-6])


def evaluate(p):
    return toss(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        l, g = toss(p)
        print(f"iter {it}: misfit {l:.6f}  grad {g}")
        if not np.all(np.isfinite(g)):
            print("gradient not finite; keeping parameters")
            break
        p = p - np.array([1e4, 10.0, 0.1]) * g
