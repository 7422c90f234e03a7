"""Data-centre rack inlet temperatures (RackRow class): CRAC supply plus recirculation, then a hot-aisle containment retrofit copied in."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_RACK = 20
rng = np.random.default_rng(21)
POWER = rng.uniform(3.0, 12.0, N_RACK).astype(np.float32)  # kW
HEIGHT = rng.uniform(0.2, 1.0, N_RACK).astype(np.float32)
OBS_OPEN = (18.0 + 0.9 * POWER * HEIGHT).astype(np.float32)
OBS_CONT = (18.0 + 0.9 * 0.3 * POWER * HEIGHT + 0.2 * POWER).astype(np.float32)
PARAMS0 = [0.7, 0.5, 0.1]  # recirculation K/kW, containment leak fraction, bypass K/kW


@wp.kernel
def inlet_open(p: wp.array(dtype=float), power: wp.array(dtype=float), h: wp.array(dtype=float),
               out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = 18.0 + p[0] * power[i] * h[i]


@wp.kernel
def inlet_contained(p: wp.array(dtype=float), power: wp.array(dtype=float), h: wp.array(dtype=float),
                    out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = 18.0 + p[0] * p[1] * power[i] * h[i] + p[2] * power[i]


@wp.kernel
def probe(t: wp.array(dtype=float), reading: wp.array(dtype=float)):
    i = wp.tid()
    reading[i] = 0.98 * t[i] + 0.3


@wp.kernel
def sensor_loss(r: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = r[i] - 0.98 * obs[i] - 0.3
    wp.atomic_add(loss, 0, e * e / float(N_RACK))


class RackRow:
    def __init__(self, p):
        self.p = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        self.power = wp.array(POWER, dtype=float)
        self.h = wp.array(HEIGHT, dtype=float)
        self.inlet = wp.zeros(N_RACK, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
        self.retrofit = wp.zeros(N_RACK, dtype=float, requires_grad=True)
        self.read_open = wp.zeros(N_RACK, dtype=float, requires_grad=True)
        self.read_cont = wp.zeros(N_RACK, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def run(self):
        tape = wp.Tape()
        with tape:
            wp.launch(inlet_open, dim=N_RACK, inputs=[self.p, self.power, self.h], outputs=[self.inlet])
            wp.launch(probe, dim=N_RACK, inputs=[self.inlet], outputs=[self.read_open])
            wp.launch(inlet_contained, dim=N_RACK, inputs=[self.p, self.power, self.h], outputs=[self.retrofit])
            wp.copy(self.inlet, self.retrofit)
            wp.launch(probe, dim=N_RACK, inputs=[self.inlet], outputs=[self.read_cont])
            wp.launch(sensor_loss, dim=N_RACK, inputs=[self.read_open, wp.array(OBS_OPEN, dtype=float)], outputs=[self.loss])
            wp.launch(sensor_loss, dim=N_RACK, inputs=[self.read_cont, wp.array(OBS_CONT, dtype=float)], outputs=[self.loss])
        tape.backward(self.loss)
        return float(self.loss.numpy()[0]), self.p.grad.numpy().copy()


def evaluate(p):
    return RackRow(p).run()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.005 * g / (1.0 + np.linalg.norm(g))
    print("rack inlet loss", loss, "params", p)
