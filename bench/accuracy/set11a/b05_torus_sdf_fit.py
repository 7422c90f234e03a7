"""Fit a torus signed-distance function (centre, major and minor radius) to a
noisy scanned point cloud by minimising the mean squared SDF at the samples."""
import numpy as np
import warp as wp

N = 400


@wp.func
def torus_sdf(p: wp.vec3, c: wp.vec3, big_r: float, small_r: float):
    q = p - c
    ring = wp.sqrt(q[0] * q[0] + q[2] * q[2]) - big_r
    return wp.sqrt(ring * ring + q[1] * q[1]) - small_r


@wp.kernel
def sdf_residual(pts: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.vec3(params[0], params[1], params[2])
    d = torus_sdf(pts[i], c, params[3], params[4])
    wp.atomic_add(loss, 0, d * d / float(N))


@wp.kernel
def shift(pts: wp.array(dtype=wp.vec3), offset: wp.vec3):
    i = wp.tid()
    pts[i] = pts[i] - offset


def scan_points():
    rng = np.random.default_rng(11)
    u = rng.uniform(0, 2 * np.pi, N)
    v = rng.uniform(0, 2 * np.pi, N)
    R, r = 1.0, 0.35
    x = (R + r * np.cos(v)) * np.cos(u)
    z = (R + r * np.cos(v)) * np.sin(u)
    y = r * np.sin(v)
    pts = np.stack([x, y, z], axis=1) + np.array([0.2, -0.1, 0.15]) + 0.01 * rng.standard_normal((N, 3))
    return pts.astype(np.float32)


def center_cloud(points):
    """Move the cloud to its centroid so the viewer frames it."""
    c = points.numpy().mean(axis=0)
    wp.launch(shift, dim=points.shape[0], inputs=[points, wp.vec3(*c)])
    return c


SCAN = scan_points()
PARAMS0 = [0.1, 0.0, 0.1, 0.9, 0.3]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    points = wp.array(SCAN, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(sdf_residual, dim=N, inputs=[points, params], outputs=[loss])
    center_cloud(points)  # expect: untaped_write
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.5 * g
    print(f"mean sdf^2 {l:.2e} centre {p[:3].round(3)} R {p[3]:.3f} r {p[4]:.3f}")
