import numpy as np
from _harness import load, fd, report

NAME = "block_slide_contact"
FIX = [("_friction", "wp.log(1.0 + e) / k)  # expect", "wp.log(1.0 + e) / k) / k  # expect")]
m = load(NAME)
p0 = np.array([2.0, 20.0])
ad = m.run(p0)[1]
ref = fd(lambda p: m.run(p)[0], p0)
mf = load(NAME, FIX, "fixed")
fad = mf.run(p0)[1]
report(NAME, "custom_adjoint", ad, ref, fad, ref)
