"""Live tables: the action log, the cached engines, filtered views and events."""
