"""FDM 3-D printer hot end: nozzle temperature under heater duty and filament feed; the melt kernel is pre-recorded as a launch command."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_LAYER = 24
rng = np.random.default_rng(25)
DUTY = rng.uniform(0.4, 0.9, N_LAYER).astype(np.float32)
FEED = rng.uniform(2.0, 12.0, N_LAYER).astype(np.float32)  # mm^3/s
OBS = (25.0 + 260.0 * DUTY - 4.0 * FEED).astype(np.float32)
PARAMS0 = [240.0, 3.0]  # heater gain K, melt cooling K per mm^3/s


@wp.kernel
def heater(p: wp.array(dtype=float), duty: wp.array(dtype=float), t: wp.array(dtype=float)):
    i = wp.tid()
    t[i] = 25.0 + p[0] * duty[i]


@wp.kernel
def melt_draw(p: wp.array(dtype=float), t: wp.array(dtype=float), feed: wp.array(dtype=float),
              t_out: wp.array(dtype=float)):
    i = wp.tid()
    t_out[i] = t[i] - p[1] * feed[i] * (1.0 + 0.001 * (t[i] - 200.0))


@wp.kernel
def misfit(t: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = (t[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, e * e / float(N_LAYER))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    t_block = wp.zeros(N_LAYER, dtype=float, requires_grad=True)
    t_nozzle = wp.zeros(N_LAYER, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    feed = wp.array(FEED, dtype=float)
    cmd = wp.launch(melt_draw, dim=N_LAYER, inputs=[params, t_block, feed], outputs=[t_nozzle], record_cmd=True)
    tape = wp.Tape()
    with tape:
        wp.launch(heater, dim=N_LAYER, inputs=[params, wp.array(DUTY, dtype=float)], outputs=[t_block])
        cmd.launch()  # expect: record_cmd
        wp.launch(misfit, dim=N_LAYER, inputs=[t_nozzle, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-2

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.5 * g / (1.0 + np.linalg.norm(g))
    print("nozzle loss", loss, "params", p)
