"""Estimate the light direction and per-pixel albedo of a photographed sphere."""
import numpy as np
import warp as wp

from _shading import shade

RES = 16


@wp.kernel
def photometric_error(
    pixels: wp.array(dtype=float),
    photo: wp.array(dtype=float),
    total: wp.array(dtype=float),
):
    i = wp.tid()
    d = pixels[i] - photo[i]
    wp.atomic_add(total, 0, d * d)


def sphere_normals(res):
    u = np.linspace(-0.9, 0.9, res)
    xx, yy = np.meshgrid(u, u)
    mask = xx**2 + yy**2 < 0.81
    zz = np.sqrt(np.clip(1.0 - xx**2 - yy**2, 0.0, None))
    n = np.stack([xx[mask], yy[mask], zz[mask]], axis=1)
    return n.astype(np.float32)


def main():
    wp.init()
    normals_np = sphere_normals(RES)
    count = normals_np.shape[0]
    normals = wp.array(normals_np, dtype=wp.vec3)

    true_light = np.array([0.3, 0.5, 0.8], dtype=np.float32)
    photo_np = (0.8 * (0.5 * normals_np @ (true_light / np.linalg.norm(true_light)) + 0.5) ** 2) * 1.5
    photo = wp.array(photo_np / (1.0 + photo_np), dtype=float)

    light = wp.array([[0.0, 0.0, 1.0]], dtype=wp.vec3, requires_grad=True)
    albedo = wp.full(count, 0.7, dtype=float, requires_grad=True)

    for it in range(5):
        total = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            pixels = shade(normals, albedo, light)
            wp.launch(photometric_error, dim=count, inputs=[pixels, photo], outputs=[total])
        tape.backward(total)
        g_light = light.grad.numpy()[0]
        g_albedo = albedo.grad.numpy()
        print(f"iter {it}: error={total.numpy()[0]:.5f} |dL/dlight|={np.linalg.norm(g_light):.3e} |dL/dalbedo|={np.linalg.norm(g_albedo):.3e}")
        light.assign(light.numpy() - 0.05 * g_light)
        albedo.assign(albedo.numpy() - 0.05 * g_albedo)
        tape.zero()


if __name__ == "__main__":
    main()
