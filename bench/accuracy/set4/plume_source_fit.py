import numpy as np
import warp as wp

from _grid import make_field, make_param, scalar

NX = 12
NY = 10


@wp.kernel
def splat_sources(src: wp.array(dtype=wp.float32), field: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    x = wp.float32(i) / 11.0
    y = wp.float32(j) / 9.0
    d0 = (x - 0.3) * (x - 0.3) + (y - 0.5) * (y - 0.5)
    d1 = (x - 0.7) * (x - 0.7) + (y - 0.4) * (y - 0.4)
    field[i, j] = src[0] * wp.exp(-20.0 * d0) + src[1] * wp.exp(-20.0 * d1)


@wp.kernel
def blur(field: wp.array2d(dtype=wp.float32), out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    nx = field.shape[0]
    ny = field.shape[1]
    c = field[i, j]
    l = field[wp.max(i - 1, 0), j]
    r = field[wp.min(i + 1, nx - 1), j]
    d = field[i, wp.max(j - 1, 0)]
    u = field[i, wp.min(j + 1, ny - 1)]
    out[i, j] = 0.5 * c + 0.125 * (l + r + d + u)


@wp.kernel
def sensor_loss(conc: wp.array2d(dtype=wp.float32), obs: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    r = wp.log(1.0 + conc[i, j]) - obs[i, j]
    wp.atomic_add(loss, 0, r * r)


def observations():
    yy, xx = np.meshgrid(np.linspace(0, 1, NY), np.linspace(0, 1, NX))
    return (0.3 * np.exp(-8.0 * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2))).astype(np.float32)


def loss_and_grad(strengths):
    src = make_param(strengths)
    raw = make_field(NX, NY)
    conc = wp.zeros((NX, NY), dtype=wp.float32, requires_grad=True)
    obs = wp.array(observations(), dtype=wp.float32)
    loss = scalar()
    tape = wp.Tape()
    with tape:
        wp.launch(splat_sources, dim=(NX, NY), inputs=[src], outputs=[raw])
        wp.launch(blur, dim=(NX, NY), inputs=[raw], outputs=[conc])
        wp.launch(sensor_loss, dim=(NX, NY), inputs=[conc, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), src.grad.numpy().copy()


def main():
    s = np.array([0.5, 0.5], dtype=np.float32)
    for it in range(5):
        l, g = loss_and_grad(s)
        print(f"iter {it}: strengths={s} loss={l:.5f} grad={g}")
        s = (s - 0.05 * g).astype(np.float32)


if __name__ == "__main__":
    main()
