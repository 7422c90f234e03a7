"""Fit the Lame parameters of a soft cantilever so that its tip sag after a
short release matches a motion-capture measurement.

The element pass is split in two kernels: one computes and stores the
deformation gradient of every triangle (kept for strain post-processing),
the other turns it into nodal forces.
"""
import numpy as np
import warp as wp

from _fem2d import BeamMesh, stvk_stress

DT = 0.003
STEPS = 40
GRAVITY = wp.constant(wp.vec2(0.0, -9.81))


@wp.kernel
def deformation_gradient(q: wp.array(dtype=wp.vec2), tris: wp.array2d(dtype=wp.int32),
                         dm_inv: wp.array(dtype=wp.mat22), F_out: wp.array(dtype=wp.mat22)):
    t = wp.tid()
    e1 = q[tris[t, 1]] - q[tris[t, 0]]
    e2 = q[tris[t, 2]] - q[tris[t, 0]]
    F_out[t] = wp.mat22(e1[0], e2[0], e1[1], e2[1]) * dm_inv[t]


@wp.kernel
def element_forces(F: wp.array(dtype=wp.mat22), tris: wp.array2d(dtype=wp.int32), dm_inv: wp.array(dtype=wp.mat22),
                   area: wp.array(dtype=float), material: wp.array(dtype=float), f: wp.array(dtype=wp.vec2)):
    t = wp.tid()
    P = stvk_stress(F[t], material[0], material[1])
    H = -area[t] * P * wp.transpose(dm_inv[t])
    f1 = wp.vec2(H[0, 0], H[1, 0])
    f2 = wp.vec2(H[0, 1], H[1, 1])
    wp.atomic_add(f, tris[t, 1], f1)
    wp.atomic_add(f, tris[t, 2], f2)
    wp.atomic_sub(f, tris[t, 0], f1 + f2)


@wp.kernel
def symplectic_euler(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
                     inv_mass: wp.array(dtype=float), dt: float,
                     q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    w = inv_mass[i]
    v = qd[i]
    if w > 0.0:
        v = 0.995 * v + (f[i] * w + GRAVITY) * dt
    qd_out[i] = v
    q_out[i] = q[i] + v * dt


@wp.kernel
def tip_sag_loss(q: wp.array(dtype=wp.vec2), tip: wp.array(dtype=wp.int32), measured: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = q[tip[k]][1] - measured[k]
    wp.atomic_add(loss, 0, 100.0 * d * d)


class StrainRecorder:
    """Forward simulation that keeps per-step deformation gradients."""

    def __init__(self, mesh):
        self.mesh = mesh
        self.F = [wp.zeros(mesh.n_tri, dtype=wp.mat22) for _ in range(STEPS)]  # expect: requires_grad

    def simulate(self, material):
        m = self.mesh
        q = wp.array(m.rest_np, dtype=wp.vec2, requires_grad=True)
        qd = wp.zeros(m.n, dtype=wp.vec2, requires_grad=True)
        for s in range(STEPS):
            wp.launch(deformation_gradient, dim=m.n_tri, inputs=[q, m.tris, m.dm_inv], outputs=[self.F[s]])
            f = wp.zeros(m.n, dtype=wp.vec2, requires_grad=True)
            wp.launch(element_forces, dim=m.n_tri, inputs=[self.F[s], m.tris, m.dm_inv, m.area, material], outputs=[f])
            q1 = wp.empty_like(q)
            qd1 = wp.empty_like(qd)
            wp.launch(symplectic_euler, dim=m.n, inputs=[q, qd, f, m.inv_mass, DT], outputs=[q1, qd1])
            q, qd = q1, qd1
        return q


mesh = BeamMesh(nx=5, ny=3, h=0.08, density=60.0)
recorder = StrainRecorder(mesh)
tip = wp.array(mesh.tip_nodes(), dtype=wp.int32)
measured = wp.array([0.08, 0.155, 0.23], dtype=float)


def evaluate(p):
    material = wp.array(np.asarray(p, dtype=np.float32) * 1000.0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        q_end = recorder.simulate(material)
        wp.launch(tip_sag_loss, dim=3, inputs=[q_end, tip, measured], outputs=[loss])
    tape.backward(loss)
    g = material.grad.numpy() * 1000.0
    tape.zero()
    return float(loss.numpy()[0]), g


PARAMS0 = np.array([1.5, 3.0])
FD_EPS = 0.005

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("sag misfit", l, "d/d(mu, lambda) [1/kPa]", g)
