import numpy as np
import warp as wp

wp.init()

NX, NY = 12, 10
STEPS = 25
DT = 0.1
PARAMS0 = [0.4, 0.6]


@wp.kernel
def conduct(T: wp.array2d(dtype=float), params: wp.array(dtype=float), T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == NY - 1 or j == NX - 1:
        T_out[i, j] = T[i, j]
        return
    t = T[i, j]
    k = params[0] * (1.0 + params[1] * t * t)
    lap = T[i + 1, j] + T[i - 1, j] + T[i, j + 1] + T[i, j - 1] - 4.0 * t
    T_out[i, j] = t + DT * k * lap


@wp.kernel
def probe_misfit(T: wp.array2d(dtype=float), probes: wp.array(dtype=wp.vec2i), data: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    p = wp.tid()
    r = T[probes[p][0], probes[p][1]] - data[p]
    wp.atomic_add(loss, 0, r * r)


def initial_temperature():
    yy, xx = np.mgrid[0:NY, 0:NX]
    return np.exp(-((xx - 4.0) ** 2 + (yy - 5.0) ** 2) / 6.0).astype(np.float32)


probes = wp.array(np.array([[3, 6], [5, 5], [6, 8], [4, 3]], dtype=np.int32), dtype=wp.vec2i)
data = wp.array(np.array([0.25, 0.4, 0.1, 0.35], dtype=np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    T = wp.array(initial_temperature(), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            T_new = wp.zeros_like(T)
            wp.launch(conduct, dim=(NY, NX), inputs=[T, params], outputs=[T_new])
            wp.copy(T, T_new)  # expect: overwrite
        wp.launch(probe_misfit, dim=4, inputs=[T, probes, data], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
