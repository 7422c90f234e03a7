# correct: rest lengths precomputed outside the tape (independent of the parameter); diagnostics kernel without backward runs after backward
import numpy as np
import warp as wp

N = 7
STEPS = 10
DT = 0.03


@wp.kernel
def rest_lengths(x: wp.array(dtype=wp.vec2), rest: wp.array(dtype=wp.float32)):
    i = wp.tid()
    rest[i] = wp.length(x[i + 1] - x[i])


@wp.kernel
def deck_step(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rest: wp.array(dtype=wp.float32), k: wp.array(dtype=wp.float32), x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    f = wp.vec2(0.0, -9.8)
    if i > 0:
        d = x[i] - x[i - 1]
        l = wp.length(d)
        f -= k[i - 1] * (l - rest[i - 1]) * d / l
    if i < N - 1:
        d = x[i] - x[i + 1]
        l = wp.length(d)
        f -= k[i] * (l - rest[i]) * d / l
    vn = (v[i] + f * DT) * 0.95
    if i == 0 or i == N - 1:
        vn = wp.vec2(0.0, 0.0)
    v_out[i] = vn
    x_out[i] = x[i] + vn * DT


@wp.kernel
def sag_loss(x: wp.array(dtype=wp.vec2), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i][1] * x[i][1])


@wp.kernel(enable_backward=False)
def max_stretch(x: wp.array(dtype=wp.vec2), rest: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    s = wp.length(x[i + 1] - x[i]) / rest[i]
    wp.atomic_max(out, 0, s)


def design_grad(k_np):
    x0 = np.stack([np.linspace(0.0, 1.8, N), np.zeros(N)], axis=1).astype(np.float32)
    k = wp.array(k_np, dtype=wp.float32, requires_grad=True)
    xs = [wp.array(x0, dtype=wp.vec2, requires_grad=True)] + [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)]
    vs = [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]
    rest = wp.zeros(N - 1, dtype=wp.float32)
    wp.launch(rest_lengths, dim=N - 1, inputs=[xs[0]], outputs=[rest])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            wp.launch(deck_step, dim=N, inputs=[xs[t], vs[t], rest, k], outputs=[xs[t + 1], vs[t + 1]])
        wp.launch(sag_loss, dim=N, inputs=[xs[STEPS]], outputs=[loss])
    tape.backward(loss)
    stretch = wp.zeros(1, dtype=wp.float32)
    wp.launch(max_stretch, dim=N - 1, inputs=[xs[STEPS], rest], outputs=[stretch])
    return float(loss.numpy()[0]), k.grad.numpy().copy(), float(stretch.numpy()[0])


def main():
    k = np.full(N - 1, 60.0, dtype=np.float32)
    for it in range(5):
        l, g, s = design_grad(k)
        print(f"iter {it}: loss={l:.6f} max stretch={s:.4f} |grad|={np.abs(g).sum():.6f}")
        k = (k - 2000.0 * g).astype(np.float32)


if __name__ == "__main__":
    main()
