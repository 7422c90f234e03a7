"""Battery module thermal model on Warp, with buffers allocated once and reused per call."""
import torch
import warp as wp


@wp.kernel
def cell_temp_sse(p: wp.array(dtype=float), current: wp.array(dtype=float), pos: wp.array(dtype=float),
                  t_meas: wp.array(dtype=float), t_cool: float, sse: wp.array(dtype=float)):
    i = wp.tid()
    heat = current[i] * current[i] * p[0] * 1.0e-3           # W, R_int in mOhm
    r_th = p[1] * (1.0 + 0.35 * pos[i] * pos[i])              # cells further from the cold plate run hotter
    r = t_cool + heat * r_th - t_meas[i]
    wp.atomic_add(sse, 0, r * r)


class PackThermal:
    def __init__(self, n_cells, positions):
        self.n = n_cells
        self.pos = wp.array(positions, dtype=float)
        self.current = wp.zeros(n_cells, dtype=float)
        self.t_meas = wp.zeros(n_cells, dtype=float)
        self.sse = wp.zeros(1, dtype=float, requires_grad=True)
        self.p_grad = wp.zeros(2, dtype=float)

    def forward(self, params, current, t_meas, t_cool):
        self.current.assign(current)
        self.t_meas.assign(t_meas)
        self.sse.zero_()
        self.p_grad.zero_()
        self.p = wp.from_torch(params.detach(), grad=self.p_grad, requires_grad=True)
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(cell_temp_sse, dim=self.n, inputs=[self.p, self.current, self.pos, self.t_meas, t_cool],
                      outputs=[self.sse])
        return wp.to_torch(self.sse, requires_grad=False).clone() / self.n

    def backward(self, adj_loss):
        self.sse.grad.assign(wp.from_torch((adj_loss / self.n).contiguous()))
        self.tape.backward()
        return wp.to_torch(self.p_grad, requires_grad=False)  # expect: torch_interop


class ModuleLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, sim, current, t_meas, t_cool):
        ctx.sim = sim
        return sim.forward(params, current, t_meas, t_cool)

    @staticmethod
    def backward(ctx, adj_loss):
        return ctx.sim.backward(adj_loss), None, None, None, None
