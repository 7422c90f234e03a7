import numpy as np
from _harness import load, fd, report

NAME = "vibration_spectrum_fit"
m = load(NAME)
t, y = m.measurements()
p0 = np.array([0.5, 0.5, 0.1, 1.2])


def ad_of(p):
    _, ga, go = m.fit_grad(p[:3], p[3], t, y)
    return np.concatenate([ga, [go]])


report(NAME, "correct", ad_of(p0), fd(lambda p: m.fit_grad(p[:3], p[3], t, y)[0], p0))
