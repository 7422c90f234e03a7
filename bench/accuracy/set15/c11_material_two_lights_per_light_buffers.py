# correct: b11_material_two_lights (retain_grad radiance buffers, one per lamp, each written once on the tape)
"""Recover Blinn-Phong material parameters (kd, ks, shininess) from a photo lit by two lamps.

The scene is a unit sphere rendered by a small deferred shader (one pass per
lamp into its own retained radiance buffer, accumulated into the image); the target image was rendered with the
true material. Gradient of the squared image error with respect to the
material.
"""
import numpy as np
import warp as wp

from _deferred_lights import RES, DeferredRenderer

wp.config.quiet = True

LIGHTS = [(wp.normalize(wp.vec3(0.6, 0.5, 0.62)), 0.8), (wp.normalize(wp.vec3(-0.7, 0.1, 0.7)), 0.45)]
TRUE_MAT = np.array([0.55, 0.35, 24.0], dtype=np.float32)
PARAMS0 = np.array([0.45, 0.25, 18.0])  # kd, ks, shininess
FD_EPS = np.array([1e-3, 1e-3, 1e-2])


@wp.kernel
def image_error(image: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = image[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


RENDERER = DeferredRenderer()


def render(mat):
    image = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    RENDERER.render(LIGHTS, mat, image)
    return image


TARGET = render(wp.array(TRUE_MAT, dtype=float)).numpy()


def evaluate(p):
    mat = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        image = render(mat)
        wp.launch(image_error, dim=RES * RES, inputs=[image, wp.array(TARGET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    g = mat.grad.numpy().astype(np.float64)
    tape.zero()
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"image error {L:.4f}; d/d(kd, ks, shininess) = {g}")
