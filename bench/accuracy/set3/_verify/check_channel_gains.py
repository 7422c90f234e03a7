from common import *

g = run_prog("channel_gains.py")
T, SR = g["T"], g["SR"]
tt = np.arange(T)[:, None]; fr = np.array([2.0, 3.0, 5.0, 7.0])[None, :]
base = np.sin(2 * np.pi * fr * tt / SR) + 0.3 * np.sin(6 * np.pi * fr * tt / SR)
ref = g["ref_np"].astype(np.float64)

def objective(gn):
    return np.mean(((base * gn).sum(axis=1) - ref) ** 2)

p0 = np.array([0.9, 1.1, 0.7, 1.2])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("channel_gains.py", "inplace_op", g["gain_grad"], fd, note="x[t,c] *= gain[c]")
gf = run_patched("channel_gains.py", [
    ("def apply_gain(x: wp.array2d(dtype=float), gain: wp.array(dtype=float)):", "def apply_gain(x: wp.array2d(dtype=float), gain: wp.array(dtype=float), y: wp.array2d(dtype=float)):"),
    ("    x[t, c] *= gain[c]  # exp\x65ct: inplace_op", "    y[t, c] = x[t, c] * gain[c]"),
    ("    wp.launch(apply_gain, dim=(T, C), inputs=[x, gain])\n    wp.launch(mix_down, dim=(T, C), inputs=[x], outputs=[mix])",
     "    y = wp.zeros_like(x)\n    wp.launch(apply_gain, dim=(T, C), inputs=[x, gain], outputs=[y])\n    wp.launch(mix_down, dim=(T, C), inputs=[y], outputs=[mix])"),
])
record("channel_gains.py[fixed]", "correct", gf["gain_grad"], fd, note="fixed variant: separate output")
