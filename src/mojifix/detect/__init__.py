"""mojifix.detect (see docs/architecture.md)."""
