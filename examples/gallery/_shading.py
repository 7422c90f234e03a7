"""Small shading library shared by the inverse-rendering scripts."""
import warp as wp


@wp.func
def half_lambert(normal: wp.vec3, light_dir: wp.vec3):
    c = 0.5 * wp.dot(normal, wp.normalize(light_dir)) + 0.5
    return c * c


@wp.kernel
def shade_kernel(
    normals: wp.array(dtype=wp.vec3),
    albedo: wp.array(dtype=float),
    light: wp.array(dtype=wp.vec3),
    radiance: wp.array(dtype=float),
):
    i = wp.tid()
    radiance[i] = albedo[i] * half_lambert(normals[i], light[0])


@wp.kernel
def tonemap_kernel(radiance: wp.array(dtype=float), exposure: float, pixels: wp.array(dtype=float)):
    i = wp.tid()
    r = radiance[i] * exposure
    pixels[i] = r / (1.0 + r)


def shade(normals, albedo, light, exposure=1.5):
    n = normals.shape[0]
    radiance = wp.zeros(n, dtype=float)  # expect: TW201
    wp.launch(shade_kernel, dim=n, inputs=[normals, albedo, light], outputs=[radiance])
    pixels = wp.zeros(n, dtype=float, requires_grad=True)
    wp.launch(tonemap_kernel, dim=n, inputs=[radiance, exposure], outputs=[pixels])
    return pixels
