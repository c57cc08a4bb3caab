"""Host-side bash tests: the guest's ``bash`` package is importable through pytest's
``pythonpath`` (``wasm/guest``, set in pyproject.toml)."""
