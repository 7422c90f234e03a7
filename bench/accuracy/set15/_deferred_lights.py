"""Tiny deferred shader: a G-buffer of sphere normals, one Blinn-Phong pass per light.

Every light has its own radiance buffer, which keeps its gradient so material
sensitivities per pixel and per light can be displayed in the editor.
"""
import numpy as np
import warp as wp

RES = 32


def sphere_normals():
    u = (np.arange(RES) + 0.5) / RES * 2.0 - 1.0
    x, y = np.meshgrid(u, -u, indexing="xy")
    r2 = x * x + y * y
    z = np.sqrt(np.clip(1.0 - r2, 0.0, None))
    n = np.stack([x, y, z], -1).reshape(-1, 3)
    mask = (r2.ravel() < 1.0).astype(np.float32)
    n[mask == 0] = (0.0, 0.0, 1.0)
    return n.astype(np.float32), mask


@wp.kernel
def blinn_phong(normal: wp.array(dtype=wp.vec3), mask: wp.array(dtype=float), light: wp.vec3,
                mat: wp.array(dtype=float), radiance: wp.array(dtype=float)):
    i = wp.tid()
    n = normal[i]
    h = wp.normalize(light + wp.vec3(0.0, 0.0, 1.0))
    diff = wp.max(wp.dot(n, light), 0.0)
    spec = wp.pow(wp.max(wp.dot(n, h), 1.0e-3), mat[2])
    radiance[i] = mask[i] * (mat[0] * diff + mat[1] * spec)


@wp.kernel
def accumulate(radiance: wp.array(dtype=float), power: float, image: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(image, i, power * radiance[i])


class DeferredRenderer:
    def __init__(self):
        n, m = sphere_normals()
        self.normal = wp.array(n, dtype=wp.vec3)
        self.mask = wp.array(m, dtype=float)
        self.radiance = []

    def render(self, lights, mat, image):
        self.radiance = [wp.zeros(RES * RES, dtype=float, requires_grad=True, retain_grad=True) for _ in lights]
        for (direction, power), rad in zip(lights, self.radiance):
            wp.launch(blinn_phong, dim=RES * RES, inputs=[self.normal, self.mask, direction, mat], outputs=[rad])
            wp.launch(accumulate, dim=RES * RES, inputs=[rad, power], outputs=[image])
