# correct: intermediate buffers are made with wp.zeros_like / wp.empty_like and no explicit requires_grad; they inherit it from the state
"""Drop a soft 2-D block (StVK triangles) on a penalty floor and fit its
shear modulus and initial spin so that its centroid bounces to a target.
"""
import numpy as np
import warp as wp

from _fem2d import BeamMesh, stvk_forces

DT = 0.002
STEPS = 60
K_FLOOR = 2.0e4


@wp.kernel
def spin_up(rest: wp.array(dtype=wp.vec2), params: wp.array(dtype=float), qd: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    r = rest[i] - wp.vec2(0.12, 0.06)
    qd[i] = wp.vec2(-r[1], r[0]) * params[1] + wp.vec2(0.0, -1.0)


@wp.kernel
def lame_from_params(params: wp.array(dtype=float), material: wp.array(dtype=float)):
    # params[0]: shear modulus in kPa; Poisson ratio fixed at 0.3 -> lambda = 1.5 mu
    material[0] = 1000.0 * params[0]
    material[1] = 1500.0 * params[0]


@wp.kernel
def integrate_with_floor(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
                         inv_mass: wp.array(dtype=float), dt: float,
                         q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    floor = wp.max(-q[i][1], 0.0)
    fi = f[i] + wp.vec2(0.0, K_FLOOR * floor)
    v = qd[i] + dt * (fi * inv_mass[i] + wp.vec2(0.0, -9.81))
    qd_out[i] = v
    q_out[i] = q[i] + dt * v


@wp.kernel
def centroid_loss(q: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.dot(q[i] - target, q[i] - target) / float(q.shape[0]))


mesh = BeamMesh(nx=4, ny=3, h=0.08, density=100.0, pin_left=False)
rest = wp.array(mesh.rest_np + np.array([0.0, 0.05], dtype=np.float32), dtype=wp.vec2)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    material = wp.zeros_like(params)
    q = wp.clone(rest, requires_grad=True)
    qd = wp.zeros_like(q)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lame_from_params, dim=1, inputs=[params], outputs=[material])
        wp.launch(spin_up, dim=mesh.n, inputs=[rest, params], outputs=[qd])
        for _ in range(STEPS):
            f = wp.zeros_like(q)
            wp.launch(stvk_forces, dim=mesh.n_tri, inputs=[q, mesh.tris, mesh.dm_inv, mesh.area, material], outputs=[f])
            q1 = wp.empty_like(q)
            qd1 = wp.empty_like(qd)
            wp.launch(integrate_with_floor, dim=mesh.n, inputs=[q, qd, f, mesh.inv_mass, DT], outputs=[q1, qd1])
            q, qd = q1, qd1
        wp.launch(centroid_loss, dim=mesh.n, inputs=[q, wp.vec2(0.13, 0.05)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([3.0, 2.0])
FD_EPS = [0.01, 0.002]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("centroid loss", l, "d/d(mu [kPa], spin)", g)
