"""Forest inventory: fit the intrinsic growth rate and asymptotic height of a
logistic-type dominant-height model integrated year by year up to each plot's
stand age, against measured dominant heights."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

MAX_AGE = wp.constant(14)


@wp.kernel
def dominant_height(p: wp.array(dtype=float), age: wp.array(dtype=int), h0: wp.array(dtype=float),
                    h: wp.array(dtype=float)):
    i = wp.tid()
    n = age[i]
    x = h0[i]
    for y in range(n):  # expect: dynamic_loop
        if y < n:
            x = x + p[0] * x * (1.0 - wp.pow(x / p[1], 0.8))
    h[i] = x


AGE = np.array([6, 8, 9, 10, 11, 12, 13, 14, 7, 12], dtype=np.int32)
H0 = np.array([1.2, 1.0, 1.4, 1.1, 0.9, 1.3, 1.0, 1.2, 1.5, 0.8], dtype=np.float32)
AGE_W, H0_W = wp.array(AGE, dtype=int), wp.array(H0, dtype=float)


def heights(p_np):
    h = wp.zeros(len(AGE), dtype=float)
    wp.launch(dominant_height, dim=len(AGE), inputs=[wp.array(np.asarray(p_np, dtype=np.float32), dtype=float), AGE_W, H0_W],
              outputs=[h])
    return h.numpy().astype(np.float64)


H_OBS = heights([0.32, 28.0]) * (1 + 0.02 * np.cos(np.arange(len(AGE))))
PARAMS0 = np.array([0.28, 25.0])
FD_EPS = np.array([1e-4, 1e-2])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    h = wp.zeros(len(AGE), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dominant_height, dim=len(AGE), inputs=[p_w, AGE_W, H0_W], outputs=[h])
    r = h.numpy().astype(np.float64) - H_OBS
    tape.backward(grads={h: wp.array((2.0 * r).astype(np.float32), dtype=float)})
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"height misfit {L:.4f} m^2; grad [r, H_max] = {g}")
