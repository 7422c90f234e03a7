import numpy as np
import warp as wp

from _grid import N, advect, divergence, gaussian_blob, jacobi, subtract_gradient

wp.init()

STEPS = 8
JACOBI_ITERS = 20
DT = 0.6
PARAMS0 = [0.9, 0.4, 1.2]


@wp.kernel
def initial_velocity(w: wp.array(dtype=float), u: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    x = float(i) / float(N - 1) - 0.5
    y = float(j) / float(N - 1) - 0.5
    swirl = w[2] * wp.exp(-8.0 * (x * x + y * y))
    u[i, j] = wp.vec2(w[0] - swirl * y, w[1] + swirl * x)


@wp.kernel
def outlet_mass(q: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    if i > N - 5 and j > N / 2:
        wp.atomic_add(loss, 0, q[i, j])


def project(u):
    div = wp.zeros((N, N), dtype=float, requires_grad=True)
    wp.launch(divergence, dim=(N, N), inputs=[u], outputs=[div])
    p = wp.zeros((N, N), dtype=float, requires_grad=True)
    for _ in range(JACOBI_ITERS):
        p_new = wp.zeros_like(p)
        wp.launch(jacobi, dim=(N, N), inputs=[p, div], outputs=[p_new])
        p = p_new
    u_out = wp.zeros_like(u)
    wp.launch(subtract_gradient, dim=(N, N), inputs=[u, p], outputs=[u_out])
    return u_out


def evaluate(params):
    w = wp.array(np.asarray(params, dtype=np.float32), dtype=float, requires_grad=True)
    u = wp.zeros((N, N), dtype=wp.vec2, requires_grad=True)
    q = wp.array(gaussian_blob(5.0, 6.0, 2.0), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(initial_velocity, dim=(N, N), inputs=[w], outputs=[u])
        u = project(u)
        for _ in range(STEPS):
            q_new = wp.zeros_like(q)
            wp.launch(advect, dim=(N, N), inputs=[q, u, DT], outputs=[q_new])
            q = wp.array(np.clip(q_new.numpy(), 0.0, 1.0), dtype=float, requires_grad=True)  # expect: truncation
        wp.launch(outlet_mass, dim=(N, N), inputs=[q], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), w.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
