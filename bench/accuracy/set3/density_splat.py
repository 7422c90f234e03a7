"""Move particles so their splatted density matches a target image (a few gradient-descent iterations)."""
import numpy as np
import warp as wp

G = 16
ITERS = 3
LR = 0.002


@wp.kernel
def splat(pos: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float)):
    p, i, j = wp.tid()
    c = wp.vec2((float(i) + 0.5) / float(G), (float(j) + 0.5) / float(G))
    d = pos[p] - c
    wp.atomic_add(grid, i, j, wp.exp(-wp.dot(d, d) / 0.005))


@wp.kernel
def image_loss(grid: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = grid[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def descend(pos: wp.array(dtype=wp.vec2), g: wp.array(dtype=wp.vec2), lr: float):
    p = wp.tid()
    pos[p] = pos[p] - lr * g[p]


rng = np.random.default_rng(15)
n = 12
xx, yy = np.meshgrid((np.arange(G) + 0.5) / G, (np.arange(G) + 0.5) / G, indexing="ij")
target_np = (1.5 * np.exp(-((xx - 0.5) ** 2 + (yy - 0.5) ** 2) / 0.03)).astype(np.float32)
target = wp.array(target_np, dtype=float)
pos = wp.array(rng.uniform(0.3, 0.7, (n, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
grid = wp.zeros((G, G), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

history = []
tape = wp.Tape()
for it in range(ITERS):
    loss.zero_()
    p_before = pos.numpy().copy()
    with tape:
        wp.launch(splat, dim=(n, G, G), inputs=[pos], outputs=[grid])  # expect: atomic_replay
        wp.launch(image_loss, dim=(G, G), inputs=[grid, target], outputs=[loss])
    tape.backward(loss)
    history.append((p_before, float(loss.numpy()[0]), pos.grad.numpy().copy()))
    print(f"iter {it}: loss {history[-1][1]:.5f}")
    wp.launch(descend, dim=n, inputs=[pos, pos.grad, LR])
    tape.reset()
