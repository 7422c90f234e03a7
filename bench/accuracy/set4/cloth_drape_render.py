# correct: wp.copy outside the tape (between forward and backward) into a render buffer the tape never reads
import numpy as np
import warp as wp

G = 4
STEPS = 6
DT = 0.04


@wp.kernel
def drape(x: wp.array2d(dtype=wp.vec3), v: wp.array2d(dtype=wp.vec3), k: wp.array(dtype=wp.float32), x_out: wp.array2d(dtype=wp.vec3), v_out: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    f = wp.vec3(0.0, -9.8, 0.0)
    p = x[i, j]
    if i > 0:
        d = p - x[i - 1, j]
        l = wp.length(d)
        f -= k[0] * (l - 0.2) * d / l
    if j > 0:
        d = p - x[i, j - 1]
        l = wp.length(d)
        f -= k[0] * (l - 0.2) * d / l
    if i < G - 1:
        d = p - x[i + 1, j]
        l = wp.length(d)
        f -= k[0] * (l - 0.2) * d / l
    if j < G - 1:
        d = p - x[i, j + 1]
        l = wp.length(d)
        f -= k[0] * (l - 0.2) * d / l
    vn = v[i, j] + f * DT
    if i == 0:
        vn = wp.vec3(0.0, 0.0, 0.0)
    v_out[i, j] = vn
    x_out[i, j] = p + vn * DT


@wp.kernel
def sag(x: wp.array2d(dtype=wp.vec3), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = x[i, j][1] - goal
    wp.atomic_add(loss, 0, d * d)


def grid():
    x = np.zeros((G, G, 3), dtype=np.float32)
    for i in range(G):
        for j in range(G):
            x[i, j] = (0.2 * j, 0.0, 0.2 * i)
    return x


def step_grad(stiffness, render_buf):
    k = wp.array([stiffness], dtype=wp.float32, requires_grad=True)
    xs = [wp.array(grid(), dtype=wp.vec3, requires_grad=True)]
    vs = [wp.zeros((G, G), dtype=wp.vec3, requires_grad=True)]
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            xs.append(wp.zeros((G, G), dtype=wp.vec3, requires_grad=True))
            vs.append(wp.zeros((G, G), dtype=wp.vec3, requires_grad=True))
            wp.launch(drape, dim=(G, G), inputs=[xs[t], vs[t], k], outputs=[xs[t + 1], vs[t + 1]])
        wp.launch(sag, dim=(G, G), inputs=[xs[STEPS], -0.05], outputs=[loss])
    wp.copy(render_buf, xs[STEPS])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(k.grad.numpy()[0])


def main():
    render_buf = wp.zeros((G, G), dtype=wp.vec3)
    k = 50.0
    for it in range(5):
        l, g = step_grad(k, render_buf)
        print(f"iter {it}: k={k:.3f} loss={l:.6f} grad={g:.6f} lowest={render_buf.numpy()[..., 1].min():.4f}")
        k -= 500.0 * g


if __name__ == "__main__":
    main()
