"""The tracker's semantics on small programs: what must be reported, the
benign look-alikes that must stay silent, and the captured tape graph."""

from __future__ import annotations

import asyncio
import textwrap


from conftest import EXAMPLES, line_of, markers
from tapewatch.model import TapeGraph
from tapewatch.runner import RunRequest, run_probe

PRELUDE = """\
import warp as wp

@wp.kernel
def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]

@wp.kernel
def shift(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] + 1.0

@wp.kernel
def accumulate(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 1.0
    x[i] += y[i]
    wp.atomic_add(x, i, y[i])

a = wp.ones(4, requires_grad=True)
b = wp.zeros(4, requires_grad=True)
c = wp.zeros(4, requires_grad=True)
"""


def findings(tmp_path, body, python, stale_flags=False):
    """(code, line in ``body``, array) of each finding; Warp's stale-flag notes (TW107) only on request."""
    path = tmp_path / "prog.py"
    path.write_text(PRELUDE + textwrap.dedent(body))
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    assert result.outcome == "ok", result.findings
    offset = PRELUDE.count("\n")
    for f in result.findings:
        if f.code == "TW107":
            assert f.severity == "information" and "No gradient is affected" in f.message
    return [(f.code, f.location.line - offset, f.data.get("array")) for f in result.findings
            if stale_flags or f.code != "TW107"]


def test_writes_warp_tracks_less(tmp_path, python):
    got = findings(tmp_path, """\
        tape = wp.Tape()
        with tape:
            wp.launch(shift, dim=4, inputs=[a], outputs=[b])
            a.assign(c)
            wp.launch(shift, dim=4, inputs=[c], outputs=[a])
            c.fill_(3.0)
            d = wp.clone(c)
        """, python)
    # `shift` is the kernel whose read of x Warp misses; the clone writes a fresh array.
    assert sorted(got) == [("TW101", 5, "a"), ("TW102", 4, "a"), ("TW103", 6, "c")]


def test_benign_look_alikes_stay_silent(tmp_path, python):
    assert findings(tmp_path, """\
        # write-then-read and accumulation inside one kernel; zero before reading;
        # writes outside any tape; a reused tape reset between iterations.
        tape = wp.Tape()
        for it in range(3):
            with tape:
                c.zero_()
                wp.launch(accumulate, dim=4, inputs=[c, b])
                wp.launch(double, dim=4, inputs=[c], outputs=[a])
            wp.launch(double, dim=4, inputs=[a], outputs=[c])  # not taped
            tape.reset()
        """, python) == []


def test_reads_are_per_tape_and_forgotten_at_backward(tmp_path, python):
    got = findings(tmp_path, """\
        loss = wp.zeros(4, requires_grad=True)
        for it in range(3):
            tape = wp.Tape()
            with tape:
                wp.launch(double, dim=4, inputs=[a], outputs=[b])
                wp.launch(double, dim=4, inputs=[b], outputs=[loss])
            tape.backward(grads={loss: wp.ones(4)})
            tape.zero()  # (without it, TW202: a.grad would sum over iterations while a changes)
            with wp.Tape():
                wp.launch(double, dim=4, inputs=[loss], outputs=[a])  # another tape: a was not read on it
        """, python)
    assert got == []


def test_warps_stale_read_flags_are_kept_as_information(tmp_path, python):
    # Warp's read flags are global: writing `a`, read on another tape that was never
    # differentiated, makes Warp warn (every version). Tapewatch keeps the warning as a note.
    got = findings(tmp_path, """\
        with wp.Tape():
            wp.launch(double, dim=4, inputs=[a], outputs=[b])
        with wp.Tape():
            wp.launch(double, dim=4, inputs=[c], outputs=[a])
        """, python, stale_flags=True)
    assert got == [("TW107", 4, "a")]


def test_aliasing_one_launch(tmp_path, python):
    got = findings(tmp_path, """\
        with wp.Tape():
            wp.launch(double, dim=4, inputs=[a], outputs=[a])
        """, python)
    assert got == [("TW105", 2, "a")]


