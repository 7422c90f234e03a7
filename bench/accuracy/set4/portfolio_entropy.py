import numpy as np
import warp as wp

N = 8


@wp.kernel
def allocation(score: wp.array(dtype=wp.float32), temp: wp.float32, w: wp.array(dtype=wp.float32)):
    i = wp.tid()
    w[i] = score[i] * score[i] / temp


@wp.kernel
def objective(w: wp.array(dtype=wp.float32), ret: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    p = w[i]
    ent = wp.where(p > 0.0, p * wp.log(p), 0.0)  # expect: nonfinite
    wp.atomic_add(out, 0, 0.1 * ent - ret[i] * p + 0.5 * p * p)


def scores():
    return np.array([0.4, 0.0, 0.9, 0.1, 0.5, 0.3, 0.7, 0.2], dtype=np.float32)


def objective_grad(score_np, ret_np):
    score = wp.array(score_np, dtype=wp.float32, requires_grad=True)
    ret = wp.array(ret_np, dtype=wp.float32)
    w = wp.zeros(N, dtype=wp.float32, requires_grad=True)
    out = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(allocation, dim=N, inputs=[score, 2.0], outputs=[w])
        wp.launch(objective, dim=N, inputs=[w, ret], outputs=[out])
    tape.backward(out)
    return float(out.numpy()[0]), score.grad.numpy().copy()


def main():
    s = scores()
    ret = np.linspace(0.05, 0.4, N).astype(np.float32)
    for it in range(5):
        v, g = objective_grad(s, ret)
        print(f"iter {it}: objective={v:.5f} grad={g}")
        s = (s - 0.5 * g).astype(np.float32)


if __name__ == "__main__":
    main()
