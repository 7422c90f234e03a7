import numpy as np
from _harness import load, fd, report

NAME = "bridge_sag_design"
m = load(NAME)
k0 = np.linspace(50.0, 70.0, m.N - 1)
report(NAME, "correct", m.design_grad(k0)[1], fd(lambda k: m.design_grad(k)[0], k0, eps=1e-4))
