"""Shallow-water-like surface: fit the wind forcing to buoy readings.

After the forward pass the surface is exported for a preview renderer.
"""
import numpy as np
import warp as wp

N = 24
STEPS = 8
DT = 0.1
SEABED = -0.05


@wp.kernel
def wave_step(
    height: wp.array(dtype=float),
    height_prev: wp.array(dtype=float),
    wind: wp.array(dtype=float),
    height_next: wp.array(dtype=float),
):
    i = wp.tid()
    l = height[(i + N - 1) % N]
    r = height[(i + 1) % N]
    h = height[i]
    lap = l - 2.0 * h + r
    forcing = wind[0] * wp.cos(0.26 * float(i))
    height_next[i] = 2.0 * h - height_prev[i] + DT * DT * (4.0 * lap + forcing) - 0.3 * DT * h * h * h


@wp.kernel
def buoy_misfit(
    height: wp.array(dtype=float),
    readings: wp.array(dtype=float),
    misfit: wp.array(dtype=float),
):
    i = wp.tid()
    d = height[i] - readings[i]
    wp.atomic_add(misfit, 0, d * d)


def export_preview(surface):
    # the renderer cannot show anything below the seabed
    np.maximum(surface, SEABED, out=surface)
    return surface


def forward(wind_value):
    wind = wp.array([wind_value], dtype=float, requires_grad=True)
    x = np.arange(N)
    h0 = (0.2 * np.sin(2.0 * np.pi * x / N)).astype(np.float32)
    frames = [wp.array(h0, requires_grad=True), wp.array(h0, requires_grad=True)]
    readings = wp.array((0.25 * np.sin(2.0 * np.pi * x / N + 0.4)).astype(np.float32))
    misfit = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            nxt = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(wave_step, dim=N, inputs=[frames[-1], frames[-2], wind], outputs=[nxt])
            frames.append(nxt)
        wp.launch(buoy_misfit, dim=N, inputs=[frames[-1], readings], outputs=[misfit])
    return tape, misfit, wind, frames


if __name__ == "__main__":
    wp.init()
    tape, misfit, wind, frames = forward(1.0)
    preview = export_preview(frames[-1].numpy())  # expect@cpu: TW106 (on a GPU .numpy() is a copy: the clamp never reaches the frame)
    print("preview min", preview.min(), "max", preview.max())
    tape.backward(misfit)
    print("misfit", misfit.numpy()[0], "d misfit / d wind", wind.grad.numpy()[0])
