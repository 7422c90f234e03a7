import numpy as np
from _harness import load, fd, report

NAME = "crowd_repulsion"
FIX = [(NAME, "    r = wp.sqrt(wp.dot(d, d))", "    r = wp.length(d)")]
m = load(NAME)
p0, goal = m.initial_crowd()
p0 = p0.astype(np.float64)
ad = m.energy_and_grad(p0, goal)[1]
ref = fd(lambda p: m.energy_and_grad(p, goal)[0], p0)
mf = load(NAME, FIX, "fixed")
fad = mf.energy_and_grad(p0, goal)[1]
report(NAME, "nonfinite", ad, ref, fad, ref)
