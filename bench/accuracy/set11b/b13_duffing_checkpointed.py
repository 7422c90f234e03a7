"""Estimate stiffness and cubic hardening of a bank of forced Duffing
oscillators from their final displacement. Memory-saving two-segment
checkpointing: the first half is run untaped and re-recorded for its
backward pass."""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 16
SEG = 30
DT = 0.02
PARAMS0 = [1.6, 0.4]      # k, beta
TRUE_PARAMS = [2.0, 0.8]
FORCE = np.linspace(0.5, 2.0, B).astype(np.float32)
OMEGA = np.linspace(0.8, 1.6, B).astype(np.float32)


@wp.kernel
def duffing_step(x: wp.array(dtype=float), v: wp.array(dtype=float), prm: wp.array(dtype=float),
                 force: wp.array(dtype=float), omega: wp.array(dtype=float), t: float,
                 x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    xi = x[i]
    a = -prm[0] * xi - prm[1] * xi * xi * xi - 0.1 * v[i] + force[i] * wp.cos(omega[i] * t)
    vn = v[i] + DT * a
    v_out[i] = vn
    x_out[i] = xi + DT * vn


@wp.kernel
def final_misfit(x: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def segment(prm, x, v, step0, n, requires_grad):
    f = wp.array(FORCE, dtype=float)
    w = wp.array(OMEGA, dtype=float)
    for s in range(step0, step0 + n):
        xn = wp.zeros(B, dtype=float, requires_grad=requires_grad)
        vn = wp.zeros(B, dtype=float, requires_grad=requires_grad)
        wp.launch(duffing_step, dim=B, inputs=[x, v, prm, f, w, s * DT], outputs=[xn, vn])
        x, v = xn, vn
    return x, v


def initial(requires_grad=False):
    return (wp.array(np.linspace(-0.5, 0.5, B).astype(np.float32), dtype=float, requires_grad=requires_grad),
            wp.zeros(B, dtype=float, requires_grad=requires_grad))


def observe():
    x0, v0 = initial()
    x, _ = segment(wp.array(TRUE_PARAMS, dtype=float), x0, v0, 0, 2 * SEG, False)
    return x.numpy().copy()


OBS = observe()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    x0, v0 = initial(requires_grad=True)
    # forward pass of the first half without a tape: keep only the checkpoint
    x_ck, v_ck = segment(prm, x0, v0, 0, SEG, False)
    x_cp = wp.clone(x_ck, requires_grad=True)
    v_cp = wp.clone(v_ck, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        xT, _ = segment(prm, x_cp, v_cp, SEG, SEG, True)
        wp.launch(final_misfit, dim=B, inputs=[xT, obs], outputs=[loss])
    tape2.backward(loss)
    # recompute the first half on a tape and continue the adjoint from the checkpoint
    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = segment(prm, x0, v0, 0, SEG, True)
    tape1.backward(grads={x_mid: x_cp.grad})  # expect: seeding
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.3 * g
        print(f"iter {it} loss {l:.5f} k {p[0]:.3f} beta {p[1]:.3f}")
