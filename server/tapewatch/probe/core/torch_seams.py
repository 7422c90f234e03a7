"""What the probe reads of PyTorch, in one place: it is never imported here, only reached through the
program's own ``torch`` module (``sys.modules``), so a program without PyTorch costs nothing."""

from __future__ import annotations

import sys
from typing import Any, Optional


def current_node() -> Optional[Any]:
    """The autograd node whose backward PyTorch runs now (a ``torch.autograd.Function``'s), or None."""
    torch = sys.modules.get("torch")
    current = getattr(getattr(torch, "_C", None), "_current_autograd_node", None)
    return current() if current is not None else None


def node_name(node) -> str:
    try:
        return str(node.name())
    except Exception:
        return type(node).__name__


def function_backward_frame(site) -> Optional[tuple]:
    """``(parameter name, value)`` of the incoming gradient of the user function named ``backward`` that
    made the call at ``site`` (a ``torch.autograd.Function``'s: ``def backward(ctx, adj_y)``), read from its
    live frame; None when the call is not made there or the value is not a tensor."""
    snap = site.primary
    if snap is None or snap.f_code.co_name != "backward" or snap.f_code.co_argcount < 2:
        return None
    frame: Optional[Any] = sys._getframe(1)
    while frame is not None and frame.f_code is not snap.f_code:
        frame = frame.f_back
    if frame is None:
        return None
    name = snap.f_code.co_varnames[1]
    value = frame.f_locals.get(name)
    return (name, value) if hasattr(value, "detach") and hasattr(value, "numel") else None


def before_optimizer_steps(hook) -> bool:
    """Call ``hook(optimizer)`` before every ``torch.optim`` optimizer's step (PyTorch's global step pre-hook);
    False when this PyTorch has none."""
    optim = sys.modules.get("torch.optim.optimizer")
    register = getattr(optim, "register_optimizer_step_pre_hook", None)
    if register is None:
        return False
    register(lambda optimizer, args, kwargs: hook(optimizer))
    return True
