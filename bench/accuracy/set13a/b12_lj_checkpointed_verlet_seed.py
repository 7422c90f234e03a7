"""Checkpointed adjoint of an LJ nanocluster run: the second half of a velocity-Verlet
trajectory is recorded and differentiated first, from a stored checkpoint; the first
half is then re-run on its own tape and back-propagated with the checkpoint's
adjoint as seed (memory-saving recomputation). Objective: the cluster's Rg^2 at the
end, differentiated with respect to (epsilon, sigma).
"""
import numpy as np
import warp as wp

from _lj import cube_cluster, lj_forces_open, radius_of_gyration_sq

DT = 0.004
HALF = 15


@wp.kernel
def vv_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
            x_out: wp.array(dtype=wp.vec3), v_half: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vh = v[i] + 0.5 * dt * f[i]
    v_half[i] = vh
    x_out[i] = x[i] + dt * vh


@wp.kernel
def vv_finish(v_half: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float, v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v_out[i] = v_half[i] + 0.5 * dt * f[i]


def run_segment(x, v, ff, n_steps):
    n = x.shape[0]
    for _ in range(n_steps):
        f = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        wp.launch(lj_forces_open, dim=n, inputs=[x, ff], outputs=[f])
        x_new, v_half = wp.empty_like(x), wp.empty_like(v)
        wp.launch(vv_step, dim=n, inputs=[x, v, f, DT], outputs=[x_new, v_half])
        f_new = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
        wp.launch(lj_forces_open, dim=n, inputs=[x_new, ff], outputs=[f_new])
        v_new = wp.empty_like(v)
        wp.launch(vv_finish, dim=n, inputs=[v_half, f_new, DT], outputs=[v_new])
        x, v = x_new, v_new
    return x, v


X0 = cube_cluster(2, 1.1, 0.06, seed=17)
V0 = (0.4 * np.random.default_rng(18).standard_normal(X0.shape)).astype(np.float32)
V0 -= V0.mean(axis=0)
PARAMS0 = np.array([1.0, 1.0])
FD_EPS = 1e-3


def evaluate(p):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x0 = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v0 = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    # forward pass 1, untaped: only the checkpoint is kept
    x_cp, v_cp = run_segment(x0, v0, ff, HALF)
    x_cp, v_cp = wp.clone(x_cp, requires_grad=True), wp.clone(v_cp, requires_grad=True)
    # second half, taped
    rg2 = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, _ = run_segment(x_cp, v_cp, ff, HALF)
        com = wp.vec3(*x_end.numpy().mean(axis=0))
        wp.launch(radius_of_gyration_sq, dim=x_end.shape[0], inputs=[x_end, com], outputs=[rg2])
    tape2.backward(rg2)
    # first half again, taped, seeded with the checkpoint adjoint
    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = run_segment(x0, v0, ff, HALF)
    tape1.backward(grads={x_mid: x_cp.grad})  # expect: seeding
    return float(rg2.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    rg2, g = evaluate(PARAMS0)
    print(f"Rg^2 after {2 * HALF} steps = {rg2:.5f}; dRg^2/d(eps, sigma) = {g}")
