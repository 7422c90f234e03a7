import numpy as np
from _harness import load, fd, report

NAME = "portfolio_entropy"
FIX = [(NAME, "    ent = wp.where(p > 0.0, p * wp.log(p), 0.0)", "    ent = p * wp.log(wp.max(p, 1.0e-30))")]
m = load(NAME)
s0 = m.scores().astype(np.float64)
ret = np.linspace(0.05, 0.4, m.N)
ad = m.objective_grad(s0, ret)[1]
ref = fd(lambda s: m.objective_grad(s, ret)[0], s0)
mf = load(NAME, FIX, "fixed")
fad = mf.objective_grad(s0, ret)[1]
report(NAME, "nonfinite", ad, ref, fad, ref)
