import numpy as np
from _harness import load, fd, report

NAME = "cart_pole_balance"
FIX = [(NAME, "        wp.copy(carry, states[-1])", "        with tape:\n            wp.copy(carry, states[-1])")]
g0 = np.array([15.0, 3.0])
m = load(NAME)
ad = m.rollout_grad(g0)[1]
ref = fd(lambda g: m.rollout_grad(g)[0], g0)
mf = load(NAME, FIX, "fixed")
fad = mf.rollout_grad(g0)[1]
report(NAME, "truncation", ad, ref, fad, ref)
