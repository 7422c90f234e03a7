import numpy as np
import warp as wp

from _friction import soft_relu

N = 6
STEPS = 10
DT = 0.02


@wp.kernel
def slide(
    x: wp.array(dtype=wp.float32),
    v: wp.array(dtype=wp.float32),
    params: wp.array(dtype=wp.float32),
    x_out: wp.array(dtype=wp.float32),
    v_out: wp.array(dtype=wp.float32),
):
    i = wp.tid()
    pen = soft_relu(-x[i], params[1])
    f = 50.0 * pen - params[0] * v[i] - 9.8
    vn = v[i] + f * DT
    v_out[i] = vn
    x_out[i] = x[i] + vn * DT


@wp.kernel
def rest_height(x: wp.array(dtype=wp.float32), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = x[i] - goal
    wp.atomic_add(loss, 0, d * d)


def run(params_np):
    x0 = np.linspace(0.05, 0.3, N).astype(np.float32)
    params = wp.array(params_np, dtype=wp.float32, requires_grad=True)
    xs = [wp.array(x0, dtype=wp.float32, requires_grad=True)] + [wp.zeros(N, dtype=wp.float32, requires_grad=True) for _ in range(STEPS)]
    vs = [wp.zeros(N, dtype=wp.float32, requires_grad=True) for _ in range(STEPS + 1)]
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            wp.launch(slide, dim=N, inputs=[xs[t], vs[t], params], outputs=[xs[t + 1], vs[t + 1]])
        wp.launch(rest_height, dim=N, inputs=[xs[STEPS], -0.05], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


def main():
    p = np.array([2.0, 20.0], dtype=np.float32)
    for it in range(5):
        l, g = run(p)
        print(f"iter {it}: damping={p[0]:.4f} sharpness={p[1]:.4f} loss={l:.6f} grad={g}")
        p = (p - 0.5 * g).astype(np.float32)


if __name__ == "__main__":
    main()
