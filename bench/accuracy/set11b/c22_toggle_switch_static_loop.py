# correct: each thread carries a nonlinear recurrence through a kernel for-loop, but the loop bound is a module-level constant (10 <= max_unroll), so Warp unrolls it and the adjoint sees every iteration.
"""Genetic toggle switch du/dt = a / (1 + v^n) - u, dv/dt = a / (1 + u^n) - v:
estimate the production rate a and the Hill coefficient n from the
expression levels of 16 cells after a short induction (midpoint rule,
one thread per cell)."""
import numpy as np
import warp as wp

wp.config.quiet = True

CELLS = 16
N_SUB = 10
DT = 0.15
PARAMS0 = [2.5, 1.6]
TRUE_PARAMS = [3.0, 2.2]
rng = np.random.default_rng(29)
UV0 = rng.uniform(0.2, 2.5, size=(CELLS, 2)).astype(np.float32)


@wp.func
def rhs(s: wp.vec2, a: float, n: float):
    return wp.vec2(a / (1.0 + wp.pow(s[1], n)) - s[0], a / (1.0 + wp.pow(s[0], n)) - s[1])


@wp.kernel
def induce(uv0: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), uv: wp.array(dtype=wp.vec2)):
    c = wp.tid()
    s = uv0[c]
    for k in range(N_SUB):
        mid = s + 0.5 * DT * rhs(s, prm[0], prm[1])
        s = s + DT * rhs(mid, prm[0], prm[1])
    uv[c] = s


@wp.kernel
def level_loss(uv: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    c = wp.tid()
    d = uv[c] - obs[c]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def levels(prm, rg=False):
    uv = wp.zeros(CELLS, dtype=wp.vec2, requires_grad=rg)
    wp.launch(induce, dim=CELLS, inputs=[wp.array(UV0, dtype=wp.vec2), prm], outputs=[uv])
    return uv


OBS = levels(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        uv = levels(prm, rg=True)
        wp.launch(level_loss, dim=CELLS, inputs=[uv, wp.array(OBS, dtype=wp.vec2)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= 0.05 * g / max(1.0, np.linalg.norm(g))
        if it % 5 == 0:
            print(f"iter {it} loss {l:.4f} a {p[0]:.3f} n {p[1]:.3f}")
