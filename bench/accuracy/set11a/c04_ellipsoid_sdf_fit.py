# correct: the scanned points the tape read are shifted in place by an untaped launch, but only after tape.backward() has consumed them.
"""Fit an ellipsoid's implicit function (centre and three radii) to a scanned
point cloud; after each gradient evaluation the cloud is recentred for the
viewer."""
import numpy as np
import warp as wp

N = 300


@wp.kernel
def implicit_residual(pts: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.vec3(params[3], params[4], params[5])
    q = pts[i] - wp.vec3(params[0], params[1], params[2])
    u = wp.cw_div(q, r)
    scale = wp.pow(r[0] * r[1] * r[2], 1.0 / 3.0)
    d = (wp.length(u) - 1.0) * scale
    wp.atomic_add(loss, 0, d * d / float(N))


@wp.kernel
def shift(pts: wp.array(dtype=wp.vec3), offset: wp.vec3):
    i = wp.tid()
    pts[i] = pts[i] - offset


def scan():
    rng = np.random.default_rng(23)
    v = rng.standard_normal((N, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    pts = v * np.array([0.9, 0.5, 0.35]) + np.array([0.1, -0.2, 0.3]) + 0.005 * rng.standard_normal((N, 3))
    return pts.astype(np.float32)


def center_cloud(points):
    c = points.numpy().mean(axis=0)
    wp.launch(shift, dim=points.shape[0], inputs=[points, wp.vec3(*c)])
    return c


SCAN = scan()
PARAMS0 = [0.0, 0.0, 0.2, 0.8, 0.6, 0.4]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    points = wp.array(SCAN, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(implicit_residual, dim=N, inputs=[points, params], outputs=[loss])
    tape.backward(loss)
    center_cloud(points)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 1.0 * g
    print(f"mean residual^2 {l:.2e} centre {p[:3].round(3)} radii {p[3:].round(3)}")
