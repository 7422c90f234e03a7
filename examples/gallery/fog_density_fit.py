# tapewatch-test: --check-launches
"""Recover the density scale of a fog volume from a rendered target image (emission-absorption ray marching)."""

import numpy as np
import warp as wp

WIDTH = 32
HEIGHT = 24


@wp.func
def fog_density(p: wp.vec3, scale: float):
    r2 = p[0] * p[0] + 1.5 * p[1] * p[1] + p[2] * p[2]
    return scale * wp.exp(-r2)


@wp.kernel
def march_rays(
    density_scale: wp.array(dtype=float),
    emission: wp.array(dtype=float),
    num_steps: int,
    step_size: float,
    image: wp.array2d(dtype=float),
):
    px, py = wp.tid()
    u = (float(px) + 0.5) / float(WIDTH) * 2.0 - 1.0
    v = (float(py) + 0.5) / float(HEIGHT) * 2.0 - 1.0
    origin = wp.vec3(u, 0.75 * v, -2.0)
    direction = wp.vec3(0.0, 0.0, 1.0)

    transmittance = float(1.0)
    radiance = float(0.0)
    for s in range(num_steps):  # expect: TW303  expect: TW404
        p = origin + direction * (float(s) + 0.5) * step_size
        sigma = fog_density(p, density_scale[0])
        transmittance = transmittance * wp.exp(-sigma * step_size)
        radiance += transmittance * sigma * emission[0] * step_size
    image[px, py] = radiance


@wp.kernel
def image_loss(image: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    px, py = wp.tid()
    d = image[px, py] - target[px, py]
    wp.atomic_add(loss, 0, d * d)


def render(scale, emission, num_steps, step_size, requires_grad=False):
    image = wp.zeros((WIDTH, HEIGHT), dtype=float, requires_grad=requires_grad)
    wp.launch(march_rays, dim=(WIDTH, HEIGHT), inputs=[scale, emission, num_steps, step_size], outputs=[image])
    return image


def main():
    num_steps = 40
    step_size = 4.0 / num_steps
    emission = wp.array([1.0], dtype=float)

    true_scale = wp.array([3.0], dtype=float)
    target = render(true_scale, emission, num_steps, step_size)

    scale = wp.array([1.2], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    lr = 0.05
    for it in range(25):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            image = render(scale, emission, num_steps, step_size, requires_grad=True)
            wp.launch(image_loss, dim=(WIDTH, HEIGHT), inputs=[image, target], outputs=[loss])
        tape.backward(loss)
        g = scale.grad.numpy()[0]
        if it % 5 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} scale {scale.numpy()[0]:.4f} dL/dscale {g:.5f}")
        scale.assign(scale.numpy() - lr * g)
        tape.zero()

    print("recovered density scale", scale.numpy()[0], "(target 3.0)")


if __name__ == "__main__":
    main()
