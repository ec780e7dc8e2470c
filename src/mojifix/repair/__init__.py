"""mojifix.repair (see docs/architecture.md)."""