def test_tape_graph_of_an_example(python):
    path = EXAMPLES / "pingpong_helper.py"
    m = markers(path)
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    [tape] = result.tapes
    assert tape.captured_at == "backward" and tape.location.line == line_of(path, "tape = wp.Tape()")
    launches = [n for n in tape.nodes if n.kind == "launch"]
    assert [(n.label, n.location.line) for n in launches] == (
        [("integrate", m["expect:TW101"][0])] * 6 + [("height_loss", line_of(path, "wp.launch(height_loss"))])
    arrays = {n.label: n for n in tape.nodes if n.kind == "array"}
    assert set(arrays) == {"a.q", "b.q", "velocity", "loss"}
    assert all(n.requires_grad for n in arrays.values())
    assert arrays["velocity"].finding_ids == []
    ids = {f.data["array"]: f.id for f in result.findings}
    assert arrays["a.q"].finding_ids == [ids["a.q"]]
    # Every edge joins two listed nodes: clients draw the graph from these ids alone.
    node_ids = [n.id for n in tape.nodes]
    assert len(set(node_ids)) == len(node_ids)
    assert {e.source for e in tape.edges} | {e.target for e in tape.edges} <= set(node_ids)
    kinds = {(e.source, e.target, e.kind) for e in tape.edges}
    assert (arrays["a.q"].id, launches[0].id, "read") in kinds
    assert (launches[0].id, arrays["b.q"].id, "write") in kinds


def test_identical_tapes_are_drawn_once_and_counted(python):
    """A tape per window records the same launches each time: one graph, and how many tapes it stands for."""
    path = EXAMPLES / "tape_per_window.py"
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    [tape] = result.tapes
    assert tape.repeats == 1 + result.tapes_skipped == 3
    assert TapeGraph.from_json(tape.to_json()).repeats == 3


def test_never_differentiated_tape_is_captured_at_exit(tmp_path, python):
    path = tmp_path / "p.py"
    path.write_text(PRELUDE + "with wp.Tape():\n    wp.launch(double, dim=4, inputs=[a], outputs=[b])\n")
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    assert [(t.captured_at, len(t.nodes)) for t in result.tapes] == [("exit", 3)]


def test_injected_labels_round_trip_as_plain_data():
    """User names reach the clients as JSON strings, never spliced into a drawing language."""
    import json

    from tapewatch.model import GraphEdge, GraphNode

    evil = 'x"];\n evil [label="<img src=x onerror=alert(1)>'
    graph = TapeGraph("t1", evil, "exit",
                      nodes=[GraphNode("a1", "array", evil, names=[evil]), GraphNode("l1", "launch", evil)],
                      edges=[GraphEdge("a1", "l1", "read", evil)])
    sent = json.loads(json.dumps(graph.to_json()))
    assert TapeGraph.from_json(sent) == graph
    assert sent["label"] == sent["nodes"][0]["label"] == sent["nodes"][0]["names"][0] == evil
    assert sent["edges"][0]["arg"] == evil
    assert "dot" not in sent


def test_arrays_rewritten_before_read_are_part_of_the_kernel_facts():
    """Truncation asks which arrays a launch stores before reading: computed once per kernel."""
    from tapewatch.probe.core.kernel_access import analyze_source

    access = analyze_source(textwrap.dedent("""\
        def k(x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array(dtype=float)):
            i = wp.tid()
            x[i] = 1.0
            y[i] = 2.0 * x[i]
            z[i] = z[i] + y[i]
        """), 10)
    # x and y are stored, then read; z is read first (it continues from its old values).
    assert access.rewritten_first == frozenset({"x", "y"})


