# correct: the optimiser step sits at the top of the loop, before the new tape records, and uses the gradient the previous iteration's backward() left for the unchanged parameters
"""Shape control of a soft cantilever: find a two-knot tip force schedule
that brings the free end to a target point; warp.optim.Adam, with the update
applied lazily at the start of the next iteration (so the last gradient
is still available for logging after the loop).
"""
import numpy as np
import warp as wp
from warp.optim import Adam

from _fem2d import BeamMesh, stvk_forces

DT = 0.003
KNOT_STEPS = 20


@wp.kernel
def apply_tip_force(f: wp.array(dtype=wp.vec2), tip: wp.array(dtype=wp.int32), u: wp.array(dtype=float), knot: int):
    k = wp.tid()
    wp.atomic_add(f, tip[k], wp.vec2(u[2 * knot], u[2 * knot + 1]) / 3.0)


@wp.kernel
def euler(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
          inv_mass: wp.array(dtype=float), dt: float, q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v = qd[i] * 0.99 + dt * f[i] * inv_mass[i]
    if inv_mass[i] == 0.0:
        v = wp.vec2(0.0, 0.0)
    qd_out[i] = v
    q_out[i] = q[i] + dt * v


@wp.kernel
def tip_target_loss(q: wp.array(dtype=wp.vec2), tip: wp.array(dtype=wp.int32), target: wp.vec2,
                    u: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    d = q[tip[k]] - target
    wp.atomic_add(loss, 0, wp.dot(d, d) / 3.0)
    if k == 0:
        for j in range(4):
            wp.atomic_add(loss, 0, 1e-4 * u[j] * u[j])


mesh = BeamMesh(nx=5, ny=3, h=0.08, density=80.0)
tip = wp.array(mesh.tip_nodes(), dtype=wp.int32)
material = wp.array([3000.0, 4000.0], dtype=float)
TARGET = wp.vec2(0.3, 0.12)


def rollout(u, loss, requires_grad=True):
    q = wp.array(mesh.rest_np, dtype=wp.vec2, requires_grad=requires_grad)
    qd = wp.zeros(mesh.n, dtype=wp.vec2, requires_grad=requires_grad)
    for knot in range(2):
        for _ in range(KNOT_STEPS):
            f = wp.zeros_like(q)
            wp.launch(stvk_forces, dim=mesh.n_tri, inputs=[q, mesh.tris, mesh.dm_inv, mesh.area, material], outputs=[f])
            wp.launch(apply_tip_force, dim=3, inputs=[f, tip, u, knot])
            q1, qd1 = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(euler, dim=mesh.n, inputs=[q, qd, f, mesh.inv_mass, DT], outputs=[q1, qd1])
            q, qd = q1, qd1
    wp.launch(tip_target_loss, dim=3, inputs=[q, tip, TARGET, u], outputs=[loss])


def objective(u_np):
    loss = wp.zeros(1, dtype=float)
    rollout(wp.array(np.asarray(u_np, dtype=np.float32), dtype=float), loss, requires_grad=False)
    return float(loss.numpy()[0])


def train(iters, record=None):
    u = wp.array([0.0, 2.0, 0.5, 2.0], dtype=float, requires_grad=True)
    opt = Adam([u], lr=0.1)
    tape = None
    for it in range(iters):
        if tape is not None:
            if record is not None:
                record.append((u.numpy().copy(), u.grad.numpy().copy()))
            opt.step([u.grad])
            tape.zero()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            rollout(u, loss)
        tape.backward(loss)
        print(f"iter {it}: loss {float(loss.numpy()[0]):.5f}")
    return u


def verify():
    """AD: gradient consumed by the 3rd Adam step; FD: objective differences
    at the forces that gradient was computed for (the step did not change them yet)."""
    rec = []
    train(4, record=rec)
    u_used, g_used = rec[2]
    eps = 1e-2
    fd = np.zeros(4)
    for i in range(4):
        up, um = u_used.copy(), u_used.copy()
        up[i] += eps
        um[i] -= eps
        fd[i] = (objective(up) - objective(um)) / (2 * eps)
    return g_used, fd


if __name__ == "__main__":
    train(5)
