# correct: the first half of a checkpointed rollout is differentiated by a backward seeded by hand, but the seed carries both the position and the velocity adjoints of the checkpoint.
"""Identify the damping parameter mu and the natural frequency of a bank of
Van der Pol oscillators from their final state, with a checkpointed
(two-segment) reverse pass to save memory."""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 12
SEG = 25
DT = 0.03
PARAMS0 = [0.6, 1.2]     # mu, omega
TRUE_PARAMS = [1.0, 1.0]


@wp.kernel
def vdp_step(x: wp.array(dtype=float), v: wp.array(dtype=float), prm: wp.array(dtype=float),
             x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    xi = x[i]
    vi = v[i]
    w = prm[1]
    a = prm[0] * (1.0 - xi * xi) * vi - w * w * xi
    vn = vi + DT * a
    v_out[i] = vn
    x_out[i] = xi + DT * vn


@wp.kernel
def state_misfit(x: wp.array(dtype=float), v: wp.array(dtype=float), ox: wp.array(dtype=float),
                 ov: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    dx = x[i] - ox[i]
    dv = v[i] - ov[i]
    wp.atomic_add(loss, 0, dx * dx + 0.5 * dv * dv)


def run(prm, x, v, n, rg):
    for _ in range(n):
        xn = wp.zeros(B, dtype=float, requires_grad=rg)
        vn = wp.zeros(B, dtype=float, requires_grad=rg)
        wp.launch(vdp_step, dim=B, inputs=[x, v, prm], outputs=[xn, vn])
        x, v = xn, vn
    return x, v


def start(rg=False):
    return (wp.array(np.linspace(-2.0, 2.0, B).astype(np.float32), dtype=float, requires_grad=rg),
            wp.array(np.linspace(0.5, -0.5, B).astype(np.float32), dtype=float, requires_grad=rg))


_x, _v = run(wp.array(TRUE_PARAMS, dtype=float), *start(), 2 * SEG, False)
OBS_X, OBS_V = _x.numpy().copy(), _v.numpy().copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x0, v0 = start(rg=True)
    x_ck, v_ck = run(prm, x0, v0, SEG, False)
    x_cp = wp.clone(x_ck, requires_grad=True)
    v_cp = wp.clone(v_ck, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    late = wp.Tape()
    with late:
        xT, vT = run(prm, x_cp, v_cp, SEG, True)
        wp.launch(state_misfit, dim=B, inputs=[xT, vT, wp.array(OBS_X, dtype=float), wp.array(OBS_V, dtype=float)],
                  outputs=[loss])
    late.backward(loss)
    early = wp.Tape()
    with early:
        x_mid, v_mid = run(prm, x0, v0, SEG, True)
    early.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})
    grad = prm.grad.numpy().copy()
    late.zero()
    early.zero()
    return float(loss.numpy()[0]), grad


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.05 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} loss {l:.4f} mu {p[0]:.3f} omega {p[1]:.3f}")