def test_component_stores_and_nested_kernels(tmp_path, python):
    got = findings(tmp_path, """\
        @wp.kernel
        def set_x(y: wp.array(dtype=wp.vec3), x: wp.array(dtype=float)):
            i = wp.tid()
            y[i].x = x[i]   # a component store writes y, it does not read it

        def make():
            @wp.kernel
            def scale_in_place(x: wp.array(dtype=float)):
                i = wp.tid()
                t = x[i]
                x[i] = t * 2.0
            return scale_in_place

        y = wp.zeros(4, dtype=wp.vec3, requires_grad=True)
        with wp.Tape():
            wp.launch(set_x, dim=4, inputs=[y, a])
            wp.launch(set_x, dim=4, inputs=[y, b])
            wp.launch(make(), dim=4, inputs=[c])
        """, python)
    # The nested kernel is named as written, not by its mangled key.
    assert got == [("TW104", 11, None)]


def test_pending_tapes_are_bounded():
    from tapewatch.probe.core.registry import FindingRegistry
    from tapewatch.probe.core.tracker import MAX_PENDING_TAPES, Tracker

    class Tape:
        pass

    tracker = Tracker(wp=None, registry=FindingRegistry(lambda *a, **k: None))
    tapes = [Tape() for _ in range(MAX_PENDING_TAPES * 3)]
    for t in tapes:
        tracker.tape_state(t)
    assert tracker.pending_tapes() == tapes[-MAX_PENDING_TAPES:]
    tracker.differentiated(tapes[-1])
    assert tapes[-1] not in tracker.pending_tapes()


def test_a_launchs_readers_follow_every_recorded_read_and_reset():
    # readers_of remembers its answer for one launch (asked before it runs and as Warp records it):
    # a read recorded since, or the reads forgotten, must be seen at once.
    import warp as wp

    from tapewatch.probe.core.registry import FindingRegistry
    from tapewatch.probe.core.sites import Site
    from tapewatch.probe.core.records import Access, LaunchRecord, TapeState
    from tapewatch.probe.core.tracker import Tracker

    class Tape:
        pass

    tracker = Tracker(wp=wp, registry=FindingRegistry(lambda *a, **k: None))
    state, tape = TapeState(1, Site([])), Tape()
    a = wp.zeros(4, dtype=float, device="cpu")
    view = a[1:3]  # the same memory, another array

    def readers(arr):
        return [(e.record.index, alias) for e, alias in tracker.readers_of(state, arr)]

    assert readers(a) == [] and readers(view) == []
    first = LaunchRecord(1, None, Site([]), [a], [Access(0, "", a, True, False)], 0)
    tracker.remember_read(tape, state, a, first, first.accesses[0])
    assert readers(a) == [(1, False)] and readers(view) == [(1, True)]
    second = LaunchRecord(2, object(), Site([]), [view], [Access(0, "", view, True, False)], 1)
    tracker.remember_read(tape, state, view, second, second.accesses[0])
    assert readers(a) == [(2, True), (1, False)]
    state.clear_reads()
    assert readers(a) == [] and readers(view) == []


def test_requires_grad_chain_break(python):
    path = EXAMPLES / "missing_requires_grad.py"
    m = markers(path)
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    [f] = result.findings
    assert (f.code, f.location.line) == ("TW201", m["expect:TW201"][0])
    assert f.data["array"] == "forces" and f.data["upstream"] == "v0`, `drag_coefficient"
    assert [(r.role, r.location.line) for r in f.related] == [
        ("writer", line_of(path, "wp.launch(drag,")), ("reader", line_of(path, "wp.launch(integrate,"))]


def test_arrays_without_gradient_that_are_fine(tmp_path, python):
    assert findings(tmp_path, """\
        @wp.kernel
        def flags(x: wp.array(dtype=float), f: wp.array(dtype=int)):
            i = wp.tid()
            f[i] = wp.where(x[i] > 0.5, 1, 0)

        @wp.kernel
        def masked(x: wp.array(dtype=float), f: wp.array(dtype=int), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = x[i] * float(f[i])

        mask = wp.zeros(4, dtype=int)             # an int array: nothing to differentiate
        weights = wp.full(4, 2.0, dtype=float)    # a float constant computed from constants
        plain = wp.zeros(4, dtype=float)
        with wp.Tape():
            wp.launch(flags, dim=4, inputs=[a], outputs=[mask])
            wp.launch(masked, dim=4, inputs=[a, mask], outputs=[b])
            wp.launch(double, dim=4, inputs=[weights], outputs=[plain])
            wp.launch(masked, dim=4, inputs=[plain, mask], outputs=[c])
        """, python) == []


