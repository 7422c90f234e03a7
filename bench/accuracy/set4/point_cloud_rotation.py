import numpy as np
import warp as wp


@wp.kernel
def rigid_transform(
    src: wp.array(dtype=wp.vec2),
    params: wp.array(dtype=wp.float32),
    out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    c = wp.cos(params[0])
    s = wp.sin(params[0])
    p = src[i]
    out[i] = wp.vec2(c * p[0] - s * p[1] + params[1], s * p[0] + c * p[1] + params[2])


@wp.kernel
def chamfer_like(out: wp.array(dtype=wp.vec2), target: wp.array(dtype=wp.vec2), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = out[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def make_clouds():
    rng = np.random.default_rng(3)
    src = rng.uniform(-1.0, 1.0, size=(12, 2)).astype(np.float32) + np.array([2.0, 0.5], dtype=np.float32)
    ang = 0.4
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], dtype=np.float32)
    tgt = (src @ rot.T + np.array([0.3, -0.2], dtype=np.float32)).astype(np.float32)
    return src, tgt


def align_step(params_np, src_np, tgt_np):
    src = wp.array(src_np, dtype=wp.vec2)
    target = wp.array(tgt_np, dtype=wp.vec2)
    params = wp.array(params_np, dtype=wp.float32, requires_grad=True)
    out = wp.zeros(len(src_np), dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(rigid_transform, dim=len(src_np), inputs=[src, params], outputs=[out])
        wp.launch(chamfer_like, dim=len(src_np), inputs=[out, target], outputs=[loss])
    pts = src.numpy()
    pts -= pts.mean(axis=0)  # expect: untaped_write
    spread = float(np.abs(pts).max())
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy(), spread


def main():
    src_np, tgt_np = make_clouds()
    params = np.zeros(3, dtype=np.float32)
    for it in range(6):
        l, g, spread = align_step(params, src_np, tgt_np)
        print(f"iter {it}: loss={l:.5f} grad={g} spread={spread:.3f}")
        params = (params - 0.02 * g).astype(np.float32)


if __name__ == "__main__":
    main()
