import numpy as np
from _harness import load, fd, report

NAME = "thermistor_polyfit"
# fix: evaluate the polynomial in a wp.func (its adjoint replays the loop)
FIX = [(NAME, "@wp.kernel\ndef calibration_residual(",
        "@wp.func\ndef poly_eval(coeffs: wp.array(dtype=wp.float32), degree: wp.int32, t: wp.float32):\n"
        "    acc = coeffs[degree]\n    for k in range(degree - 1, -1, -1):\n        acc = acc * t + coeffs[k]\n    return acc\n\n\n"
        "@wp.kernel\ndef calibration_residual("),
       (NAME, "    acc = coeffs[degree]\n    for k in range(degree - 1, -1, -1):\n        acc = acc * t + coeffs[k]  # expect: dynamic_loop\n",
        "    acc = poly_eval(coeffs, degree, t)\n")]
m = load(NAME)
v, t = m.make_samples()
c0 = np.array([20.0, 25.0, -5.0, 1.0])
ad = m.residual_grad(c0, v, t)[1]
ref = fd(lambda c: m.residual_grad(c, v, t)[0], c0, eps=1e-5)
mf = load(NAME, FIX, "fixed")
fad = mf.residual_grad(c0, v, t)[1]
report(NAME, "dynamic_loop", ad, ref, fad, ref)