def test_gradients_not_zeroed_between_steps(python):
    path = EXAMPLES / "missing_tape_zero.py"
    m = markers(path)
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    [f] = result.findings
    assert (f.code, f.location.line, f.count) == ("TW202", m["expect:TW202"][0], 3)  # iterations 2, 3 and 4
    # On the fresh tape made each iteration (a new tape zeroes nothing); the backward() that adds is related.
    assert [(r.role, r.location.line) for r in f.related] == [
        ("backward", m["backward"][0]), ("previous-backward", m["backward"][0]), ("reader", m["reader"][0]),
        ("allocation", m["alloc"][0])]


def test_intentional_accumulation_is_not_a_missing_zero(tmp_path, python):
    """Several backward passes before one step (a tape per window, mini-batches) leave the parameter unchanged."""
    assert findings(tmp_path, """\
        for step in range(2):
            for batch in range(3):
                out = wp.zeros(4, requires_grad=True)
                tape = wp.Tape()
                with tape:
                    wp.launch(double, dim=4, inputs=[a], outputs=[out])
                tape.backward(grads={out: wp.ones(4)})
            wp.launch(double, dim=4, inputs=[a.grad], outputs=[b])  # an update computed from the sum...
            a.assign(b)                                             # ...applied once per step
            tape.zero()
        """, python) == []


CLAMP = """\
@wp.kernel
def clamp_low(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.max(x[i], 0.0)

@wp.kernel
def unused(x: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    x[i] = v * v
"""


def test_warps_codegen_warnings_for_kernels_off_the_tape_are_information(tmp_path, python):
    """Warp warns at codegen for every kernel of a module: one launched only outside a tape, or never,
    is reported as information on its statement (nothing Warp prints is lost); a later taped launch
    makes it the warning, once."""
    off = findings(tmp_path, CLAMP + textwrap.dedent("""\
        wp.launch(clamp_low, dim=4, inputs=[a])
        """), python)
    assert sorted(off) == [("TW104", 4, None), ("TW104", 10, None)]
    both = findings(tmp_path, CLAMP + textwrap.dedent("""\
        wp.launch(clamp_low, dim=4, inputs=[a])
        tape = wp.Tape()
        with tape:
            wp.launch(clamp_low, dim=4, inputs=[b])
        """), python)
    assert sorted(both) == [("TW104", 4, None), ("TW104", 10, None)]
    path = tmp_path / "prog.py"
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python)))
    severity = {f.location.line - PRELUDE.count("\n"): f.severity for f in result.findings if f.code == "TW104"}
    assert severity == {4: "warning", 10: "information"}


def test_accumulations_after_a_read_are_kept_with_whether_the_adjoint_needs_the_read():
    """``+=`` and atomics need no old value; after a read of the same array they matter exactly when the
    adjoint uses what was read (the backward pass replays the forward code on the updated array)."""
    from tapewatch.probe.core.kernel_access import analyze_source

    access = analyze_source(textwrap.dedent("""\
        def k(a: wp.array(dtype=float), b: wp.array(dtype=float), c: wp.array(dtype=float),
              d: wp.array(dtype=float), t: int):
            i = wp.tid()
            v = wp.sin(a[i])
            wp.atomic_add(a, i, v)
            b[i] += b[i] * b[i]
            c[i] += 2.0
            wp.atomic_add(d, t + 1, wp.exp(d[t]))
            wp.atomic_add(c, i, c[i])
        """), 10)
    kept = {(w.param, w.line, w.read_line, w.op) for w in access.accumulated_after_read}
    assert kept == {("a", 14, 13, "atomic_add"), ("b", 15, 15, "+="), ("d", 17, 17, "atomic_add"),
                    ("c", 18, 18, "atomic_add")}
    assert access.adjoint_uses("a") and access.adjoint_uses("b") and not access.adjoint_uses("c")
    # d[t] is read and d[t + 1] written: no element read is updated.
    assert access.reads_apart_from_writes("d") and not access.reads_apart_from_writes("a")


