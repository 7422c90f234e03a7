from common import *

g = run_prog("camera_pose.py")
L = g["landmarks_np"].astype(np.float64); R = g["R_np"].astype(np.float64); det = g["det_np"].astype(np.float64)
F, NEAR = g["FOCAL"], g["NEAR"]

def objective(t):
    pc = L @ R.T + t
    z = np.maximum(pc[:, 2:3], NEAR)
    uv = F * pc[:, :2] / z
    return np.sum(((uv - det) / F) ** 2)

p0 = np.zeros(3)
print("forward np", objective(p0), "warp", g["loss_value"])
fd = cfd(objective, p0, 1e-5)
record("camera_pose.py", "component_reassign", g["t_grad"], fd, note="pc.z = max(pc.z, near) reassigns a vec3 argument component")
gf = run_patched("camera_pose.py", [
    ("    pc.z = wp.max(pc.z, near)  # exp\x65ct: component_reassign\n    return wp.vec2(focal * pc.x / pc.z, focal * pc.y / pc.z)",
     "    z = wp.max(pc.z, near)\n    return wp.vec2(focal * pc.x / z, focal * pc.y / z)"),
])
record("camera_pose.py[fixed]", "correct", gf["t_grad"], fd, note="fixed variant: separate scalar")
