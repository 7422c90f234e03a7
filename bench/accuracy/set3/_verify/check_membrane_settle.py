from common import *

g = run_prog("membrane_settle.py")
N, S, M, DT, LOAD = g["N"], g["SETTLE_STEPS"], g["MEASURE_STEPS"], g["DT"], g["LOAD"]
meas = g["meas_np"].astype(np.float64)

def objective(p):
    h = np.zeros((N, N))
    for t in range(S + M):
        hn = np.zeros_like(h)
        c = h[1:-1, 1:-1]
        lap = h[:-2, 1:-1] + h[2:, 1:-1] + h[1:-1, :-2] + h[1:-1, 2:] - 4 * c
        gx = 0.5 * (h[2:, 1:-1] - h[:-2, 1:-1]); gy = 0.5 * (h[1:-1, 2:] - h[1:-1, :-2])
        te = p[0] * (1 + 2 * (gx * gx + gy * gy))
        hn[1:-1, 1:-1] = c + DT * (te * lap - LOAD)
        h = hn
    return np.sum((h - meas) ** 2)

p0 = np.array([1.2])
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-6)
record("membrane_settle.py", "truncation", [g["tension_grad"]], fd, note="15 settle steps launched before the tape")
gf = run_patched("membrane_settle.py", [
    ("# settle under load first\nfor t in range(SETTLE_STEPS):\n    wp.launch(relax, dim=(N, N), inputs=[fields[t], tension, LOAD], outputs=[fields[t + 1]])  # exp\x65ct: truncation\n\ntape = wp.Tape()\nwith tape:\n",
     "tape = wp.Tape()\nwith tape:\n    for t in range(SETTLE_STEPS):\n        wp.launch(relax, dim=(N, N), inputs=[fields[t], tension, LOAD], outputs=[fields[t + 1]])\n"),
])
record("membrane_settle.py[fixed]", "correct", [gf["tension_grad"]], fd, note="fixed variant: settle steps on the tape")
