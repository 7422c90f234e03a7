import numpy as np
from _harness import load, fd, report

NAME = "cantilever_load_fit"
FIX = [(NAME, "force = wp.zeros(N, dtype=wp.vec2)", "force = wp.zeros(N, dtype=wp.vec2, requires_grad=True)")]
a0 = np.array([0.5, 1.0])
m = load(NAME)
ad = m.evaluate(a0)[1]
ref = fd(lambda a: m.evaluate(a)[0], a0)
mf = load(NAME, FIX, "fixed")
fad = mf.evaluate(a0)[1]
fref = fd(lambda a: mf.evaluate(a)[0], a0)
report(NAME, "requires_grad", ad, ref, fad, fref)
