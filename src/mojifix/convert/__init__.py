"""mojifix.convert (see docs/architecture.md)."""
