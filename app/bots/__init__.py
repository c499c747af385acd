"""Running computer players for the tables, off the request path."""
