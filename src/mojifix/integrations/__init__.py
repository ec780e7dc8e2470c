"""mojifix.integrations (see docs/architecture.md)."""
