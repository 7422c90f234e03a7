# correct: the host update holds a NumPy view of tex.grad across the loop body, but it is used for the step before tape.reset() clears the gradient.
"""Texture optimisation with a gamma-encoded target: the 4x4 albedo texture of a
tilted quad (a wp.Mesh hit by camera rays) is fitted by host-side gradient
descent with a decaying step."""
import numpy as np
import warp as wp

from _textured_quad import RES, TEX, make_quad, pixel_ray, quad_uv, sample_bilinear

FD_EPS = 1e-3


@wp.kernel
def render(mesh: wp.uint64, tex: wp.array2d(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = pixel_ray(i, j)
    hit = wp.mesh_query_ray(mesh, wp.vec3(0.0, 0.0, 0.0), d, 10.0)
    c = float(0.0)
    if hit.result:
        shade = wp.abs(wp.dot(hit.normal, d))
        c = wp.sqrt(shade * sample_bilinear(tex, quad_uv(hit.t * d)) + 0.01)
    img[i, j] = c


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    e = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, e * e)


MESH = make_quad()
TRUE_TEX = (0.2 + 0.7 * np.random.default_rng(12).random((TEX, TEX))).astype(np.float32)


def objective(t):
    img = wp.zeros((RES, RES), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[MESH.id, wp.array(np.asarray(t, np.float32).reshape(TEX, TEX), dtype=float)],
              outputs=[img])
    wp.launch(photo_loss, dim=(RES, RES), inputs=[img, wp.array(PHOTO, dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def photograph():
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[MESH.id, wp.array(TRUE_TEX, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph()
TEX0 = np.full((TEX, TEX), 0.5, dtype=np.float32)


def fit(iters, log=None, lr=0.5):
    tex = wp.array(TEX0, dtype=float, requires_grad=True)
    photo = wp.array(PHOTO, dtype=float)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        loss.zero_()
        with tape:
            wp.launch(render, dim=(RES, RES), inputs=[MESH.id, tex], outputs=[img])
            wp.launch(photo_loss, dim=(RES, RES), inputs=[img, photo], outputs=[loss])
        tape.backward(loss)
        g = tex.grad.numpy()
        t = tex.numpy()
        if log is not None:
            log.append((t.ravel().astype(np.float64), g.ravel().astype(np.float64)))
        t -= lr / (1.0 + 0.05 * it) * g
        tape.reset()
    return tex, float(loss.numpy()[0])


def verify():
    log = []
    fit(3, log)
    t, ad = log[-1]
    fd = np.zeros(t.size)
    for k in range(t.size):
        a, b = t.copy(), t.copy()
        a[k] += FD_EPS
        b[k] -= FD_EPS
        fd[k] = (objective(a) - objective(b)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    tex, l = fit(30)
    print(f"photo loss {l:.4e}")
    print("texture error", np.abs(tex.numpy() - TRUE_TEX).max().round(3))
