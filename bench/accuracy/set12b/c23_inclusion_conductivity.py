# correct: each thread loops over a runtime number of inclusions (a dynamic loop the adjoint does not unroll), but the body only accumulates independent terms with += and the sum enters the stored conductivity linearly
import numpy as np
import warp as wp

wp.init()

NG = 12
PARAMS0 = [0.6, 1.1, 0.3]


@wp.kernel
def conductivity_field(centres: wp.array(dtype=wp.vec2), amp: wp.array(dtype=float), width: float, k0: float,
                       n_inc: int, k: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2(float(i), float(j)) / float(NG - 1)
    s = float(0.0)
    for m in range(n_inc):
        d = p - centres[m]
        s += amp[m] * wp.exp(-wp.dot(d, d) / (width * width))
    k[i, j] = k0 + s


@wp.kernel
def flux_misfit(k: wp.array2d(dtype=float), k_meas: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    if i < NG - 1:
        # harmonic face conductivity between neighbouring cells, compared with the measured one
        kf = 2.0 * k[i, j] * k[i + 1, j] / (k[i, j] + k[i + 1, j])
        d = kf - k_meas[i, j]
        wp.atomic_add(loss, 0, d * d)


centres = wp.array(np.array([[0.25, 0.3], [0.6, 0.7], [0.8, 0.2]], dtype=np.float32), dtype=wp.vec2)
ii, jj = np.mgrid[0:NG, 0:NG] / (NG - 1.0)
k_meas = wp.array((1.0 + 0.8 * np.exp(-((ii - 0.5) ** 2 + (jj - 0.5) ** 2) / 0.1)).astype(np.float32), dtype=float)


def evaluate(p):
    amp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    k = wp.zeros((NG, NG), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(conductivity_field, dim=(NG, NG), inputs=[centres, amp, 0.25, 1.0, centres.shape[0]], outputs=[k])
        wp.launch(flux_misfit, dim=(NG, NG), inputs=[k, k_meas], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
