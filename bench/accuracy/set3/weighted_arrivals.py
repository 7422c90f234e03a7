# correct: per-station loss array seeded by hand with .grad.assign(weights), matching the weighted objective that is reported
import numpy as np
import warp as wp


@wp.kernel
def travel_time_residual(
    stations: wp.array(dtype=wp.vec2),
    picks: wp.array(dtype=float),
    src: wp.array(dtype=wp.vec3),
    slowness: float,
    per_station: wp.array(dtype=float),
):
    i = wp.tid()
    s = src[0]  # x, y, origin time
    d = stations[i] - wp.vec2(s[0], s[1])
    t = s[2] + slowness * wp.sqrt(wp.dot(d, d) + 0.01)
    r = t - picks[i]
    per_station[i] = wp.log(1.0 + r * r)


rng = np.random.default_rng(19)
n = 10
stations_np = rng.uniform(-5.0, 5.0, (n, 2)).astype(np.float32)
true_src = np.array([1.0, -0.5, 0.3])
picks_np = (true_src[2] + 0.4 * np.sqrt(((stations_np - true_src[:2]) ** 2).sum(1) + 0.01) + 0.02 * rng.normal(size=n)).astype(np.float32)
quality = rng.uniform(0.2, 1.0, n).astype(np.float32)
weights_np = (quality / quality.sum()).astype(np.float32)

stations = wp.array(stations_np, dtype=wp.vec2)
picks = wp.array(picks_np, dtype=float)
src = wp.array([wp.vec3(0.0, 0.0, 0.0)], dtype=wp.vec3, requires_grad=True)
per_station = wp.zeros(n, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(travel_time_residual, dim=n, inputs=[stations, picks, src, 0.4], outputs=[per_station])

objective = float(np.dot(weights_np, per_station.numpy()))
per_station.grad.assign(weights_np)
tape.backward()

src_grad = src.grad.numpy()[0].copy()
print("weighted misfit", objective, "d/dsource", src_grad)