def test_a_ones_seed_is_wrong_for_a_used_mean_not_for_a_logged_rms_or_a_sum_taken_too(tmp_path, python):
    """TW204 reads the objective from the program: its mean (seed 1/N, so ones is N times off), but not a
    root-mean-square metric, nor a mean beside the sum the seed differentiates."""
    body = """\
        import numpy as np
        tape = wp.Tape()
        with tape:
            wp.launch(double, dim=4, inputs=[a], outputs=[c])
        tape.backward(grads={c: wp.ones(4)})
        %s
        """
    mean = findings(tmp_path, body % "print(c.numpy().mean())", python)
    assert [f[:2] for f in mean if f[0] == "TW204"] == [("TW204", 5)]
    for logged in ("print(np.sqrt(c.numpy().mean()))", "print(np.sum(c.numpy()), c.numpy().mean())"):
        assert not [f for f in findings(tmp_path, body % logged, python) if f[0] == "TW204"], logged


def test_a_backward_inside_a_graph_capture_reads_no_values(tmp_path, python):
    """No value may be read back during a graph capture (on CUDA it would break the capture): the
    sensors that measure values stand aside there. Warp records CPU captures too (APIC; before 1.19 a CPU
    device does not say ``is_capturing``); where no capture starts the same program is measured as usual."""
    flag = tmp_path / "captured"
    body = """\
        import numpy as np
        tape = wp.Tape()
        seed = wp.ones(4)
        with wp.ScopedCapture(device="cpu") as capture:
            with tape:
                wp.launch(double, dim=4, inputs=[a], outputs=[c])
            recording = getattr(wp._src.context.runtime, "_apic_capture", None) is not None
            if recording or wp.get_device("cpu").is_capturing:
                open(%r, "w").close()
            tape.backward(grads={c: seed})
        if capture.graph is not None:
            wp.capture_launch(capture.graph)
        print(c.numpy().mean())
        """ % str(flag)
    seeds = [f[:2] for f in findings(tmp_path, body, python) if f[0] == "TW204"]
    assert seeds == ([] if flag.exists() else [("TW204", 9)])


def test_an_overwrite_through_a_rebound_list_entry_sits_on_the_rebinding(python):
    """``states[0] = states[-1]`` makes two entries one array: that is the line to change (the launch is
    right for two arrays); the message says so and the launch is related."""
    script = EXAMPLES / "rebinding_alias.py"
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python)))
    [finding] = [f for f in result.findings if f.code == "TW101"]
    assert "`states[0] = states[-1]` made two entries one array" in finding.message
    assert finding.location.line == line_of(script, "states[0] = states[-1]  # the rebinding")
    launch = line_of(script, "outputs=[states[f + 1]])")
    assert [r.location.line for r in finding.related if r.role == "writer"] == [launch]


def test_a_thread_writing_ahead_of_its_reads_in_an_ascending_loop_overwrites_nothing_it_read():
    """``trans[i, s + 1] = trans[i, s] * a`` in ``for s in range(n)``: each element is stored before the
    iteration that reads it. Writing behind (``x[i, s] = x[i, s + 1]``), a descending loop, a shared
    row or a reassigned loop variable can overwrite what was read."""
    from tapewatch.probe.core.kernel_access import analyze_source

    def apart(body, header="for s in range(n):"):
        source = "def k(x: wp.array2d(dtype=float), n: int):\n    i = wp.tid()\n    %s\n%s" % (
            header, textwrap.indent(textwrap.dedent(body), "        "))
        return analyze_source(source, 1).reads_apart_from_writes("x")

    assert apart("x[i, s + 1] = x[i, s] * 0.5\n")
    assert apart("x[i, s + 2] = x[i, s] + x[i, s + 1]\n")
    assert not apart("x[i, s] = x[i, s + 1] * 0.5\n")
    assert not apart("x[i, s + 1] = x[i, s] * 0.5\n", "for s in range(n, 0, -1):")
    assert not apart("x[0, s + 1] = x[0, s] * 0.5\n")
    assert not apart("x[i, s + 1] = x[i, s] * 0.5\ns = s + 1\n")


