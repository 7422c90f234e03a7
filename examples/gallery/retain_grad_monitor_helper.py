"""Fit a light's intensity; a brightness monitor calls the shading helper again on the same tape.

`shade()` writes `radiance`, which has retain_grad=True for inspection; the
monitor `peak_radiance()` calls `shade()` a second time instead of reading
what the first call wrote, so both launches' adjoints receive the radiance
gradient and the intensity gets it twice. The monitor's recomputing line is
the one to change.
"""
import numpy as np
import warp as wp

N = 16


@wp.kernel
def lambert(normals: wp.array(dtype=wp.vec3), light: wp.array(dtype=float), radiance: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.normalize(wp.vec3(0.3, 1.0, 0.2))
    radiance[i] = light[0] * wp.max(wp.dot(normals[i], d), 0.0)


@wp.kernel
def photo_misfit(radiance: wp.array(dtype=float), photo: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = radiance[i] - photo[i]
    wp.atomic_add(loss, 0, r * r)


class Relight:
    def __init__(self):
        angles = np.linspace(0.0, 1.2, N)
        normals = np.stack([np.sin(angles), np.cos(angles), np.zeros(N)], 1).astype(np.float32)
        self.normals = wp.array(normals, dtype=wp.vec3)
        self.photo = wp.array(np.linspace(0.2, 0.9, N, dtype=np.float32))
        self.radiance = wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203

    def shade(self, light):
        wp.launch(lambert, dim=N, inputs=[self.normals, light], outputs=[self.radiance])
        return self.radiance

    def peak_radiance(self, light):
        radiance = self.shade(light)
        return float(radiance.numpy().max())

    def loss(self, light):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        radiance = self.shade(light)
        peak = self.peak_radiance(light)
        wp.launch(photo_misfit, dim=N, inputs=[radiance, self.photo], outputs=[loss])
        return loss, peak


light = wp.array([1.5], dtype=float, requires_grad=True)
scene = Relight()
tape = wp.Tape()
with tape:
    loss, peak = scene.loss(light)
tape.backward(loss)
print("loss", loss.numpy()[0], "peak", peak, "d loss / d light", light.grad.numpy()[0])
