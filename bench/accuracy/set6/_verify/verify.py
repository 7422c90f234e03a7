import sys, contextlib, io, importlib
import numpy as np
import warp as wp
wp.config.quiet = True

def fd(f, p0, eps=1e-3, idx=None):
    p0 = np.array(p0, dtype=np.float64)
    flat = p0.reshape(-1)
    idx = range(flat.size) if idx is None else idx
    g = np.zeros_like(flat)
    for k in idx:
        a = flat.copy(); a[k] += eps
        b = flat.copy(); b[k] -= eps
        g[k] = (f(a.reshape(p0.shape)) - f(b.reshape(p0.shape))) / (2 * eps)
    return g.reshape(p0.shape)

def quiet(fn, *a):
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*a)

def show(name, ad, fdv):
    ad = np.asarray(ad, dtype=np.float64).reshape(-1); fdv = np.asarray(fdv).reshape(-1)
    err = np.max(np.abs(ad - fdv)) / (np.max(np.abs(fdv)) + 1e-9)
    print(f"{name}: rel err {err:.3g}\n   AD {np.round(ad[:6],4)}\n   FD {np.round(fdv[:6],4)}")

which = sys.argv[1:]

if "b01" in which or "c01" in which:
    m = importlib.import_module("b01_overwrite_copy")
    N = m.N
    theta0 = np.linspace(0.3, 1.4, N).astype(np.float32)
    target = wp.array(np.full(N, 0.2, dtype=np.float32), dtype=float)
    def f(g):
        gain = wp.array(g.astype(np.float32), dtype=float)
        bank = m.PendulumBank(theta0, gain)
        loss = wp.zeros(1, dtype=float)
        for _ in range(m.STEPS): bank.step(m.DT)
        wp.launch(m.angle_loss, dim=N, inputs=[bank.theta, target], outputs=[loss])
        return float(loss.numpy()[0])
    show("b01 dloss/dgain", quiet(m.main), fd(f, np.full(N, 1.5)))
    c = importlib.import_module("c01_fresh_frames")  # episode 0 grad printed; same setup
if "b02" in which:
    m = importlib.import_module("b02_pingpong_alias")
    N = m.N
    u0 = np.linspace(0.0, 2.0, N).astype(np.float64)
    def roll(u, q0):
        q = q0.copy()
        for _ in range(m.FRAMES):
            q = q + m.DT * (u * q - q ** 3)
        return q
    q0 = np.full(N, 0.8)
    grads = quiet(m.main)
    # episode 0 gradient (fine) -> u1 ; episode 1 starts from end of episode 0
    g0 = fd(lambda u: np.sum((roll(u, q0) - 1.0) ** 2), u0)
    show("b02 episode0", grads[0], g0)
    u1 = u0 - 0.5 * grads[0]
    qe = roll(u0, q0)
    g1 = fd(lambda u: np.sum((roll(u, qe) - 1.0) ** 2), u1)
    show("b02 episode1 (warm start)", grads[1], g1)
if "b03" in which or "c10" in which:
    for name in [n for n in ("b03_requires_grad_struct", "c10_constant_weights") if n[:3] in which]:
        m = importlib.import_module(name)
        N = m.N
        x0 = (np.linspace(0.0, 1.0, N + 1) ** 1.1)
        def f(xv):
            x = wp.array(xv.astype(np.float32))
            mat = m.Material(); mat.stiffness = wp.array(np.linspace(1.0, 2.0, N, dtype=np.float32)); mat.softening = 0.5
            eps = wp.zeros(N, dtype=float); total = wp.zeros(1, dtype=float)
            wp.launch(m.strains, dim=N, inputs=[x, 1.0 / N], outputs=[eps])
            if name.startswith("b03"):
                sig = wp.zeros(N, dtype=float)
                wp.launch(m.stresses, dim=N, inputs=[eps, mat], outputs=[sig])
                wp.launch(m.energy, dim=N, inputs=[eps, sig], outputs=[total])
            else:
                w = wp.zeros(N, dtype=float)
                wp.launch(m.damage_weights, dim=N, inputs=[wp.array(np.linspace(0.0, 5.0, N, dtype=np.float32))], outputs=[w])
                wp.launch(m.energy, dim=N, inputs=[eps, w, mat], outputs=[total])
            return float(total.numpy()[0])
        show(name + " dE/dx", quiet(m.main), fd(f, x0, eps=1e-3))
if "b05" in which:
    m = importlib.import_module("b05_inplace_drag")
    def f(d):
        rng = np.random.default_rng(0)
        N = m.N
        x0 = wp.array(rng.normal(size=(N, 2)).astype(np.float32), dtype=wp.vec2)
        v0 = wp.array(np.tile([1.0, 2.0], (N, 1)).astype(np.float32), dtype=wp.vec2)
        force = wp.array(np.tile([0.0, -9.8], (N, 1)).astype(np.float32), dtype=wp.vec2)
        drag = wp.array(d.astype(np.float32), dtype=float)
        err = wp.zeros(1, dtype=float)
        x = m.rollout(x0, v0, force, drag)
        wp.launch(m.landing_error, dim=N, inputs=[x, wp.vec2(0.5, 0.0)], outputs=[err])
        return float(err.numpy()[0])
    show("b05 d/ddrag", [quiet(m.main)], fd(f, np.array([0.9])))