def test_a_kernel_using_an_atomics_result_is_not_relaunched_by_the_launch_check(tmp_path, python):
    """A slot counter has moved on by backward(): relaunched, the kernel claims other slots, so the
    per-launch check says it skipped that kernel instead of measuring nothing (even with a
    ``@wp.func_replay`` that makes the gradient right)."""
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent("""\
        import numpy as np
        import warp as wp

        @wp.func
        def claim(count: wp.array(dtype=int), slots: wp.array(dtype=int), i: int):
            s = wp.atomic_add(count, 0, 1)
            slots[i] = s
            return s

        @wp.func_replay(claim)
        def replay_claim(count: wp.array(dtype=int), slots: wp.array(dtype=int), i: int):
            return slots[i]

        @wp.kernel
        def compact(x: wp.array(dtype=float), count: wp.array(dtype=int), slots: wp.array(dtype=int),
                    out: wp.array(dtype=float)):
            i = wp.tid()
            if x[i] > 0.0:
                out[claim(count, slots, i)] = x[i] * x[i]

        x = wp.array(np.array([1.0, -1.0, 2.0, 3.0], dtype=np.float32), requires_grad=True)
        out = wp.zeros(4, dtype=float, requires_grad=True)
        count, slots = wp.zeros(1, dtype=int), wp.zeros(4, dtype=int)
        tape = wp.Tape()
        with tape:
            wp.launch(compact, dim=4, inputs=[x, count, slots], outputs=[out])
        tape.backward(grads={out: wp.ones(4, dtype=float)})
        """))
    result = asyncio.run(run_probe(RunRequest(script=str(path), python=python, check_launches=True)))
    assert result.outcome == "ok"
    assert not [f for f in result.findings if f.code == "TW404"]
    assert any("atomic's result" in reason for reason in result.launch_checks["skip_reasons"])


def test_a_window_of_fixed_bounds_before_the_written_element_is_apart():
    """``x[t - 1 - s]`` for ``s`` in ``range(7)`` reads days t-7..t-1 and ``x[t]`` is written: no element read
    is overwritten, inside the launch or by a later step; a window reaching ``x[t]`` (``x[t - s]`` from
    ``s = 0``), a runtime bound or a reassigned loop variable can."""
    from tapewatch.probe.core.kernel_access import analyze_source, launch_elements, patterns_apart

    def facts(loop, read, extra=""):
        source = ("def k(x: wp.array(dtype=float), w: wp.array(dtype=float), t: int, n: int):\n"
                  "    acc = float(0.0)\n    %s\n        acc += w[0] * x[%s]\n%s    x[t] = acc\n" % (loop, read, extra))
        return analyze_source(source, 1, {})

    window = facts("for s in range(7):", "t - 1 - s")
    assert window.reads_apart_from_writes("x")
    # A later step (t = 12) writes none of what this one (t = 10) read, and the step itself is apart too.
    read = launch_elements(window, "x", False, {"t": 10})
    assert read == [((3, 9),)] and patterns_apart(read, launch_elements(window, "x", True, {"t": 12}))
    assert not patterns_apart(read, launch_elements(window, "x", True, {"t": 9}))
    assert not facts("for s in range(3):", "t - s").reads_apart_from_writes("x")
    assert not facts("for s in range(n):", "t - 1 - s").reads_apart_from_writes("x")
    assert not facts("for s in range(7):", "t - 1 - s", "        s = 0\n").reads_apart_from_writes("x")


