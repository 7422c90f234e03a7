import numpy as np
import warp as wp

from _swe import Channel, gauge_errors, initial_surface, lax_friedrichs

wp.init()

PARAMS0 = [0.12, 0.5]

channel = Channel(steps=50)


def simulate(params, err):
    h = wp.zeros(channel.n, dtype=float, requires_grad=True)
    hu = wp.zeros(channel.n, dtype=float, requires_grad=True)
    wp.launch(initial_surface, dim=channel.n, inputs=[params, channel.dx], outputs=[h])
    for _ in range(channel.steps):
        h_new, hu_new = wp.empty_like(h), wp.empty_like(hu)
        wp.launch(lax_friedrichs, dim=channel.n, inputs=[h, hu, params, channel.dt, channel.dx],
                  outputs=[h_new, hu_new])
        h, hu = h_new, hu_new
    wp.launch(gauge_errors, dim=err.shape[0], inputs=[h, channel.gauges, channel.obs], outputs=[err])


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    err = wp.zeros(channel.gauges.shape[0], dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        simulate(params, err)
    misfit = float(err.numpy().mean())
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    return misfit, params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
