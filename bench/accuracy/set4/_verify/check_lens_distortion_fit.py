import numpy as np
from _harness import load, fd, report

NAME = "lens_distortion_fit"
m = load(NAME)
pts, obs = m.make_points()
k0 = np.array([-0.1, 0.02])
report(NAME, "correct", m.loss_grad(k0, pts, obs)[1], fd(lambda k: m.loss_grad(k, pts, obs)[0], k0))
