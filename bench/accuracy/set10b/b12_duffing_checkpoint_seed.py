"""Parameter estimation for a bank of Duffing oscillators with checkpointing.

x'' = -k x - c x' - beta x^3.  Stiffness k and damping c of each oscillator
are recovered from the observed final state.  To bound memory the rollout is
split in two segments: the first is run untaped to a checkpoint, the second
is recorded and differentiated, then the first is re-recorded and its
backward pass is seeded with the adjoint of the checkpoint.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 4
DT = 0.05
STEPS = 40
SPLIT = 20
BETA = 0.5


@wp.kernel
def duffing_step(
    x: wp.array(dtype=float),
    v: wp.array(dtype=float),
    k: wp.array(dtype=float),
    c: wp.array(dtype=float),
    x_out: wp.array(dtype=float),
    v_out: wp.array(dtype=float),
):
    i = wp.tid()
    xi = x[i]
    a = -k[i] * xi - c[i] * v[i] - BETA * xi * xi * xi
    vn = v[i] + DT * a
    v_out[i] = vn
    x_out[i] = xi + DT * vn


@wp.kernel
def state_loss(x: wp.array(dtype=float), v: wp.array(dtype=float), x_obs: wp.array(dtype=float), v_obs: wp.array(dtype=float),
               loss: wp.array(dtype=float)):
    i = wp.tid()
    dx = x[i] - x_obs[i]
    dv = v[i] - v_obs[i]
    wp.atomic_add(loss, 0, dx * dx + 0.5 * dv * dv)


def rollout(x, v, k, c, steps):
    for _ in range(steps):
        x_next = wp.empty_like(x)
        v_next = wp.empty_like(v)
        wp.launch(duffing_step, dim=N, inputs=[x, v, k, c], outputs=[x_next, v_next])
        x, v = x_next, v_next
    return x, v


X0 = np.array([1.0, 0.8, -0.6, 0.5], np.float32)
V0 = np.array([0.0, 0.3, 0.2, -0.4], np.float32)
K_TRUE = np.array([2.0, 3.0, 1.5, 4.0])
C_TRUE = np.array([0.1, 0.3, 0.2, 0.05])


def observe():
    k = wp.array(K_TRUE.astype(np.float32), dtype=float)
    c = wp.array(C_TRUE.astype(np.float32), dtype=float)
    x, v = rollout(wp.array(X0, dtype=float), wp.array(V0, dtype=float), k, c, STEPS)
    return x, v


X_OBS, V_OBS = observe()
PARAMS0 = np.concatenate([K_TRUE * 0.8 + 0.2, C_TRUE + 0.1])


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    k = wp.array(p[:N], dtype=float, requires_grad=True)
    c = wp.array(p[N:], dtype=float, requires_grad=True)
    x0 = wp.array(X0, dtype=float, requires_grad=True)
    v0 = wp.array(V0, dtype=float, requires_grad=True)

    # segment 1, untaped: only the checkpoint is kept
    x_mid, v_mid = rollout(x0, v0, k, c, SPLIT)
    x_cp = wp.clone(x_mid, requires_grad=True)
    v_cp = wp.clone(v_mid, requires_grad=True)

    # segment 2, taped
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, v_end = rollout(x_cp, v_cp, k, c, STEPS - SPLIT)
        wp.launch(state_loss, dim=N, inputs=[x_end, v_end, X_OBS, V_OBS], outputs=[loss])
    tape2.backward(loss)

    # segment 1 again, taped, seeded with the checkpoint adjoint
    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = rollout(x0, v0, k, c, SPLIT)
    tape1.backward(grads={x_mid: x_cp.grad})  # expect: seeding
    g = np.concatenate([k.grad.numpy(), c.grad.numpy()]).astype(np.float64)
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(50):
        loss, g = evaluate(p)
        p -= 0.05 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.5f} k {np.round(p[:N], 3)}")
