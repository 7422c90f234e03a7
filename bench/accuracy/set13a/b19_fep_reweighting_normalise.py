"""Free-energy-style reweighting: 400 configurations sampled at lambda = 0 carry the
perturbation energy dU = U_1 - U_0 and an observable A (an end-to-end distance).
The reweighted average <A>_lambda = sum_i w_i A_i / sum_i w_i, w_i = exp(-beta lambda
dU_i), is matched to a target by tuning lambda and beta.
"""
import numpy as np
import warp as wp

A_TARGET = 1.35


@wp.kernel
def boltzmann_weights(du: wp.array(dtype=float), prm: wp.array(dtype=float), w: wp.array(dtype=float),
                      z: wp.array(dtype=float)):
    i = wp.tid()
    wi = wp.exp(-prm[1] * prm[0] * du[i])
    w[i] = wi
    wp.atomic_add(z, 0, wi)


@wp.kernel
def normalise(w: wp.array(dtype=float), z: wp.array(dtype=float), p: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = w[i]
    p[i] /= z[0]  # expect: inplace_op


@wp.kernel
def reweighted_mean(p: wp.array(dtype=float), a: wp.array(dtype=float), mean: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(mean, 0, p[i] * a[i])


@wp.kernel
def target_loss(mean: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    loss[0] = (mean[0] - target) * (mean[0] - target)


rng = np.random.default_rng(13)
DU = rng.normal(0.0, 1.0, 400).astype(np.float32)
A_OBS = (1.2 + 0.3 * DU + 0.1 * rng.standard_normal(400)).astype(np.float32)
PARAMS0 = np.array([0.6, 1.0])  # lambda, beta
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    du = wp.array(DU, dtype=float)
    a = wp.array(A_OBS, dtype=float)
    w = wp.zeros(len(DU), dtype=float, requires_grad=True)
    z = wp.zeros(1, dtype=float, requires_grad=True)
    pw = wp.zeros(len(DU), dtype=float, requires_grad=True)
    mean = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(boltzmann_weights, dim=len(DU), inputs=[du, prm], outputs=[w, z])
        wp.launch(normalise, dim=len(DU), inputs=[w, z], outputs=[pw])
        wp.launch(reweighted_mean, dim=len(DU), inputs=[pw, a], outputs=[mean])
        wp.launch(target_loss, dim=1, inputs=[mean, A_TARGET], outputs=[loss])
    tape.backward(loss)
    evaluate.mean = float(mean.numpy()[0])
    evaluate.n_eff = float(1.0 / np.sum(pw.numpy() ** 2))
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(4):
        L, g = evaluate(p)
        print(f"iter {it}: <A> = {evaluate.mean:.4f} (N_eff {evaluate.n_eff:.0f}) loss {L:.5f} grad {g}")
        p = p - 0.5 * g
