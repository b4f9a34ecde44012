"""Balance studies: many games between policies (``study``), summed up with intervals (``stats``)."""
