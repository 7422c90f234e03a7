# correct: b09 near-miss: each line's seed is its own residual 2 (p - 40) / (N_LINE * 100).
"""Natural-gas pipeline: delivery pressures along a trunk line (Weymouth-like squared-pressure drop), mean delivery pressure minimised."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SEG = 10
N_LINE = 8
rng = np.random.default_rng(19)
FLOW = rng.uniform(0.6, 1.2, N_LINE).astype(np.float32)
LENGTH = rng.uniform(0.8, 1.2, N_SEG).astype(np.float32)
PARAMS0 = [70.0, 18.0]  # inlet pressure (bar), friction coefficient


@wp.kernel
def segment(p: wp.array(dtype=float), flow: wp.array(dtype=float), length: float,
            p_in: wp.array(dtype=float), p_out: wp.array(dtype=float)):
    i = wp.tid()
    drop = p[1] * length * flow[i] * flow[i]
    p_out[i] = wp.sqrt(p_in[i] * p_in[i] - drop * 10.0)


@wp.kernel
def inlet(p: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[wp.tid()] = p[0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    flow = wp.array(FLOW, dtype=float)
    press = [wp.zeros(N_LINE, dtype=float, requires_grad=True) for _ in range(N_SEG + 1)]
    tape = wp.Tape()
    with tape:
        wp.launch(inlet, dim=N_LINE, inputs=[params], outputs=[press[0]])
        for s in range(N_SEG):
            wp.launch(segment, dim=N_LINE, inputs=[params, flow, float(LENGTH[s]), press[s]], outputs=[press[s + 1]])
    delivered = press[-1].numpy().astype(np.float64)
    loss = float(np.mean((delivered - 40.0) ** 2)) / 100.0
    seed = wp.array((2.0 * (delivered - 40.0) / (N_LINE * 100.0)).astype(np.float32), dtype=float)
    tape.backward(grads={press[-1]: seed})
    return loss, params.grad.numpy().copy()


FD_EPS = [1e-2, 1e-2]

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.2 * g / (1.0 + np.linalg.norm(g))
    print("pipeline loss", loss, "params", p)
