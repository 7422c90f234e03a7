"""Learn a 3x3 blur and a tone-curve gain so that blur(tone(blur(img))) matches a reference.

The intermediate blur buffer is recycled for the second blur pass.
"""

import numpy as np
import warp as wp

from _imgops import image_mse, scatter_blur, test_pattern, tone_curve

wp.config.quiet = True
H, W = 12, 12

W_BLUR0 = np.full(9, 1.0 / 9.0, dtype=np.float32) + np.linspace(-0.02, 0.02, 9, dtype=np.float32)
PARAMS0 = np.concatenate([W_BLUR0, [1.3]]).astype(np.float64)


def build(p):
    weights = wp.array(p[:9].astype(np.float32), dtype=float, requires_grad=True)
    gain = wp.array(p[9:10].astype(np.float32), dtype=float, requires_grad=True)
    return weights, gain


def reference():
    w_true = np.array([0.05, 0.1, 0.05, 0.1, 0.4, 0.1, 0.05, 0.1, 0.05], dtype=np.float32)
    return np.concatenate([w_true, [2.0]])


def render(weights, gain, src, tape=None):
    tmp = wp.zeros((H, W), dtype=float, requires_grad=True)
    toned = wp.zeros((H, W), dtype=float, requires_grad=True)
    wp.launch(scatter_blur, dim=(H, W), inputs=[src, weights], outputs=[tmp])
    wp.launch(tone_curve, dim=(H, W), inputs=[tmp, gain], outputs=[toned])
    tmp.zero_()  # expect: overwrite
    wp.launch(scatter_blur, dim=(H, W), inputs=[toned, weights], outputs=[tmp])
    return tmp


def loss_and_grad(p, src, target):
    weights, gain = build(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        out = render(weights, gain, src)
        wp.launch(image_mse, dim=(H, W), inputs=[out, target, 1.0 / (H * W)], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([weights.grad.numpy(), gain.grad.numpy()]).astype(np.float64)
    return float(loss.numpy()[0]), g


def make_problem():
    src = wp.array(test_pattern(H, W), dtype=float)
    w_ref, g_ref = build(reference())
    target = render(w_ref, g_ref, src)
    return src, target


def evaluate(p):
    src, target = make_problem()
    return loss_and_grad(np.asarray(p), src, target)


if __name__ == "__main__":
    src, target = make_problem()
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = loss_and_grad(p, src, target)
        p -= 0.05 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f} gain {p[9]:.3f}")
    print("learned weights", np.round(p[:9], 3))
