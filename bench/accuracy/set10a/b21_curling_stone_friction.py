"""Curling: find the release velocity of a stone so it comes to rest on the
button. The stone is a point mass on a penalty ice contact with smoothed
Coulomb friction; a slight sideways curl force follows its forward motion, and the pebbled ice adds a
viscous drag along the sheet.
"""
import numpy as np
import warp as wp

STEPS = 120
DT = 0.02
MASS = 19.0
MU = 0.04
K_ICE = 2.0e4
C_ICE = 600.0
CURL = 0.004
PEBBLE_DRAG = 2.5


@wp.func
def ice_contact(x: wp.vec3, v: wp.vec3):
    pen = -x[1]
    fn = K_ICE * pen - C_ICE * v[1]
    vt = wp.vec3(v[0], 0.0, v[2])
    slip = wp.sqrt(wp.dot(vt, vt) + 1e-4)
    fc = wp.vec3(-PEBBLE_DRAG * v[0], fn, (CURL * v[0] - MU * v[2]) * fn / slip)
    fc[0] = fc[0] - MU * fn * v[0] / slip  # expect: component_reassign
    return fc


@wp.kernel
def slide(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float,
          x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    f = ice_contact(x[i], v[i]) + wp.vec3(0.0, -9.81 * MASS, 0.0)
    v1 = v[i] + f / MASS * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def set_release(release: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    v[0] = wp.vec3(release[0], 0.0, release[1])


@wp.kernel
def button_loss(x: wp.array(dtype=wp.vec3), button: wp.vec3, loss: wp.array(dtype=float)):
    d = x[0] - button
    loss[0] = d[0] * d[0] + d[2] * d[2]


BUTTON = wp.vec3(3.2, 0.0, 0.25)


def evaluate(p):
    release = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array([[0.0, -9.81 * MASS / K_ICE, 0.0]], dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(set_release, dim=1, inputs=[release], outputs=[v])
        for _ in range(STEPS):
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(slide, dim=1, inputs=[x, v, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(button_loss, dim=1, inputs=[x, BUTTON], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), release.grad.numpy().copy()


PARAMS0 = np.array([1.6, 0.1])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("distance^2 to button", l, "grad", g)
