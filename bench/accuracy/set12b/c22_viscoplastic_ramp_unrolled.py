# correct: the viscoplastic stress is integrated by a loop that carries a nonlinear recurrence, but the trip count is a compile-time constant below the unroll limit, so the loop is unrolled and the adjoint replays every substep
import numpy as np
import warp as wp

wp.init()

PARAMS0 = [15.0, 0.06, 0.4]
FD_EPS = [1e-2, 1e-4, 1e-3]
N_SUB = 16
T_END = 0.25


@wp.func
def softplus(z: float, s: float):
    return wp.log(1.0 + wp.exp(s * z)) / s


@wp.kernel
def perzyna_ramp(rate: wp.array(dtype=float), mat: wp.array(dtype=float),
                 sigma_out: wp.array(dtype=float)):
    i = wp.tid()
    E = mat[0]
    sy = mat[1]
    eta = mat[2]
    dt = T_END / float(N_SUB)
    sigma = float(0.0)
    for k in range(N_SUB):
        overstress = softplus(wp.abs(sigma) - sy, 50.0)
        sigma = sigma + dt * E * (rate[i] - wp.sign(sigma) * overstress / eta)
    sigma_out[i] = sigma


@wp.kernel
def stress_misfit(sigma: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = sigma[i] - meas[i]
    wp.atomic_add(loss, 0, d * d)


rates = wp.array(np.array([0.02, 0.05, 0.1, 0.2, 0.4], dtype=np.float32), dtype=float)
meas = wp.array(np.array([0.09, 0.11, 0.13, 0.16, 0.2], dtype=np.float32), dtype=float)


def evaluate(p):
    mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    sigma = wp.zeros(rates.shape[0], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(perzyna_ramp, dim=rates.shape[0], inputs=[rates, mat], outputs=[sigma])
        wp.launch(stress_misfit, dim=rates.shape[0], inputs=[sigma, meas], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), mat.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
