"""The checks that run as the program runs, each a ``core.sensor.Sensor`` listed once in
``core.startup.sensor_classes()``: the overwrite engine (TW101-TW107) and what Warp's tracker is blind to."""
