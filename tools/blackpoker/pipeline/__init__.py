"""The build: its steps, the worker pool, the step cache, atomic file writing and the live preview."""
