"""Fit a twist-and-taper space deformation (the classic Barr deformation) so that
a cylinder point set lands on a scanned, deformed copy of itself."""
import numpy as np
import warp as wp

N_RING, N_Z = 16, 10


@wp.kernel
def twist_taper(pts: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = pts[i]
    a = params[0] * p[2]
    s = 1.0 + params[1] * p[2]
    c = wp.cos(a)
    sn = wp.sin(a)
    out[i] = wp.vec3(s * (c * p[0] - sn * p[1]), s * (sn * p[0] + c * p[1]), p[2])


@wp.kernel
def fit_error(x: wp.array(dtype=wp.vec3), scan: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - scan[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_RING * N_Z))


def cylinder():
    th = np.linspace(0.0, 2.0 * np.pi, N_RING, endpoint=False)
    z = np.linspace(0.0, 1.5, N_Z)
    T, Z = np.meshgrid(th, z)
    return np.stack([0.5 * np.cos(T).ravel(), 0.3 * np.sin(T).ravel(), Z.ravel()], axis=1).astype(np.float32)


def deform_np(p, twist, taper):
    a = twist * p[:, 2]
    s = 1.0 + taper * p[:, 2]
    return np.stack([s * (np.cos(a) * p[:, 0] - np.sin(a) * p[:, 1]),
                     s * (np.sin(a) * p[:, 0] + np.cos(a) * p[:, 1]), p[:, 2]], axis=1).astype(np.float32)


REST = cylinder()
SCAN = deform_np(REST, 0.9, -0.35)
PARAMS0 = [0.4, 0.1]


def deform(pts, params):
    out = pts  # expect: overwrite
    wp.launch(twist_taper, dim=len(pts), inputs=[pts, params], outputs=[out])
    return out


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pts = wp.array(REST, dtype=wp.vec3, requires_grad=True)
    scan = wp.array(SCAN, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x = deform(pts, params)
        wp.launch(fit_error, dim=len(pts), inputs=[x, scan], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.8 * g
    print(f"loss {l:.6f} twist {p[0]:.3f} taper {p[1]:.3f}")
