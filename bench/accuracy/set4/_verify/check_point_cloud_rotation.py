import numpy as np
from _harness import load, fd, report

NAME = "point_cloud_rotation"
FIX = [(NAME, "    pts -= pts.mean(axis=0)", "    pts = pts - pts.mean(axis=0)")]
p0 = np.array([0.1, 0.05, -0.05])
m = load(NAME)
src, tgt = m.make_clouds()
ad = m.align_step(p0, src, tgt)[1]
ref = fd(lambda p: m.align_step(p, src, tgt)[0], p0)
mf = load(NAME, FIX, "fixed")
fad = mf.align_step(p0, src, tgt)[1]
fref = fd(lambda p: mf.align_step(p, src, tgt)[0], p0)
report(NAME, "untaped_write", ad, ref, fad, fref)
