# correct: the exponential weights are divided in place with /=, but by the constant sample count, so the gradient of the divisor is not needed.
"""Free-energy perturbation (Zwanzig): 400 configurations sampled at lambda = 0 carry
the perturbation energy dU = U_1 - U_0. The estimate
dF(lambda) = -1/beta log( (1/N) sum_i exp(-beta lambda dU_i) ) is matched to a target
free-energy difference by tuning lambda and beta.
"""
import numpy as np
import warp as wp

DF_TARGET = -0.25


@wp.kernel
def boltzmann_weights(du: wp.array(dtype=float), prm: wp.array(dtype=float), w: wp.array(dtype=float)):
    i = wp.tid()
    w[i] = wp.exp(-prm[1] * prm[0] * du[i])
    w[i] /= float(du.shape[0])


@wp.kernel
def sample_mean(w: wp.array(dtype=float), mean: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(mean, 0, w[i])


@wp.kernel
def free_energy_loss(mean: wp.array(dtype=float), prm: wp.array(dtype=float), target: float,
                     df: wp.array(dtype=float), loss: wp.array(dtype=float)):
    f = -wp.log(mean[0]) / prm[1]
    df[0] = f
    loss[0] = (f - target) * (f - target)


rng = np.random.default_rng(13)
DU = rng.normal(0.0, 1.0, 400).astype(np.float32)
PARAMS0 = np.array([0.6, 1.0])  # lambda, beta
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    du = wp.array(DU, dtype=float)
    w = wp.zeros(len(DU), dtype=float, requires_grad=True)
    mean = wp.zeros(1, dtype=float, requires_grad=True)
    df = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(boltzmann_weights, dim=len(DU), inputs=[du, prm], outputs=[w])
        wp.launch(sample_mean, dim=len(DU), inputs=[w], outputs=[mean])
        wp.launch(free_energy_loss, dim=1, inputs=[mean, prm, DF_TARGET], outputs=[df, loss])
    tape.backward(loss)
    evaluate.df = float(df.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        print(f"iter {it}: dF = {evaluate.df:.4f} loss {L:.5f} grad {g}")
        p = p - 0.5 * g
