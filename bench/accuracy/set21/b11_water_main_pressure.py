"""Water distribution main: nodal heads along a chain of pipes with
Hazen-Williams losses; the last nodes are pinned to the measured levels of
the downstream tank. Roughness and demand factor fitted to pressure loggers."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_NODE = 16
N_RES = 3
LENGTH = np.linspace(120.0, 400.0, N_NODE).astype(np.float32)
DIAM = np.linspace(0.3, 0.15, N_NODE).astype(np.float32)
RES_LEVEL = np.array([31.0, 30.8, 30.7], np.float32)


@wp.kernel
def node_heads(p: wp.array(dtype=float), length: wp.array(dtype=float), diam: wp.array(dtype=float),
               head: wp.array(dtype=float)):
    i = wp.tid()
    c_hw = p[0] * 100.0
    total = float(0.0)
    for k in range(N_NODE):
        if k <= i:
            q = 0.02 * p[1] * float(N_NODE - k) / float(N_NODE)
            total += 10.67 * length[k] * wp.pow(q / c_hw, 1.852) / wp.pow(diam[k], 4.87)
    head[i] = 55.0 - total


@wp.kernel
def logger_misfit(head: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = head[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class WaterMain:
    def __init__(self):
        self.length = wp.array(LENGTH, dtype=float)
        self.diam = wp.array(DIAM, dtype=float)
        self.res = wp.array(RES_LEVEL, dtype=float, requires_grad=True)  # tank-level sensitivity
        self.head = wp.zeros(N_NODE, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad

    def solve(self, params):
        wp.launch(node_heads, dim=N_NODE, inputs=[params, self.length, self.diam], outputs=[self.head])
        wp.copy(self.head, self.res, dest_offset=N_NODE - N_RES, src_offset=0, count=N_RES)
        return self.head


OBS = WaterMain().solve(wp.array([1.2, 1.1], dtype=float)).numpy() + np.where(np.arange(N_NODE) >= N_NODE - N_RES, 4.0, 0.4 * np.cos(np.arange(N_NODE))).astype(np.float32)
PARAMS0 = np.array([1.0, 1.3])


def evaluate(p):
    main = WaterMain()
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        head = main.solve(params)
        wp.launch(logger_misfit, dim=N_NODE, inputs=[head, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.002 * g / (1.0 + np.abs(g).max() * 0.01)
    print(f"loss {loss:.5f}  C_HW={100 * p[0]:.1f}  demand factor={p[1]:.3f}")
