import numpy as np
from _harness import load, fd, report

NAME = "antenna_array_gain"
m = load(NAME)
ang, mask = m.setup()
p0 = np.linspace(0.0, 0.5, m.N)
report(NAME, "correct", m.total_cost_grad(p0, ang, mask)[1], fd(lambda p: m.total_cost_grad(p, ang, mask)[0], p0))
