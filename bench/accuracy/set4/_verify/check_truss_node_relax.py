import numpy as np
from _harness import load, fd, report

NAME = "truss_node_relax"
m = load(NAME)
s0 = np.zeros((4, 2))
s0[2] = (0.1, 0.2)
s0[1] = (0.05, -0.03)
report(NAME, "correct", m.energy_grad(s0)[1], fd(lambda s: m.energy_grad(s)[0], s0))
