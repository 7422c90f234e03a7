import numpy as np
from _harness import load, fd, report

NAME = "camera_intrinsics_fit"
FIX = [("_camera", "    q[0] = q[0] + skew * q[1]", "    q = wp.vec3(q[0] + skew * q[1], q[1], q[2])")]
m = load(NAME)
pts, pix = m.make_scene()
p0 = np.array([1.2, 0.05])
ad = m.calibrate_step(p0, pts, pix)[1]
ref = fd(lambda p: m.calibrate_step(p, pts, pix)[0], p0)
mf = load(NAME, FIX, "fixed")
fad = mf.calibrate_step(p0, pts, pix)[1]
report(NAME, "component_reassign", ad, ref, fad, ref)
