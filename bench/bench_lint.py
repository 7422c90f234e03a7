"""Benchmark the static lint engine on a generated ~2,000-line Warp file.

    PYTHONPATH=server python bench/bench_lint.py [--runs 50] [--kernels 100] [--dump FILE]

The file mixes realistic kernels (particles, springs, losses, neighbour
queries, vector maths), a few of which trigger each TW3xx rule, plus host
code with tapes and launches.  Prints p50/p95/max wall time of
``lint_source`` in milliseconds and the number of findings per code.  The
language server lints on every change, so the target is p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import ast
import collections
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "server"))

from tapewatch.lint import ChunkParser, lint_source

HEADER = '''"""Generated benchmark input: a differentiable particle simulation."""

import numpy as np
import warp as wp

wp.set_module_options({"max_unroll": 16})

NUM_NEIGHBORS = 8
EPS = 1.0e-6


@wp.struct
class State:
    q: wp.array(dtype=wp.vec3)
    qd: wp.array(dtype=wp.vec3)
    f: wp.array(dtype=wp.vec3)


@wp.func
def spring_force(xa: wp.vec3, xb: wp.vec3, rest: float, ke: float):
    d = xb - xa
    l = wp.length(d)
    return ke * (l - rest) * d / wp.max(l, EPS)

'''

# Kernel templates: {n} is the kernel number.  Most are clean; the ones
# marked "# TW3xx" trigger a rule, as a real file under development would.
CLEAN = [
    '''
@wp.kernel
def integrate_{n}(q: wp.array(dtype=wp.vec3), qd: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                  inv_mass: wp.array(dtype=float), gravity: wp.vec3, dt: float,
                  q_out: wp.array(dtype=wp.vec3), qd_out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    v = qd[tid] + (f[tid] * inv_mass[tid] + gravity) * dt
    x = q[tid] + v * dt
    if x[1] < 0.0:
        x = wp.vec3(x[0], 0.0, x[2])
        v = wp.vec3(v[0], -0.5 * v[1], v[2])
    q_out[tid] = x
    qd_out[tid] = v
''',
    '''
@wp.kernel
def springs_{n}(q: wp.array(dtype=wp.vec3), indices: wp.array(dtype=int), rest: wp.array(dtype=float),
                ke: float, f: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    i = indices[tid * 2 + 0]
    j = indices[tid * 2 + 1]
    force = spring_force(q[i], q[j], rest[tid], ke)
    wp.atomic_add(f, i, force)
    wp.atomic_sub(f, j, force)
''',
    '''
@wp.kernel
def loss_{n}(q: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    tid = wp.tid()
    d = q[tid] - target
    total = float(0.0)
    for k in range(3):
        total += d[k] * d[k]
    wp.atomic_add(loss, 0, total)
''',
    '''
@wp.kernel
def neighbours_{n}(grid: wp.uint64, q: wp.array(dtype=wp.vec3), radius: float, f: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    x = q[tid]
    acc = wp.vec3()
    query = wp.hash_grid_query(grid, x, radius)
    for index in query:
        if index != tid:
            d = x - q[index]
            dist = wp.length(d)
            if dist < radius:
                acc += d * (radius - dist) / wp.max(dist, EPS)
    f[tid] = acc
''',
    '''
@wp.kernel
def frame_{n}(rot: wp.array(dtype=wp.quat), pos: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.transform)):
    tid = wp.tid()
    m = wp.mat33()
    for r in range(3):
        axis = wp.vec3()
        axis[r] = 1.0
        m[r] = wp.quat_rotate(rot[tid], axis)
    t = wp.transform(pos[tid], wp.quat_from_matrix(m))
    out[tid] = t
''',
    '''
@wp.kernel
def smooth_{n}(x: wp.array(dtype=float), y: wp.array(dtype=float), alpha: float):
    tid = wp.tid()
    a = x[tid]
    y[tid] = wp.where(a > 0.0, a, alpha * a) + wp.select(a < -1.0, a * a, -1.0)
''',
]

FAULTY = {
    "TW301": '''
@wp.kernel
def damp_{n}(qd: wp.array(dtype=wp.vec3), damping: wp.array(dtype=float)):
    tid = wp.tid()
    qd[tid] *= damping[tid]  # TW301
''',
    "TW302": '''
@wp.kernel
def pack_{n}(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    v = wp.vec3()
    v[0] = a[tid]
    v[1] = b[tid]
    v[0] = a[tid] * b[tid]  # TW302
    out[tid] = v
''',
    "TW303": '''
@wp.kernel
def weighted_{n}(x: wp.array(dtype=float), w: wp.array(dtype=float), loss: wp.array(dtype=float), n: int):
    s = float(0.0)
    norm = float(0.0)
    prod = float(1.0)
    for i in range(n):
        norm += w[i]  # TW303 (used after the loop)
        s += x[i] * w[i]  # TW303
        prod *= x[i]  # TW303
    wp.atomic_add(loss, 0, s / norm + prod)
''',
    "TW304": '''
@wp.kernel
def softplus_{n}(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    tid = wp.tid()
    v = x[tid]
    y[tid] = wp.where(v > 20.0, v, wp.log(1.0 + wp.exp(v)))  # TW304
''',
    "TW305": '''
@wp.kernel(enable_backward=False)  # TW305
def init_{n}(q: wp.array(dtype=wp.vec3), seed: int):
    tid = wp.tid()
    state = wp.rand_init(seed, tid)
    q[tid] = wp.vec3(wp.randf(state), wp.randf(state), wp.randf(state))
''',
}

HOST = '''

def simulate_{n}(model, states, loss, steps, dt):
    tape = wp.Tape()
    with tape:
        for i in range(steps):
            states[i].f.zero_()
            wp.launch(springs_{k}, dim=model.spring_count,
                      inputs=[states[i].q, model.spring_indices, model.spring_rest, model.ke],
                      outputs=[states[i].f])
            wp.launch(integrate_{k}, dim=model.particle_count,
                      inputs=[states[i].q, states[i].qd, states[i].f, model.inv_mass, model.gravity, dt],
                      outputs=[states[i + 1].q, states[i + 1].qd])
        wp.launch(loss_{k}, dim=model.particle_count, inputs=[states[steps].q, model.target], outputs=[loss])
        states[steps].q.zero_()  # TW306: the loss launch read it
    tape.backward(loss)
    return tape


def train_{n}(model, states, loss, steps, dt, iterations=100, lr=1.0e-2):
    history = []
    for it in range(iterations):
        loss.zero_()
        tape = simulate_{n}(model, states, loss, steps, dt)
        grad = model.spring_rest.grad.numpy()
        history.append(float(loss.numpy()[0]))
        rest = model.spring_rest.numpy() - lr * np.clip(grad, -1.0, 1.0)
        model.spring_rest.assign(rest)
        tape.zero()
        if it % 10 == 0:
            print("iteration", it, "loss", history[-1])
    return history
'''


def generate(kernels: int = 100) -> str:
    parts = [HEADER]
    faulty = list(FAULTY.values())
    for n in range(kernels):
        # One kernel in five is faulty; the rest cycle through the clean templates.
        template = faulty[(n // 5) % len(faulty)] if n % 5 == 4 else CLEAN[n % len(CLEAN)]
        parts.append(template.format(n=n))
    for n in range(kernels // 4):
        parts.append(HOST.format(n=n, k=(n * 6) % kernels))
    return "\n".join(parts)


def _load() -> str:
    try:
        return "%.2f" % os.getloadavg()[0]
    except (AttributeError, OSError):
        return "n/a"


def _percentiles(times) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    return "min %.1f  p50 %.1f  p95 %.1f  max %.1f" % (times[0], statistics.median(times), p95, times[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--kernels", type=int, default=100)
    ap.add_argument("--dump", help="also write the generated file here")
    args = ap.parse_args(argv)

    source = generate(args.kernels)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            fh.write(source)
    lint_source(source, "bench_input.py")  # warm-up: imports, caches
    wall, cpu = [], []
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        found = lint_source(source, "bench_input.py")
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    # The floor: Python's own parser on the same text (every lint pays it once),
    # with the cyclic GC paused as lint_source pauses it.
    parse = []
    for _ in range(args.runs):
        gc.disable()
        t0 = time.perf_counter()
        ast.parse(source)
        parse.append((time.perf_counter() - t0) * 1000.0)
        gc.enable()
    # As the editor lints: a ChunkParser kept between versions, each version one edit apart
    # (alternately a changed line and an inserted one, which moves everything below).
    parser = ChunkParser()
    lint_source(source, "bench_input.py", parser=parser)
    lines = source.splitlines(keepends=True)
    middle = next(n for n in range(len(lines) // 2, len(lines)) if lines[n].startswith("    ") and "=" in lines[n])
    chunked = []
    for r in range(args.runs):
        if r % 2:
            edited = lines[:middle] + ["    edit_%d = 1.0\n" % r] + lines[middle:]
        else:
            edited = lines[:middle] + [lines[middle].rstrip("\n") + "  # edit %d\n" % r] + lines[middle + 1:]
        text = "".join(edited)
        t0 = time.perf_counter()
        lint_source(text, "bench_input.py", parser=parser)
        chunked.append((time.perf_counter() - t0) * 1000.0)
    by_code = collections.Counter(f.code for f in found)
    print("input: %d lines, %d kernels; %d runs" % (source.count("\n") + 1, args.kernels, args.runs))
    # Wall time is what the editor waits for; CPU time shows the engine's own
    # cost when other processes compete for the cores.
    print("lint_source wall ms: %s" % _percentiles(wall))
    print("lint_source cpu  ms: %s" % _percentiles(cpu))
    print("ast.parse   wall ms: %s   (load average %s)" % (_percentiles(parse), _load()))
    print("lint_source with a ChunkParser, one edit per version, wall ms: %s" % _percentiles(chunked))
    print("findings: %d  %s" % (len(found), " ".join("%s=%d" % kv for kv in sorted(by_code.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
