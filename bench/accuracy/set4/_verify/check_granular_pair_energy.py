import numpy as np
from _harness import load, fd, report

NAME = "granular_pair_energy"
m = load(NAME)
p0 = m.grains().astype(np.float64)
report(NAME, "correct", m.energy_grad(p0)[1], fd(lambda p: m.energy_grad(p)[0], p0))
