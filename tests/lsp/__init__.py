"""Language-server tests (a package: its conftest and module names stay out of
the way of the other test folders', which import ``conftest`` by name)."""
