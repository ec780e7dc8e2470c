"""mojifix.sniff (see docs/architecture.md)."""
