"""The patch table: Warp's behaviour untouched, and the probe's own Warp calls never taken for the program's."""

from __future__ import annotations

import numpy as np
import pytest

wp = pytest.importorskip("warp")


@wp.kernel
def double(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]


def test_the_program_sees_its_own_tracker_setting(probe):
    from tapewatch.probe.core import patches

    assert wp.config.verify_autograd_array_access is False  # Warp's default: the program never set it
    wp.config.verify_autograd_array_access = True
    try:
        assert wp.config.verify_autograd_array_access is True and patches.program_tracks(wp)
    finally:
        wp.config.verify_autograd_array_access = False
    assert not patches.program_tracks(wp)
    # Warp itself still sees the tracker on (the probe needs its marks).
    assert patches._called_from_warp(type("F", (), {"f_globals": {"__name__": "warp._src.tape"}})())


def _overwrite():
    x = wp.array(np.ones(4, dtype=np.float32), requires_grad=True)
    y = wp.zeros(4, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(double, dim=4, inputs=[x], outputs=[y])
        wp.launch(double, dim=4, inputs=[y], outputs=[x])
    tape.reset()


def test_warps_message_reaches_a_program_that_turned_the_tracker_on(probe, capfd):
    _overwrite()
    assert "has already been read from" not in capfd.readouterr().err  # the probe's own tracker: silent
    wp.config.verify_autograd_array_access = True
    try:
        _overwrite()
    finally:
        wp.config.verify_autograd_array_access = False
    err = capfd.readouterr().err
    assert "is being written to but has already been read from in a previous launch" in err
    assert any(f["code"] == "TW101" for f in probe.findings())  # and Tapewatch's finding besides


def test_a_launch_records_the_programs_frame(probe):
    x = wp.zeros(4, requires_grad=True)
    y = wp.zeros(4, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(double, dim=4, inputs=[x], outputs=[y])
    caller = tape.launches[-1][7]["caller"]
    assert caller["file"] == __file__ and caller["func"] == "test_a_launch_records_the_programs_frame"


def test_the_probes_own_copies_are_not_the_programs(probe, monkeypatch):
    tracker = probe.probe.tracker
    seen = []
    monkeypatch.setattr(tracker, "on_copy", lambda dest, src: seen.append("copy"))
    monkeypatch.setattr(tracker, "on_numpy", lambda arr: seen.append("numpy"))
    a, b = wp.zeros(4), wp.ones(4)
    wp.copy(a, b)
    assert seen == ["copy"]
    seen.clear()
    probe.probe.hooks.guarded("a probe's own copy", lambda: wp.copy(a, b))
    assert seen == []
    # An indexed array's .numpy() is a copy inside Warp (as every .numpy() is on a GPU): one read, no copy.
    indexed = wp.indexedarray(b, [wp.array([0, 2], dtype=int)])
    seen.clear()
    assert indexed.numpy().tolist() == [1.0, 1.0]
    assert seen == ["numpy"]
