"""Inverse source problem on a 2-D plate: recover the strengths of three
heat sources from a temperature map after a short transient. The objective is
the mean squared error over the map."""
import numpy as np
import warp as wp

wp.config.quiet = True

R = 16
STEPS = 20
ALPHA = 0.2          # dt * kappa / h^2
SITES = [(4, 4), (10, 5), (7, 12)]
PARAMS0 = [0.5, 0.5, 0.5]
TRUE_PARAMS = [1.0, 0.3, 0.7]


@wp.kernel
def inject(q: wp.array(dtype=float), sites: wp.array(dtype=wp.vec2i), src: wp.array2d(dtype=float)):
    k = wp.tid()
    s = sites[k]
    src[s[0], s[1]] = q[k]


@wp.kernel
def heat_step(T: wp.array2d(dtype=float), src: wp.array2d(dtype=float), alpha: float,
              T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    c = T[i, j]
    up = float(0.0)
    dn = float(0.0)
    lf = float(0.0)
    rt = float(0.0)
    if i > 0:
        up = T[i - 1, j]
    if i < R - 1:
        dn = T[i + 1, j]
    if j > 0:
        lf = T[i, j - 1]
    if j < R - 1:
        rt = T[i, j + 1]
    T_out[i, j] = c + alpha * (up + dn + lf + rt - 4.0 * c) + 0.1 * src[i, j]


@wp.kernel
def sq_err(T: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), err: wp.array(dtype=float)):
    i, j = wp.tid()
    d = T[i, j] - obs[i, j]
    err[i * R + j] = d * d


def forward(q):
    sites = wp.array(np.array(SITES, dtype=np.int32), dtype=wp.vec2i)
    src = wp.zeros((R, R), dtype=float, requires_grad=q.requires_grad)
    wp.launch(inject, dim=len(SITES), inputs=[q, sites], outputs=[src])
    T = wp.zeros((R, R), dtype=float, requires_grad=q.requires_grad)
    for _ in range(STEPS):
        T_next = wp.zeros_like(T)
        wp.launch(heat_step, dim=(R, R), inputs=[T, src, ALPHA], outputs=[T_next])
        T = T_next
    return T


OBS = forward(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    q = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    err = wp.zeros(R * R, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        T = forward(q)
        wp.launch(sq_err, dim=(R, R), inputs=[T, obs], outputs=[err])
    objective = float(err.numpy().mean())
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    return objective, q.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(5):
        l, g = evaluate(p)
        p -= 400.0 * g
        print(f"iter {it} mse {l:.3e} sources {np.round(p, 3)}")
