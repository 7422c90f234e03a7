"""The checks that run as the program runs: each a ``core.sensor.Sensor`` subclass in its own module here,
found by ``core.startup.sensor_classes()``: the overwrite engine (TW101-TW107) and what Warp's tracker is
blind to."""
