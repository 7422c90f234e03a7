"""Scale readings by an optional calibration, chosen by a flag, with a conditional expression.

Both branches read `raw[i]`. Warp before 1.17 gives no gradient through such an expression
(NVIDIA/warp#1736): with the flag off, d loss / d raw comes out 0 instead of 2 raw.
"""

import numpy as np
import warp as wp


@wp.kernel
def calibrated_square(raw: wp.array(dtype=float), gain: wp.array(dtype=float), use_gain: wp.bool,
                      out: wp.array(dtype=float)):
    i = wp.tid()
    v = raw[i] / gain[i] if use_gain else raw[i]  # the conditional expression
    out[i] = v * v


raw = wp.array(np.array([2.0, 3.0, 1.5], dtype=np.float32), dtype=float, requires_grad=True)
gain = wp.array(np.array([4.0, 5.0, 2.0], dtype=np.float32), dtype=float, requires_grad=True)
out = wp.zeros(3, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(calibrated_square, dim=3, inputs=[raw, gain, False], outputs=[out])  # the launch
tape.backward(grads={out: wp.array(np.ones(3, dtype=np.float32), dtype=float)})
print("d out / d raw", raw.grad.numpy())
