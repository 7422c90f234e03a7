import numpy as np
import warp as wp

from _grid import N, advect, gaussian_blob

wp.init()

STEPS = 10
DT = 0.5
PARAMS0 = [2.0, 0.7]


@wp.kernel
def velocity_from_stream(amp: wp.array(dtype=float), u: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    x = float(i) / float(N - 1)
    y = float(j) / float(N - 1)
    pi = wp.pi
    # psi = a sin(pi x) sin(pi y) + b sin(2 pi x) sin(pi y)
    dpsi_dy = pi * wp.cos(pi * y) * (amp[0] * wp.sin(pi * x) + amp[1] * wp.sin(2.0 * pi * x))
    dpsi_dx = pi * wp.sin(pi * y) * (amp[0] * wp.cos(pi * x) + 2.0 * amp[1] * wp.cos(2.0 * pi * x))
    u[i, j] = wp.vec2(dpsi_dy, -dpsi_dx)


@wp.kernel
def no_slip_walls(u: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        u[i, j] = wp.vec2(0.0, 0.0)


@wp.kernel
def dye_misfit(q: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = q[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


target = wp.array(gaussian_blob(9.0, 6.0, 2.0), dtype=float)
q0 = gaussian_blob(2.5, 7.0, 2.5)


def evaluate(p):
    amp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    u = wp.zeros((N, N), dtype=wp.vec2, requires_grad=True, retain_grad=True)  # expect: retain_grad
    q = wp.array(q0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(velocity_from_stream, dim=(N, N), inputs=[amp], outputs=[u])
        wp.launch(no_slip_walls, dim=(N, N), inputs=[], outputs=[u])
        for _ in range(STEPS):
            q_new = wp.empty_like(q)
            wp.launch(advect, dim=(N, N), inputs=[q, u, DT], outputs=[q_new])
            q = q_new
        wp.launch(dye_misfit, dim=(N, N), inputs=[q, target], outputs=[loss])
    tape.backward(loss)
    wall_sens = np.abs(u.grad.numpy()).sum()
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
