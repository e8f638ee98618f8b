"""The ground every service stands on: the unit of work, errors, finding records, idempotency keys, throttles, CSV files."""
