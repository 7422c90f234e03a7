"""Launches reached through every call shape a program uses; each section
overwrites an array an earlier launch on the same tape read (a ping-pong),
so each must give one TW101 (TW102 for the copy) at its marked line.

Run by tests/probe/test_call_shapes.py under the probe and under plain Warp
with its tracker on: no internal error, no finding lost, and every warning
Warp prints is among the findings.
"""

import functools
from dataclasses import dataclass

import warp as wp

import call_shapes_helpers as helpers

N = 4


@wp.kernel
def advance(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 0.1 + wp.sin(x[i])  # (Warp marks a read only in a right operand)


@wp.kernel
def advance_tiled(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i, _j = wp.tid()
    y[i] = 0.1 + wp.sin(x[i])  # (Warp marks a read only in a right operand)


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])


def fresh():
    return wp.full(N, 0.5, dtype=float, requires_grad=True)


def differentiate(tape, x):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with tape:
        wp.launch(total, dim=N, inputs=[x], outputs=[loss])
    tape.backward(loss)


# 1. a plain helper function, called twice with the buffers swapped
def step(src, dst):
    wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # expect: TW101


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step(a, b)
    step(b, a)
differentiate(tape, a)


# 2. a bound method whose states list aliases its first and last entries
class Sim:
    def __init__(self):
        self.states = [fresh(), fresh()]
        self.states.append(self.states[0])  # rebinding: states[2] is states[0]

    def frame(self):
        for s in range(2):
            wp.launch(advance, dim=N, inputs=[self.states[s]], outputs=[self.states[s + 1]])  # expect: TW101


sim = Sim()
tape = wp.Tape()
with tape:
    sim.frame()
differentiate(tape, sim.states[2])


# 3. a classmethod and 4. a staticmethod
class Steps:
    @classmethod
    def by_class(cls, src, dst):
        wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # expect: TW101

    @staticmethod
    def by_static(src, dst):
        wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # expect: TW101


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    Steps.by_class(a, b)
    Steps().by_class(b, a)
differentiate(tape, a)
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    Steps.by_static(a, b)
    Steps.by_static(src=b, dst=a)
differentiate(tape, a)


# 5. *args and 6. **kwargs
def step_args(*arrays):
    wp.launch(advance, dim=N, inputs=[arrays[0]], outputs=[arrays[1]])  # expect: TW101


def step_kwargs(**arrays):
    wp.launch(advance, dim=N, inputs=[arrays["src"]], outputs=[arrays["dst"]])  # expect: TW101


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_args(a, b)
    step_args(*[b, a])
differentiate(tape, a)
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_kwargs(src=a, dst=b)
    step_kwargs(**{"src": b, "dst": a})
differentiate(tape, a)


# 7. keyword-only arguments
def step_kwonly(*, src, dst):
    wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # expect: TW101


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_kwonly(src=a, dst=b)
    step_kwonly(dst=a, src=b)
differentiate(tape, a)

# 8. functools.partial of wp.launch
launch_advance = functools.partial(wp.launch, advance, dim=N)
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    launch_advance(inputs=[a], outputs=[b])
    launch_advance(inputs=[b], outputs=[a])  # expect: TW101
differentiate(tape, a)

# 9. a lambda
step_lambda = lambda src, dst: wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # noqa: E731  # expect: TW101
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_lambda(a, b)
    step_lambda(b, a)
differentiate(tape, a)

# 10. a list comprehension
a, b = fresh(), fresh()
pairs = [(a, b), (b, a)]
tape = wp.Tape()
with tape:
    [wp.launch(advance, dim=N, inputs=[s], outputs=[d]) for s, d in pairs]  # expect: TW101
differentiate(tape, a)


# 11. a decorated helper
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@logged
def step_decorated(src, dst):
    wp.launch(advance, dim=N, inputs=[src], outputs=[dst])  # expect: TW101


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_decorated(a, b)
    step_decorated(b, a)
differentiate(tape, a)


# 12. a closure
def make_step(kernel):
    def inner(src, dst):
        wp.launch(kernel, dim=N, inputs=[src], outputs=[dst])  # expect: TW101
    return inner


step_closure = make_step(advance)
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    step_closure(a, b)
    step_closure(b, a)
differentiate(tape, a)


# 13. a generator
def rollout(src, dst, n):
    for _ in range(n):
        wp.launch(advance, dim=N, inputs=[src], outputs=[dst])
        src, dst = dst, src  # expect: TW101 (the swap hands each step the buffer the step before read)
        yield


a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    for _ in rollout(a, b, 2):
        pass
differentiate(tape, a)


# 14. arrays behind properties
class Buffers:
    def __init__(self):
        self._front, self._back = fresh(), fresh()

    @property
    def front(self):
        return self._front

    @property
    def back(self):
        return self._back

    def swap(self):
        self._front, self._back = self._back, self._front

    def step(self):
        wp.launch(advance, dim=N, inputs=[self.front], outputs=[self.back])  # expect: TW101
        self.swap()


bufs = Buffers()
tape = wp.Tape()
with tape:
    bufs.step()
    bufs.step()
differentiate(tape, bufs.front)

# 15. arrays held in a dict
state = {"x": fresh(), "y": fresh()}
tape = wp.Tape()
with tape:
    wp.launch(advance, dim=N, inputs=[state["x"]], outputs=[state["y"]])
    wp.launch(advance, dim=N, inputs=[state["y"]], outputs=[state["x"]])  # expect: TW101
differentiate(tape, state["x"])


# 16. arrays held in a dataclass, rebound between frames
@dataclass
class Pair:
    cur: wp.array
    nxt: wp.array


def advance_pair(p):
    wp.launch(advance, dim=N, inputs=[p.cur], outputs=[p.nxt])  # expect: TW101
    p.cur, p.nxt = p.nxt, p.cur


pair = Pair(fresh(), fresh())
tape = wp.Tape()
with tape:
    advance_pair(pair)
    advance_pair(pair)
differentiate(tape, pair.cur)

# 17. argument lists held in variables
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    for ins, outs in (([a], [b]), ([b], [a])):
        wp.launch(advance, dim=N, inputs=ins, outputs=outs)  # expect: TW101
differentiate(tape, a)

# 18. every argument by keyword, and 19. launch_tiled
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    wp.launch(kernel=advance, dim=N, inputs=[a], outputs=[b])
    wp.launch(kernel=advance, outputs=[a], inputs=[b], dim=N)  # expect: TW101
differentiate(tape, a)
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    wp.launch_tiled(advance_tiled, dim=[N], inputs=[a], outputs=[b], block_dim=1)
    wp.launch_tiled(kernel=advance_tiled, dim=[N], inputs=[b], outputs=[a], block_dim=1)  # expect: TW101
differentiate(tape, a)

# 20. a helper in another module, and 21. a method looked up by getattr
a, b = fresh(), fresh()
tape = wp.Tape()
with tape:
    helpers.step(advance, a, b)
    helpers.step(advance, b, a)
differentiate(tape, a)
sim2 = Sim()
tape = wp.Tape()
with tape:
    getattr(sim2, "frame")()
differentiate(tape, sim2.states[2])


# 22. a copy through a method
class Recorder:
    def __init__(self):
        self.prev = fresh()

    def remember(self, x):
        wp.copy(self.prev, x)  # expect: TW102


rec = Recorder()
x = wp.full(N, 1.5, dtype=float, requires_grad=True)  # new values (copying equal ones would be harmless)
out = fresh()
tape = wp.Tape()
with tape:
    wp.launch(advance, dim=N, inputs=[rec.prev], outputs=[out])
    rec.remember(x)
differentiate(tape, out)
