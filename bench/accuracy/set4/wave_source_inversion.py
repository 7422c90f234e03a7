# correct: in-kernel += / -= on arrays (differentiable) and *= only on a local variable
import numpy as np
import warp as wp

N = 16
STEPS = 8


@wp.kernel
def wave_step(u_prev: wp.array(dtype=wp.float32), u: wp.array(dtype=wp.float32), src: wp.array(dtype=wp.float32), t: wp.int32, u_next: wp.array(dtype=wp.float32)):
    i = wp.tid()
    lap = u[wp.max(i - 1, 0)] - 2.0 * u[i] + u[wp.min(i + 1, N - 1)]
    u_next[i] = 2.0 * u[i] - u_prev[i]
    u_next[i] += 0.25 * lap
    damp = 0.02 * (u[i] - u_prev[i])
    damp *= 1.0 + u[i] * u[i]
    u_next[i] -= damp
    if i == 3:
        u_next[i] += src[0] * wp.sin(0.7 * wp.float32(t) + src[1])


@wp.kernel
def receiver_loss(u: wp.array(dtype=wp.float32), rec: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = u[i] - rec[i]
    wp.atomic_add(loss, 0, d * d)


def record():
    return (0.3 * np.sin(np.linspace(0.0, 3.0, N))).astype(np.float32)


def misfit_grad(src_np, rec_np):
    src = wp.array(src_np, dtype=wp.float32, requires_grad=True)
    rec = wp.array(rec_np, dtype=wp.float32)
    us = [wp.zeros(N, dtype=wp.float32, requires_grad=True) for _ in range(STEPS + 2)]
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            wp.launch(wave_step, dim=N, inputs=[us[t], us[t + 1], src, t], outputs=[us[t + 2]])
        wp.launch(receiver_loss, dim=N, inputs=[us[STEPS + 1], rec], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), src.grad.numpy().copy()


def main():
    rec = record()
    s = np.array([0.5, 0.1], dtype=np.float32)
    for it in range(6):
        l, g = misfit_grad(s, rec)
        print(f"iter {it}: source={s} loss={l:.5f} grad={g}")
        s = (s - 0.1 * g).astype(np.float32)


if __name__ == "__main__":
    main()
