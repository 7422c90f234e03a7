import numpy as np
from _harness import load, fd, report

NAME = "bracket_shape_design"
m = load(NAME)
d = m.BracketDesign()
c0 = np.array([1.0, -0.3, 0.1])
d.grad(c0)
ad = d.grad(c0)[1]
report(NAME, "correct", ad, fd(lambda c: d.grad(c)[0], c0), note="2nd call")
