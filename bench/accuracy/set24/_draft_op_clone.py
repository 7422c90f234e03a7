"""Natural-draft stack flow on Warp, wrapped as a torch autograd op."""
import torch
import warp as wp

G, R_AIR, P_ATM, T_AMB = 9.81, 287.0, 101325.0, 288.0
AREA = 0.35                                                 # m^2


@wp.kernel
def stack_flow(p: wp.array(dtype=float), t_flue: wp.array(dtype=float), flow: wp.array(dtype=float)):
    i = wp.tid()
    rho_out = P_ATM / (R_AIR * T_AMB)
    rho_in = P_ATM / (R_AIR * t_flue[i])
    draft = G * 10.0 * p[1] * (rho_out - rho_in)           # Pa, effective height in 10 m
    flow[i] = 0.1 * p[0] * AREA * wp.sqrt(2.0 * draft / rho_in)


class StackFlow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, t_flue):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.t = wp.from_torch(t_flue)
        ctx.flow = wp.zeros(t_flue.shape[0], dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(stack_flow, dim=t_flue.shape[0], inputs=[ctx.p, ctx.t], outputs=[ctx.flow])
        return wp.to_torch(ctx.flow, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_flow):
        ctx.flow.grad.assign(wp.from_torch(adj_flow.contiguous()))
        ctx.tape.backward()
        grad_p = wp.to_torch(ctx.p.grad, requires_grad=False).clone()
        ctx.tape.zero()            # leave the tape clean in case backward runs again (retain_graph)
        return grad_p, None
