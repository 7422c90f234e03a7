"""The sensor contract: one list of sensors, each a ``Sensor`` with its codes, heard through a typed bus."""

from __future__ import annotations

from tapewatch import codes
from tapewatch.probe.backward.backward_checks import BackwardChecks
from tapewatch.probe.core.sensor import Sensor, SensorBus
from tapewatch.probe.core.startup import sensor_classes

HOOKS = [name for name, value in vars(Sensor).items() if callable(value) and not name.startswith("_")]


def test_every_sensor_keeps_the_contract():
    for cls in sensor_classes():
        assert issubclass(cls, Sensor), cls
        overridden = [h for h in HOOKS if getattr(cls, h) is not getattr(Sensor, h)]
        assert overridden, "%s listens to nothing" % cls.__name__
        for code in cls.CODES:
            assert code in codes.CODES, (cls.__name__, code)


def test_every_runtime_code_has_an_owner():
    """Each warning the probe can report at run time is claimed by a sensor or by the backward checks."""
    claimed = {code for cls in sensor_classes() for code in cls.CODES} | set(BackwardChecks.CODES)
    runtime = {code for code in codes.CODES if code[2] in "12" or code in ("TW403", "TW404", "TW405", "TW407")}
    assert runtime - claimed == set()


def test_the_bus_tells_only_those_who_listen():
    heard = []

    class Numpy(Sensor):
        def on_numpy(self, arr) -> None:
            heard.append(("numpy", arr))

    class Broken(Sensor):
        def on_numpy(self, arr) -> None:
            raise ValueError("a sensor's bug")

    failures = []

    def attempt(what, step, *args):
        try:
            step(*args)
        except ValueError:
            failures.append(what)

    bus = SensorBus([Broken(None), Numpy(None), Sensor(None)], attempt)
    assert [m.__self__.__class__ for m in bus.listeners(Sensor.on_numpy)] == [Broken, Numpy]
    assert bus.listeners(Sensor.on_launch) == []
    bus.tell(Sensor.on_numpy, "checking a .numpy() call", "x")
    assert heard == [("numpy", "x")] and failures == ["checking a .numpy() call"]


def test_sensors_are_found_in_their_package_and_heard_in_order():
    """Every ``Sensor`` subclass of a module in ``probe/sensors/`` is found, once; the overwrite engine hears
    a launch first and the gradient chain next (a launch's writes are judged before its reads are recorded)."""
    import importlib
    import pkgutil

    from tapewatch.probe import sensors

    defined = set()
    for info in pkgutil.iter_modules(sensors.__path__):
        module = importlib.import_module("tapewatch.probe.sensors." + info.name)
        defined |= {v for v in vars(module).values() if isinstance(v, type) and issubclass(v, Sensor)
                    and v is not Sensor and v.__module__ == module.__name__}
    found = sensor_classes()
    assert len(found) == len(set(found)) and set(found) == defined
    assert [c.__name__ for c in found[:2]] == ["Overwrites", "GradChain"]
    rest = [c.__module__ for c in found[2:]]
    assert rest == sorted(rest)