if "b06" in which or "c04" in which:
    for name in [n for n in ("b06_vec_component_factory", "c04_vec_components_once") if n[:3] in which]:
        m = importlib.import_module(name)
        N = m.N
        k = m.make_force_kernel(9.81)
        vel0 = np.linspace(-1.0, 1.0, N * 3).reshape(N, 3)
        lift0 = np.full(N, 10.0) if name.startswith("b06") else np.linspace(9.0, 11.0, N)
        def f(lv, vv):
            f_ = wp.zeros(N, dtype=wp.vec3); cost = wp.zeros(1, dtype=float)
            wp.launch(k, dim=N, inputs=[wp.array(vv.astype(np.float32), dtype=wp.vec3), wp.array(lv.astype(np.float32)), wp.vec3(2.0, 0.5, 0.0)], outputs=[f_])
            wp.launch(m.climb_cost, dim=N, inputs=[f_, 0.2], outputs=[cost])
            return float(cost.numpy()[0])
        gl, gv = quiet(m.main)
        show(name + " dlift", gl, fd(lambda l: f(l, vel0), lift0))
        show(name + " dvel", gv, fd(lambda v: f(lift0, v), vel0))
if "b07" in which or "c08" in which:
    for name in [n for n in ("b07_dynamic_loop_func", "b13_dynamic_loop_logsum", "c08_dynamic_loop_store") if n[:3] in which]:
        m = importlib.import_module(name)
        P = m.PERIODS
        r0 = np.linspace(0.02, 0.05, P)
        def f(r):
            g = np.cumprod(1.0 + r)
            return (np.sum(5.0 / g) - 40.0) ** 2
        show(name + " drates", quiet(m.main), fd(f, r0, eps=1e-6))
if "c11" in which:
    m = importlib.import_module("c11_retain_grad_once")
    PIX = m.PIX; u = np.arange(PIX) / PIX
    ref = sum(np.exp(-0.5 * ((u - c) / 0.05) ** 2) for c in (0.2, 0.5, 0.75))
    def f(c):
        img = sum(np.exp(-0.5 * ((u - c[b]) / w) ** 2) for b, w in enumerate([0.06, 0.05, 0.04]))
        return np.sum((img - ref) ** 2)
    show("c11 dcenters", quiet(m.main), fd(f, np.array([0.25, 0.45, 0.8]), eps=1e-6))
if "b09" in which or "c05" in which:
    mods = [n for n in ("b09_window_truncation", "c05_checkpoint_windows") if n[:3] in which]
    for name in mods:
        m = importlib.import_module(name)
        N = m.N
        def f(p):
            t = np.full(N, 15.0); tot = 0.0
            for w in range(m.WINDOWS):
                for s in range(m.STEPS):
                    lr_ = 0.2 * t + 0.01 * t * np.abs(t)
                    t = t + m.DT * (p - lr_)
                tot += np.sum((t - 20.0) ** 2)
            return tot
        show(name + " dpower", quiet(m.main), fd(f, np.linspace(3.0, 6.0, N), eps=1e-5))
if "b11" in which or "c06" in which:
    for name in [n for n in ("b11_custom_adjoint_module", "c06_custom_adjoint_ok") if n[:3] in which]:
        N = 50
        rng = np.random.default_rng(3)
        x = np.linspace(-2, 2, N).astype(np.float32)
        y = (1.5 * x - 0.3 + 0.05 * rng.standard_normal(N)).astype(np.float32); y[::10] += 4.0
        def f(ab):
            r = ab[0] * x + ab[1] - y
            return np.sum(np.sqrt(r * r + 0.25) - 0.5)
        out = io.StringIO()
        m = importlib.import_module(name)
        with contextlib.redirect_stdout(out):
            m.main()
        line = out.getvalue().splitlines()[0]
        print(name, "first iteration:", line)
        print("   FD", fd(f, np.array([0.0, 0.0]), eps=1e-6))
if "b12" in which or "c09" in which:
    SENSORS, READINGS = 4, 256
    rng = np.random.default_rng(7)
    sensor = rng.integers(0, SENSORS, READINGS)
    truth = rng.uniform(0.0, 1.0, READINGS).astype(np.float32)
    tg = np.array([0.8, 1.1, 0.95, 1.3], dtype=np.float32)
    raw = ((truth - 0.1 * tg[sensor] ** 2) / tg[sensor]).astype(np.float32)
    def r2(g):
        gg = g[sensor]; return (gg * raw + 0.1 * gg * gg - truth) ** 2
    print("grad at gains=1: FD of MEAN", fd(lambda g: np.mean(r2(g)), np.ones(4), eps=1e-6), " FD of SUM", fd(lambda g: np.sum(r2(g)), np.ones(4), eps=1e-6))
if "c03" in which:
    rng = np.random.default_rng(5)
    xs = rng.normal(size=(4, 32, 2)); ys = np.where(xs[..., 0] + 0.5 * xs[..., 1] > 0.2, 1.0, -1.0)
    def f(p):
        z = xs @ p[:2] + p[2]
        return np.sum(np.logaddexp(0, -ys * z))
    print("c03 FD of epoch-0 total loss wrt (w0,w1,b):", fd(f, np.array([0.3, -0.2, 0.1]), eps=1e-6),
          " -> step 0.01*g gives", np.array([0.3, -0.2, 0.1]) - 0.01 * fd(f, np.array([0.3, -0.2, 0.1]), eps=1e-6))
if "b02v" in which:
    pass
