import numpy as np
from _harness import load, fd, report

NAME = "sensor_bias_calibration"
FIX = [(NAME, "self.out = wp.clone(self.raw)", "self.out = wp.clone(self.raw, requires_grad=True)")]
m = load(NAME)
raw, ref_np = m.readings()
c0 = np.array([1.05, 0.02])


def run(mod, c):
    cal = mod.Calibration(raw, ref_np)
    cal.calib.assign(c)
    return cal.grad()


ad = run(m, c0)[1]
ref = fd(lambda c: run(m, c)[0], c0)
mf = load(NAME, FIX, "fixed")
fad = run(mf, c0)[1]
report(NAME, "requires_grad", ad, ref, fad, ref)