def test_an_in_place_product_by_a_compile_time_number_is_marked():
    """``obs[i] *= 0.01`` needs no old value for any adjoint (the factor has none); ``*= w[i]`` does."""
    from tapewatch.probe.core.kernel_access import analyze_source

    access = analyze_source(textwrap.dedent("""\
        def k(obs: wp.array(dtype=float), w: wp.array(dtype=float)):
            i = wp.tid()
            obs[i] *= 0.01
            obs[i] /= 2.0 * SCALE
            obs[i] *= w[i]
        """), 1, {"SCALE": 100.0})
    assert [(h.line, h.op, h.constant_factor) for h in access.intra] == [
        (3, "*=", True), (4, "/=", True), (5, "*=", False)]


def test_a_record_func_backward_is_counted_as_not_checked(python):
    """A hand-written backward recorded with Tape.record_func has host code for its forward, which the check
    cannot rerun: the summary says it was skipped and why, and it never counts as passed."""
    script = EXAMPLES / "gallery" / "correct_record_func_solve.py"
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python, check_launches=True)))
    assert result.outcome == "ok"
    reasons = result.launch_checks["skip_reasons"]
    assert any(reason.startswith("Tape.record_func backward") and n >= 1 for reason, n in reasons.items()), reasons


def test_a_copy_on_the_tape_is_not_a_skipped_record_func(tmp_path, python):
    """``wp.copy`` on a tape records Warp's own adjoint copy with record_func: Warp's to get right, never
    listed as a hand-written backward the check skipped."""
    script = tmp_path / "copy_on_tape.py"
    script.write_text(textwrap.dedent("""\
        import numpy as np
        import warp as wp


        @wp.kernel
        def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            i = wp.tid()
            y[i] = x[i] * x[i]


        x = wp.array(np.arange(4, dtype=np.float32), requires_grad=True)
        y = wp.zeros(4, dtype=float, requires_grad=True)
        y2 = wp.zeros(4, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(square, dim=4, inputs=[x], outputs=[y])
            wp.copy(y2, y)
        tape.backward(grads={y2: wp.ones(4, dtype=float)})
        print(x.grad.numpy())
        """))
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python, check_launches=True)))
    assert result.outcome == "ok"
    assert result.launch_checks["checked"] >= 1
    assert not any(r.startswith("Tape.record_func") for r in result.launch_checks["skip_reasons"]), result.launch_checks


def test_a_launch_checks_numbers_are_plain_derivatives_of_a_one_element_output(tmp_path, python):
    """TW404's numbers for a loss (one element) are its derivatives with their signs (3x² = 12 at x = 2), as the
    user computes them; for a larger output they are projections, and the message says on what."""
    body = """\
        import numpy as np
        import warp as wp


        @wp.func
        def cube(x: float):
            return x * x * x


        @wp.func_grad(cube)
        def adj_cube(x: float, adj_ret: float):
            wp.adjoint[x] += adj_ret * 2.0 * x * x


        @wp.kernel
        def energy(x: wp.array(dtype=float), e: wp.array(dtype=float)):
            i = wp.tid()
            OUT


        x = wp.array(np.linspace(1.0, 2.0, 4, dtype=np.float32), requires_grad=True)
        e = wp.zeros(SIZE, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(energy, dim=4, inputs=[x], outputs=[e])
        tape.backward(grads={e: wp.ones(SIZE, dtype=float)})
        """
    messages = {}
    for size, out in ((1, "wp.atomic_add(e, 0, cube(x[i]))"), (4, "e[i] = cube(x[i])")):
        script = tmp_path / ("cube_%d.py" % size)
        script.write_text(textwrap.dedent(body).replace("OUT", out).replace("SIZE", str(size)))
        result = asyncio.run(run_probe(RunRequest(script=str(script), python=python, check_launches=True)))
        [finding] = [f for f in result.findings if f.code == "TW404"]
        messages[size] = finding.message
    assert "worst d`e`/d`x`[3]: adjoint 8 vs finite difference 12 " in messages[1], messages[1]
    assert "worst d(w·`e`)/d`x`[" in messages[4] and "a fixed random weighting of `e`'s 4 elements" in messages[4], \
        messages[4]
