"""The sensor contract: what the tracker publishes, and how a sensor listens.

A sensor is a ``Sensor`` subclass, in its own module of ``probe/sensors/``,
that overrides the hooks it needs and names the codes it reports
(``CODES``); ``startup.sensor_classes()`` finds them all there.
The tracker publishes each event once through the ``SensorBus``, naming the
hook by the base method itself (``bus.tell(Sensor.on_numpy, ...)``), so
"who hears this event" is a find-references away, and a sensor that raises
costs a TW910, never the other sensors (ruff's per-event dispatch, and this
project's own ``lsp/server.py`` features).  Leaf module: imports nothing of
the probe.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Dict, Generic, List, Optional, Tuple, TypeVar


class Sensor:
    """A check the probe runs as the program runs.  Every hook is a no-op here: override what you need."""

    CODES: Tuple[str, ...] = ()  # the codes this sensor reports (docs/diagnostics/<code>.md each)
    # Heard before the others, the highest first; the rest in the order of their modules' names.  Only
    # for a sensor whose judgement another needs at the same event (the overwrite engine judges a
    # launch's writes before the tracker records its reads).
    HEARS_FIRST: int = 0

    def __init__(self, tracker) -> None:
        self.tracker = tracker

    # -- launches ---------------------------------------------------------------------------------
    def on_launch(self, state, record) -> None:
        """A taped launch was recorded (``record``: its ``LaunchRecord``; ``state``: its tape's)."""

    def on_untaped_kernel(self, kernel) -> None:
        """A kernel was launched outside any tape (every such launch)."""

    def on_adjoint_launch(self, kernel) -> None:
        """The program launched ``kernel``'s adjoint itself (``wp.launch(..., adjoint=True)``, no tape)."""

    def on_untaped_kernel_accesses(self, kernel, accesses) -> None:
        """The accesses of a launch outside any tape (also when no tape holds reads)."""

    def on_untaped_launch(self, kernel, accesses) -> None:
        """A launch outside any tape while a tape holds reads."""

    def on_untaped_op_accesses(self, name: str, accesses) -> None:
        """A Warp library operation no tape records (``wp.utils.array_sum``) ran while a tape records."""

    # -- writes and copies ------------------------------------------------------------------------
    def on_untaped_write(self, arr, op: str) -> None:
        """``arr`` was written outside any tape (``copy``, ``zero_``, ``fill_``...)."""

    def on_copy_carry(self, dest, src) -> None:
        """``wp.copy(dest, src)`` outside any tape."""

    def on_taped_copy(self, state, dest, src) -> None:
        """``wp.copy(dest, src)`` recorded on the tape of ``state`` is about to run."""

    def on_seed_write(self, arr) -> None:
        """``arr`` was written by a copy, ``zero_`` or ``fill_`` (a gradient seed, perhaps)."""

    def on_refill(self, state, arr, method: str) -> None:
        """``arr.zero_()``/``arr.fill_()`` (``method``) is about to run while the tape of ``state`` records."""

    def on_pending_writes(self, state, backward_site, writes, during: str = "") -> None:
        """Writes made outside the tape to what it read (``PendingWrite``), heard at its ``backward()``
        (``backward_site``) after every ``before_backward``; ``during``: the ``record_func`` callback
        that made them while ``backward()`` replayed the tape, heard at once."""

    def on_warp_flag(self, state, record, arr) -> None:
        """Warp's tracker flagged ``arr`` at the launch ``record`` and no finding of that launch
        covered it (``Tracker.cover``): what Warp says is never lost."""

    # -- reads of values --------------------------------------------------------------------------
    def on_read(self, grad, how: str) -> None:
        """A gradient's values were read (a copy's source) while a tape holds reads."""

    def on_numpy(self, arr) -> None:
        """The program took ``arr.numpy()`` while a tape holds reads."""

    def on_gradient_numpy(self, arr) -> None:
        """The program took ``.numpy()`` of a gradient a backward filled."""

    def on_grad_view(self, grad, view) -> None:
        """``view`` is the NumPy array the program got from ``grad.numpy()``."""

    def on_zeroed_grad_read(self, grad, how: str) -> None:
        """A gradient that ``tape.zero()`` cleared after a backward filled it was read."""

    # -- tapes ------------------------------------------------------------------------------------
    def on_array_created(self, arr) -> None:
        """An array was made while a tape records."""

    def on_tape_zero(self, tape) -> None:
        """``tape.zero()`` is about to run."""

    def before_backward(self, tape, state, site, args=(), kwargs=None) -> None:
        """The program's ``tape.backward()`` is about to run (``site``: where it was called)."""

    def after_backward(self, tape, state) -> None:
        """The program's ``tape.backward()`` returned."""

    # -- PyTorch ----------------------------------------------------------------------------------
    def on_from_torch(self, arr, tensor) -> None:
        """``wp.from_torch(tensor)`` returned ``arr``, which shares the tensor's memory (and its ``.grad``'s)."""

    def on_to_torch(self, arr, tensor) -> None:
        """``wp.to_torch(arr)`` returned ``tensor``, which shares the array's memory."""

    # -- the end ----------------------------------------------------------------------------------
    def at_exit(self) -> None:
        """The program ended: report what is known only now."""

    def kernels_event(self) -> Optional[list]:
        """What the ``kernels`` event carries (one sensor sends it), or None."""
        return None


Hook = Callable[..., Any]
T = TypeVar("T")


class PerTape(Generic[T]):
    """A sensor's own record per tape (its ``TapeState``), kept by the sensor, not on the tape: made on
    first use, dropped when the sensor takes it (at backward) or when the tape's state is gone."""

    def __init__(self, make: Callable[[], T]):
        self._make = make
        self._records: "weakref.WeakKeyDictionary[Any, T]" = weakref.WeakKeyDictionary()

    def of(self, state) -> T:
        record = self._records.get(state)
        if record is None:
            record = self._records[state] = self._make()
        return record

    def get(self, state) -> Optional[T]:
        return self._records.get(state)

    def take(self, state) -> Optional[T]:
        """The record, forgotten (the next ``of`` makes a fresh one)."""
        return self._records.pop(state, None)


class SensorBus:
    """Each hook's listeners: the sensors that override it, in ``sensor_classes()`` order."""

    def __init__(self, sensors: List[Sensor], attempt: Callable[..., Any]):
        # ``attempt(what, method, *args)`` calls one listener; a failure costs a TW910, not the others.
        self.sensors = list(sensors)
        self._attempt = attempt
        self._listeners: Dict[str, List[Hook]] = {}

    def listeners(self, hook: Hook) -> List[Hook]:
        """The bound methods overriding ``hook`` (a ``Sensor`` method), listed once per hook."""
        name = hook.__name__
        found = self._listeners.get(name)
        if found is None:
            found = self._listeners[name] = [getattr(s, name) for s in self.sensors
                                             if getattr(type(s), name) is not getattr(Sensor, name)]
        return found

    def tell(self, hook: Hook, what: str, *args) -> None:
        """Every sensor listening to ``hook`` hears of the event; one that fails costs a TW910, not the others."""
        attempt = self._attempt
        for method in self.listeners(hook):
            attempt(what, method, *args)

    def __bool__(self) -> bool:
        return bool(self.sensors)
