"""Invert basal sliding coefficients of a glacier flowline from surface-speed observations."""
import numpy as np
import warp as wp

NX = 12


@wp.kernel
def ice_thickness(bed_slip: wp.array(dtype=wp.float32), surface: wp.array(dtype=wp.float32), h: wp.array(dtype=wp.float32)):
    i = wp.tid()
    h[i] = surface[i] / (1.0 + 0.3 * wp.exp(bed_slip[i]))


@wp.kernel
def surface_speed(h: wp.array(dtype=wp.float32), bed_slip: wp.array(dtype=wp.float32), h_ref: wp.array(dtype=wp.float32),
                  speed: wp.array(dtype=wp.float32)):
    i = wp.tid()
    rel = h[i] / h_ref[0]
    speed[i] = rel * rel * rel + wp.exp(bed_slip[i]) * rel


@wp.kernel
def array_mean(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i] / wp.float32(a.shape[0]))


@wp.kernel
def speed_misfit(speed: wp.array(dtype=wp.float32), obs: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = speed[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def device_mean(a):
    out = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(array_mean, dim=a.shape[0], inputs=[a], outputs=[out])
    return out


def inputs():
    x = np.linspace(0.0, 1.0, NX)
    surface = wp.array((2.0 - 0.8 * x).astype(np.float32), dtype=wp.float32)
    obs = wp.array((1.2 + 0.6 * np.sin(2.0 * x)).astype(np.float32), dtype=wp.float32)
    return surface, obs


def misfit(bed_slip, surface, obs):
    h = wp.zeros(NX, dtype=wp.float32, requires_grad=True)
    speed = wp.zeros(NX, dtype=wp.float32, requires_grad=True)
    wp.launch(ice_thickness, dim=NX, inputs=[bed_slip, surface], outputs=[h])
    h_ref = wp.array([h.numpy().mean()], dtype=wp.float32)  # expect: truncation
    wp.launch(surface_speed, dim=NX, inputs=[h, bed_slip, h_ref], outputs=[speed])
    loss = device_mean(speed)
    wp.launch(speed_misfit, dim=NX, inputs=[speed, obs], outputs=[loss])
    return loss


def invert(iters=40, lr=0.02):
    surface, obs = inputs()
    bed_slip = wp.array(np.zeros(NX, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = misfit(bed_slip, surface, obs)
        tape.backward(loss)
        g = bed_slip.grad.numpy().copy()
        history.append((bed_slip.numpy().copy(), g))
        bed_slip.assign(bed_slip.numpy() - lr * g)
        tape.zero()
    print("slip", bed_slip.numpy())
    return history


if __name__ == "__main__":
    invert()
