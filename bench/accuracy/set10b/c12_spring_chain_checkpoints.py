# correct: a rollout is differentiated segment by segment from checkpoints (last segment first), and each segment's backward is seeded with the adjoints of all its carried state (positions and velocities)
"""Identify the spring stiffness of a hanging 2-D chain from the final shape,
using checkpointed reverse-mode: 3 segments, states saved at the segment
boundaries, each segment recomputed on its own tape during the backward.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

NODES = 6
SEG = 3
STEPS_PER_SEG = 10
DT = 0.02
REST = 0.2
GRAV = wp.constant(wp.vec2(0.0, -9.8))


@wp.kernel
def chain_step(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), log_k: wp.array(dtype=float),
               x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    if i == 0:  # pinned
        x_out[i] = x[i]
        v_out[i] = wp.vec2(0.0, 0.0)
        return
    k = wp.exp(log_k[0])
    f = GRAV
    d = x[i - 1] - x[i]
    l = wp.length(d)
    f = f + k * (l - REST) * d / l
    if i < NODES - 1:
        d2 = x[i + 1] - x[i]
        l2 = wp.length(d2)
        f = f + k * (l2 - REST) * d2 / l2
    vn = (v[i] + DT * f) * 0.98
    v_out[i] = vn
    x_out[i] = x[i] + DT * vn


@wp.kernel
def shape_loss(x: wp.array(dtype=wp.vec2), x_obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - x_obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def segment(x, v, log_k):
    for _ in range(STEPS_PER_SEG):
        xn = wp.zeros_like(x)
        vn = wp.zeros_like(v)
        wp.launch(chain_step, dim=NODES, inputs=[x, v, log_k], outputs=[xn, vn])
        x, v = xn, vn
    return x, v


X0 = np.stack([np.arange(NODES) * REST, np.zeros(NODES)], 1).astype(np.float32)


def _observe():
    lk = wp.array([np.log(60.0)], dtype=float)
    x = wp.array(X0, dtype=wp.vec2)
    v = wp.zeros(NODES, dtype=wp.vec2)
    for _ in range(SEG):
        x, v = segment(x, v, lk)
    return wp.array(x.numpy(), dtype=wp.vec2)


X_OBS = _observe()
PARAMS0 = np.array([np.log(40.0)])
FD_EPS = 1e-3


def evaluate(p):
    log_k = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    # forward sweep without a tape: keep only the checkpoints
    ckpts = [(wp.array(X0, dtype=wp.vec2, requires_grad=True), wp.zeros(NODES, dtype=wp.vec2, requires_grad=True))]
    for s in range(SEG):
        ckpts.append(segment(*ckpts[-1], log_k))
    # reverse sweep
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    adj_x = adj_v = None
    for s in reversed(range(SEG)):
        x_in = wp.clone(ckpts[s][0], requires_grad=True)
        v_in = wp.clone(ckpts[s][1], requires_grad=True)
        tape = wp.Tape()
        with tape:
            x_out, v_out = segment(x_in, v_in, log_k)
            if s == SEG - 1:
                wp.launch(shape_loss, dim=NODES, inputs=[x_out, X_OBS], outputs=[loss])
        if s == SEG - 1:
            tape.backward(loss)
        else:
            tape.backward(grads={x_out: adj_x, v_out: adj_v})
        adj_x, adj_v = wp.clone(x_in.grad), wp.clone(v_in.grad)
    return float(loss.numpy()[0]), log_k.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.5 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f} k {np.exp(p[0]):.2f}")
