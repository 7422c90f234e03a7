"""Drinking-water network: calibrate bulk and wall chlorine decay coefficients
to grab samples at ten customer nodes; each node's supply path has its own
number of pipe segments (helper _water_net.py)."""
import numpy as np
import warp as wp

from _water_net import MAX_SEG, residual_chlorine

wp.config.quiet = True
wp.set_device("cpu")

N_NODE = 10
C_PLANT = 1.2     # mg/l leaving the plant
rng = np.random.default_rng(5)
N_SEG = np.array([2, 3, 4, 5, 6, 7, 8, 3, 5, 8], dtype=np.int32)
SEG_T = (rng.uniform(0.5, 3.0, (N_NODE, 8)) * (np.arange(8)[None, :] < N_SEG[:, None])).astype(np.float32)  # h
SEG_R = rng.uniform(0.05, 0.2, (N_NODE, 8)).astype(np.float32)   # m


@wp.kernel
def node_chlorine(p: wp.array(dtype=float), n_seg: wp.array(dtype=wp.int32), seg_time: wp.array2d(dtype=float),
                  seg_radius: wp.array2d(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    c[i] = residual_chlorine(1.2, p[0], p[1] * 0.01, n_seg[i], i, seg_time, seg_radius)


ARGS = [wp.array(N_SEG, dtype=wp.int32), wp.array(SEG_T, dtype=float), wp.array(SEG_R, dtype=float)]


def chlorine(p_np):
    c = wp.zeros(N_NODE, dtype=float)
    wp.launch(node_chlorine, dim=N_NODE, inputs=[wp.array(np.asarray(p_np, dtype=np.float32), dtype=float)] + ARGS,
              outputs=[c])
    return c.numpy().astype(np.float64)


OBS = chlorine([0.35, 0.8]) + 0.01 * np.cos(np.arange(N_NODE))
PARAMS0 = np.array([0.3, 0.7])
FD_EPS = 1e-3


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    c = wp.zeros(N_NODE, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(node_chlorine, dim=N_NODE, inputs=[p_w] + ARGS, outputs=[c])
    r = c.numpy().astype(np.float64) - OBS
    tape.backward(grads={c: wp.array((2.0 * r).astype(np.float32), dtype=float)})
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"chlorine misfit {L:.6f} (mg/l)^2; grad [k_bulk, k_wall] = {g}")
