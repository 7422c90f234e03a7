"""Register a scanned point cloud to a template with an affine transform (mean squared point error)."""

import numpy as np
import warp as wp


@wp.kernel
def point_residuals(
    source: wp.array(dtype=wp.vec3),
    target: wp.array(dtype=wp.vec3),
    linear: wp.array(dtype=wp.mat33),
    offset: wp.array(dtype=wp.vec3),
    residuals: wp.array(dtype=float),
):
    i = wp.tid()
    p = linear[0] * source[i] + offset[0]
    d = p - target[i]
    residuals[i] = wp.dot(d, d)


def make_clouds(n=200, seed=9):
    rng = np.random.default_rng(seed)
    src = rng.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
    A = np.array([[1.1, 0.2, 0.0], [-0.1, 0.9, 0.05], [0.0, 0.1, 1.2]], dtype=np.float32)
    b = np.array([0.3, -0.2, 0.1], dtype=np.float32)
    tgt = src @ A.T + b + rng.normal(0.0, 0.01, (n, 3)).astype(np.float32)
    return src, tgt


def main():
    src_np, tgt_np = make_clouds()
    n = src_np.shape[0]
    source = wp.array(src_np, dtype=wp.vec3)
    target = wp.array(tgt_np, dtype=wp.vec3)
    params = {
        "linear": wp.array([np.eye(3, dtype=np.float32)], dtype=wp.mat33, requires_grad=True),
        "offset": wp.zeros(1, dtype=wp.vec3, requires_grad=True),
    }
    residuals = wp.zeros(n, dtype=float, requires_grad=True)
    seed = wp.ones(n, dtype=float)

    lr = 0.2
    for it in range(40):
        tape = wp.Tape()
        with tape:
            wp.launch(point_residuals, dim=n, inputs=[source, target, params["linear"], params["offset"]], outputs=[residuals])  # note: TW407
        mse = float(residuals.numpy().mean())
        tape.backward(grads={residuals: seed})  # expect: TW204
        if it % 8 == 0:
            print(f"iter {it:2d} mse {mse:.6f} |dA| {np.linalg.norm(params['linear'].grad.numpy()):.4f}")
        for name, p in params.items():
            p.assign(p.numpy() - lr * p.grad.numpy())
        tape.zero()

    print("linear\n", np.round(params["linear"].numpy()[0], 3))
    print("offset", np.round(params["offset"].numpy()[0], 3))


if __name__ == "__main__":
    main()
