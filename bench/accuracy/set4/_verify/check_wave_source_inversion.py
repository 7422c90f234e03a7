import numpy as np
from _harness import load, fd, report

NAME = "wave_source_inversion"
m = load(NAME)
rec = m.record()
s0 = np.array([0.5, 0.1])
report(NAME, "correct", m.misfit_grad(s0, rec)[1], fd(lambda s: m.misfit_grad(s, rec)[0], s0))
