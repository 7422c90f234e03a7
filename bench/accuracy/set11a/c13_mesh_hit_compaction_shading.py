# correct: camera-ray hits on a wp.Mesh are compacted with the return value of wp.atomic_add, but in an untaped pass that writes only constant hit data; the taped shading pass reads the compact list.
"""Light estimation on a faceted sphere: camera rays are cast against a wp.Mesh,
the hits are compacted into a list, and the taped pass shades only the hits
(Lambert with ambient) to fit the light against a photo."""
import numpy as np
import warp as wp

RES = 14


@wp.kernel
def cast_rays(mesh: wp.uint64, counter: wp.array(dtype=int), hit_pixel: wp.array(dtype=int),
              hit_normal: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    d = wp.normalize(wp.vec3((float(j) + 0.5) / float(RES) - 0.5, (float(i) + 0.5) / float(RES) - 0.5, 1.0))
    hit = wp.mesh_query_ray(mesh, wp.vec3(0.0, 0.0, 0.0), d, 10.0)
    if hit.result:
        slot = wp.atomic_add(counter, 0, 1)
        hit_pixel[slot] = k
        hit_normal[slot] = hit.normal


@wp.kernel
def shade_hits(hit_pixel: wp.array(dtype=int), hit_normal: wp.array(dtype=wp.vec3), light: wp.array(dtype=float),
               img: wp.array(dtype=float)):
    s = wp.tid()
    l = wp.normalize(wp.vec3(light[0], light[1], -1.0))
    ndl = wp.dot(hit_normal[s], l)
    img[hit_pixel[s]] = light[3] + light[2] * wp.log(1.0 + wp.exp(4.0 * ndl)) / 4.0


@wp.kernel
def photo_loss(img: wp.array(dtype=float), photo: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    e = img[k] - photo[k]
    wp.atomic_add(loss, 0, e * e)


def faceted_sphere(n_lat=7, n_lon=10, center=(0.0, 0.0, 3.0), r=1.0):
    pts = [(0.0, 0.0, -r), (0.0, 0.0, r)]
    for a in range(1, n_lat):
        th = np.pi * a / n_lat
        for b in range(n_lon):
            ph = 2 * np.pi * b / n_lon
            pts.append((r * np.sin(th) * np.cos(ph), r * np.sin(th) * np.sin(ph), -r * np.cos(th)))
    idx = []
    ring = lambda a, b: 2 + (a - 1) * n_lon + (b % n_lon)
    for b in range(n_lon):
        idx += [0, ring(1, b + 1), ring(1, b)]
        idx += [1, ring(n_lat - 1, b), ring(n_lat - 1, b + 1)]
        for a in range(1, n_lat - 1):
            idx += [ring(a, b), ring(a, b + 1), ring(a + 1, b + 1), ring(a, b), ring(a + 1, b + 1), ring(a + 1, b)]
    pts = np.array(pts) + np.array(center)
    return wp.Mesh(points=wp.array(pts.astype(np.float32), dtype=wp.vec3), indices=wp.array(np.array(idx, np.int32), dtype=int))


MESH = faceted_sphere()


def hits():
    counter = wp.zeros(1, dtype=int)
    hit_pixel = wp.zeros(RES * RES, dtype=int)
    hit_normal = wp.zeros(RES * RES, dtype=wp.vec3)
    wp.launch(cast_rays, dim=RES * RES, inputs=[MESH.id, counter], outputs=[hit_pixel, hit_normal])
    n = int(counter.numpy()[0])
    return hit_pixel[:n], hit_normal[:n]


def photograph(light):
    hp, hn = hits()
    img = wp.zeros(RES * RES, dtype=float)
    wp.launch(shade_hits, dim=hp.shape[0], inputs=[hp, hn, wp.array(light, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph(np.array([0.5, -0.6, 0.9, 0.1], dtype=np.float32))
PARAMS0 = [0.2, -0.2, 0.7, 0.05]


def evaluate(p):
    light = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    hit_pixel, hit_normal = hits()
    img = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shade_hits, dim=hit_pixel.shape[0], inputs=[hit_pixel, hit_normal, light], outputs=[img])
        wp.launch(photo_loss, dim=RES * RES, inputs=[img, wp.array(PHOTO, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.005 * g
    print(f"photo loss {l:.3e} light ({p[0]:.3f}, {p[1]:.3f}) intensity {p[2]:.3f} ambient {p[3]:.3f}")
