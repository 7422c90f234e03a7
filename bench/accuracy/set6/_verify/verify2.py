import sys, contextlib, io, importlib
import numpy as np
import warp as wp
wp.config.quiet = True
from verify import fd, quiet, show
which = sys.argv[1:]

if "r01" in which:
    m = importlib.import_module("r01_view_pingpong"); N = m.N
    u0 = 0.2 + 0.1 * np.sin(np.linspace(0, 2 * np.pi, N))
    def f(rate):
        u = u0.copy()
        for t in range(m.STEPS):
            lap = np.roll(u, 1) - 2 * u + np.roll(u, -1)
            u = u + m.DT * (lap + rate * u * (1 - u))
        return np.sum((u - 0.5) ** 2)
    show("r01 drate", quiet(m.main), fd(f, np.linspace(0.5, 2.0, N), eps=1e-6))
if "r02" in which:
    N = 200; rng = np.random.default_rng(11)
    x = np.linspace(-1.0, 1.0, N).astype(np.float32)
    y = (0.5 - 1.0 * x + 2.0 * x * x + 0.1 * rng.standard_normal(N)).astype(np.float32)
    y[rng.choice(N, 6, replace=False)] += 8.0
    def f(c):
        r = c[0] + c[1] * x + c[2] * x * x - y; a = np.abs(r)
        return np.mean(np.where(a <= 1.0, 0.5 * r * r, a - 0.5))
    print("r02 FD at it0", fd(f, np.array([0.4, -0.8, 1.8]), eps=1e-6))
if "r03" in which:
    N = 40; rng = np.random.default_rng(2); xs = np.linspace(0, 1, N)
    data = np.sin(3 * xs) + 0.2 * rng.standard_normal(N)
    W = np.array([1.0, 0.1, 0.01])
    def terms(y):
        c = y[:-2] - 2 * y[1:-1] + y[2:]; s = np.diff(y)
        return np.array([np.sum((y - data) ** 2), np.sum(c * c), np.sum(np.sqrt(1 + s * s))])
    gw = fd(lambda y: W @ terms(y), np.zeros(N), eps=1e-6)
    g1 = fd(lambda y: np.ones(3) @ terms(y), np.zeros(N), eps=1e-6)
    print("r03 FD weighted obj grad[:4]", gw[:4], " ones-seeded (sum of terms) grad[:4]", g1[:4])
if "r04" in which:
    m = importlib.import_module("r04_vec_from_array_struct"); N = m.N
    rng = np.random.default_rng(4)
    xn = rng.uniform(-0.5, 1.0, size=(N, 3)); vn = rng.normal(size=(N, 3))
    def f(dmp):
        v = vn.copy(); v[:, 1] = v[:, 1] * dmp
        v[:, 1] = np.where(xn[:, 1] < 0.0, -0.6 * v[:, 1], v[:, 1])
        return 0.5 * np.sum(v * v)
    show("r04 ddamping", quiet(m.main), fd(f, np.full(N, 0.95), eps=1e-6))
if "r06" in which:
    m = importlib.import_module("r06_validation_before_backward"); N = m.N
    def f(drag):
        x = np.linspace(1.0, 3.0, N)
        for t in range(m.STEPS): x = x - m.DT * drag * x * np.abs(x)
        return np.sum((x - 0.5) ** 2)
    show("r06 ddrag", quiet(m.main), fd(f, np.full(N, 0.4), eps=1e-6))
if "r07" in which:
    m = importlib.import_module("r07_numpy_view_normalize"); K, T = m.K, m.T
    ts = np.linspace(0, 1, T); B = np.stack([np.sin((k + 1) * np.pi * ts) for k in range(K)])
    tgt = 0.7 * B[0] + 0.2 * B[2]
    show("r07 dw", quiet(m.main), fd(lambda w: np.sum(((w * w) @ B - tgt) ** 2), np.array([0.6, 0.5, 0.4, 0.3]), eps=1e-6))
if "r08" in which:
    m = importlib.import_module("r08_imported_substeps"); N = 16; S = m.SUBSTEPS
    def f(rate):
        x = np.linspace(0.5, 2.0, N)
        for s in range(S): x = x - (1.0 / S) * rate * x * x
        return np.sum((x - 0.4) ** 2)
    show("r08 drate", quiet(m.main), fd(f, np.full(N, 0.8), eps=1e-6))
if "r10" in which:
    m = importlib.import_module("r10_retain_grad_copy"); C = m.CELLS
    u = np.arange(C) / C - 0.5; ref = 1.3 * np.exp(-u * u / 0.05) + 0.4 * u * u
    show("r10 dstrength", quiet(m.main), fd(lambda s: np.sum((s[0] * np.exp(-u * u / 0.05) + s[1] * u * u - ref) ** 2), np.array([1.0, 0.2]), eps=1e-6))
if "r11" in which:
    m = importlib.import_module("r11_struct_window_truncation"); N = m.N
    def f(k):
        q = np.ones(N); qd = np.zeros(N); tot = 0.0
        for w in range(m.WINDOWS):
            for t in range(m.STEPS):
                qd = qd - m.DT * k * np.sin(q); q = q + m.DT * qd
            tot += np.sum(q * q)
        return tot
    show("r11 dk", quiet(m.main), fd(f, np.linspace(1.0, 3.0, N), eps=1e-6))
if "f01" in which:
    m = importlib.import_module("f01_const_inplace_damp"); N = m.N
    rng = np.random.default_rng(0); x0 = rng.normal(size=(N, 2)); v0 = np.tile([1.0, 2.0], (N, 1))
    def f(force):
        x, v = x0.copy(), v0.copy()
        for _ in range(m.STEPS):
            v = (v + m.DT * force) * m.DRAG; x = x + m.DT * v
        return np.sum((x - np.array([0.5, 0.0])) ** 2)
    gf, gv = quiet(m.main)
    show("f01 dforce", gf, fd(f, np.tile([0.0, -9.8], (N, 1)), eps=1e-6))
if "f04" in which:
    m = importlib.import_module("f04_nearest_dynamic_loop"); N, M = m.N, m.M
    rng = np.random.default_rng(6); x0 = rng.uniform(-1, 1, size=(N, 2)); a0 = rng.uniform(-1, 1, size=(M, 2))
    def f(x, a):
        d2 = ((x[:, None, :] - a[None, :, :]) ** 2).sum(-1); return d2.min(1).sum()
    gx, ga = quiet(m.main)
    show("f04 dx", gx, fd(lambda x: f(x, a0), x0, eps=1e-6))
    show("f04 danchors", ga, fd(lambda a: f(x0, a), a0, eps=1e-6))
