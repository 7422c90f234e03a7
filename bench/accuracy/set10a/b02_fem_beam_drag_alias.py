"""Calibrate the Lame parameters of a soft cantilever beam moving through a
viscous fluid so that its tip follows a recorded trajectory point.

2-D StVK triangles (from _fem2d), symplectic Euler with a separate quadratic
fluid-drag pass on the predicted velocities.
"""
import numpy as np
import warp as wp

from _fem2d import BeamMesh, stvk_forces

DT = 0.004
STEPS = 40
DRAG = 50.0
GRAVITY = wp.constant(wp.vec2(0.0, -9.81))


@wp.struct
class BeamState:
    q: wp.array(dtype=wp.vec2)
    qd: wp.array(dtype=wp.vec2)


@wp.kernel
def predict_velocity(s: BeamState, f: wp.array(dtype=wp.vec2), inv_mass: wp.array(dtype=float), dt: float,
                     v_pred: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    w = inv_mass[i]
    if w > 0.0:
        v_pred[i] = s.qd[i] + (f[i] * w + GRAVITY) * dt
    else:
        v_pred[i] = wp.vec2(0.0)


@wp.kernel
def fluid_drag(v_in: wp.array(dtype=wp.vec2), c: float, dt: float, v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v = v_in[i]
    v_out[i] = v / (1.0 + c * dt * wp.length(v))


@wp.kernel
def advance(s: BeamState, v_new: wp.array(dtype=wp.vec2), dt: float, out: BeamState):
    i = wp.tid()
    out.qd[i] = v_new[i]
    out.q[i] = s.q[i] + v_new[i] * dt


@wp.kernel
def tip_loss(s: BeamState, tip: wp.array(dtype=wp.int32), target: wp.vec2, loss: wp.array(dtype=float)):
    k = wp.tid()
    d = s.q[tip[k]] - target
    wp.atomic_add(loss, 0, wp.dot(d, d))


class BeamCalibration:
    def __init__(self):
        self.mesh = BeamMesh(nx=6, ny=3, h=0.08, density=80.0)
        self.tip = wp.array(self.mesh.tip_nodes(), dtype=wp.int32)
        self.target = wp.vec2(0.38, -0.08)

    def new_state(self):
        s = BeamState()
        s.q = wp.zeros(self.mesh.n, dtype=wp.vec2, requires_grad=True)
        s.qd = wp.zeros(self.mesh.n, dtype=wp.vec2, requires_grad=True)
        return s

    def step(self, s, material):
        m = self.mesh
        f = wp.zeros(m.n, dtype=wp.vec2, requires_grad=True)
        wp.launch(stvk_forces, dim=m.n_tri, inputs=[s.q, m.tris, m.dm_inv, m.area, material], outputs=[f])
        v_pred = wp.empty(m.n, dtype=wp.vec2, requires_grad=True)
        wp.launch(predict_velocity, dim=m.n, inputs=[s, f, m.inv_mass, DT], outputs=[v_pred])
        v_damped = v_pred  # expect: overwrite
        wp.launch(fluid_drag, dim=m.n, inputs=[v_pred, DRAG, DT], outputs=[v_damped])
        out = self.new_state()
        wp.launch(advance, dim=m.n, inputs=[s, v_damped, DT], outputs=[out])
        return out

    def loss_and_grad(self, lame):
        material = wp.array(lame, dtype=float, requires_grad=True)
        s = self.new_state()
        s.q.assign(self.mesh.rest_np)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for _ in range(STEPS):
                s = self.step(s, material)
            wp.launch(tip_loss, dim=len(self.mesh.tip_nodes()), inputs=[s, self.tip, self.target], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), material.grad.numpy().copy()


_calib = BeamCalibration()


def evaluate(p):
    # parameters in kPa
    l, g = _calib.loss_and_grad(np.asarray(p, dtype=np.float32) * 1000.0)
    return l, g * 1000.0


PARAMS0 = np.array([2.0, 4.0])
FD_EPS = 0.01

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"tip loss {l:.6f}  d/d(mu, lambda) [1/kPa] {g}")
