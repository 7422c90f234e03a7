# correct: the cooling factor is applied with an in-place *= on the output array, but the factor is a compile-time constant, so only the (differentiable) gradient with respect to the stored temperature flows through it
import numpy as np
import warp as wp

wp.init()

NX, NY = 10, 10
STEPS = 20
DT = 0.1
PARAMS0 = [0.6, 0.0]
FD_EPS = 1e-3
COOL = wp.constant(0.96)


@wp.kernel
def conduct_and_cool(T: wp.array2d(dtype=float), params: wp.array(dtype=float), T_amb: float,
                     T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, NY - 1)
    jl = wp.max(j - 1, 0)
    jr = wp.min(j + 1, NX - 1)
    lap = T[il, j] + T[ir, j] + T[i, jl] + T[i, jr] - 4.0 * T[i, j]
    T_new = T[i, j] + DT * params[0] * lap + DT * params[1] * (T[i, j] - T_amb) * (T[i, j] - T_amb)
    T_out[i, j] = T_new - T_amb
    T_out[i, j] *= COOL
    T_out[i, j] += T_amb


@wp.kernel
def ir_camera_misfit(T: wp.array2d(dtype=float), image: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = T[i, j] - image[i, j]
    wp.atomic_add(loss, 0, d * d)


yy, xx = np.mgrid[0:NY, 0:NX]
T0 = (0.3 + np.exp(-((xx - 3.0) ** 2 + (yy - 4.0) ** 2) / 5.0)).astype(np.float32)
image = wp.array((0.3 + 0.25 * np.exp(-((xx - 4.0) ** 2 + (yy - 4.0) ** 2) / 12.0)).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    T = wp.array(T0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            T_next = wp.zeros_like(T)
            wp.launch(conduct_and_cool, dim=(NY, NX), inputs=[T, params, 0.3], outputs=[T_next])
            T = T_next
        wp.launch(ir_camera_misfit, dim=(NY, NX), inputs=[T, image], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
