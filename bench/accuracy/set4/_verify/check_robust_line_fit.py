import numpy as np
from _harness import load, fd, report

NAME = "robust_line_fit"
m = load(NAME)
x, y = m.data()
p0 = np.array([0.3, -0.1, 0.5])
report(NAME, "correct", m.loss_grad(p0, x, y)[1], fd(lambda p: m.loss_grad(p, x, y)[0], p0))
