import numpy as np
from _harness import load, fd, report

NAME = "smoke_wind_inverse"
FIX = [("_fluid_ops", 'wp.set_module_options({"enable_backward": False})', 'wp.set_module_options({"enable_backward": True})')]
m = load(NAME)
w0 = np.array([0.3, 0.1])
ad = m.wind_grad(w0)[1]
ref = fd(lambda w: m.wind_grad(w)[0], w0)
mf = load(NAME, FIX, "fixed")
fad = mf.wind_grad(w0)[1]
report(NAME, "adjoint_disabled", ad, ref, fad, ref)
