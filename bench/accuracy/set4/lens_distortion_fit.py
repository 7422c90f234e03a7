# correct: vector component touched only with += after construction (no component reassignment)
import numpy as np
import warp as wp

from _lens import distort

N = 12


@wp.kernel
def distortion_loss(pts: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), k: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    q = distort(pts[i], k[0], k[1])
    d = q - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def make_points():
    rng = np.random.default_rng(2)
    pts = rng.uniform(-0.8, 0.8, size=(N, 2)).astype(np.float32)
    r2 = (pts**2).sum(axis=1, keepdims=True)
    obs = (pts * (1.0 - 0.2 * r2 + 0.05 * r2**2)).astype(np.float32)
    return pts, obs


def loss_grad(k_np, pts_np, obs_np):
    pts = wp.array(pts_np, dtype=wp.vec2)
    obs = wp.array(obs_np, dtype=wp.vec2)
    k = wp.array(k_np, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(distortion_loss, dim=N, inputs=[pts, obs, k], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), k.grad.numpy().copy()


def main():
    pts, obs = make_points()
    k = np.zeros(2, dtype=np.float32)
    for it in range(8):
        l, g = loss_grad(k, pts, obs)
        print(f"iter {it}: k={k} loss={l:.6f}")
        k = (k - 2.0 * g).astype(np.float32)


if __name__ == "__main__":
    main()
