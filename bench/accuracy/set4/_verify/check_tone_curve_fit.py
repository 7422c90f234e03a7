import numpy as np
from _harness import load, fd, report

NAME = "tone_curve_fit"
FIX = [(NAME, "    out[i, j] = wp.pow(img[i, j] + 0.05, gamma[0])\n    out[i, j] *= gain[i]",
        "    out[i, j] = wp.pow(img[i, j] + 0.05, gamma[0]) * gain[i]")]
m = load(NAME)
img, ref_img = m.make_images()
p0 = np.concatenate([np.linspace(0.9, 1.1, m.H), [0.9]])


def obj(mod, p):
    return mod.fit_step(p[:-1], p[-1:], img, ref_img)[0]


def ad_of(mod, p):
    _, gg, gm = mod.fit_step(p[:-1], p[-1:], img, ref_img)
    return np.concatenate([gg, gm])


ad = ad_of(m, p0)
ref = fd(lambda p: obj(m, p), p0)
mf = load(NAME, FIX, "fixed")
fad = ad_of(mf, p0)
report(NAME, "inplace_op", ad, ref, fad, ref)
