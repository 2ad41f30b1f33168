"""What an operator reads: JSON logs, Prometheus metrics, health and readiness endpoints."""
