"""The fuzz kit: coverage-guided ``atheris`` targets over the service's parsers and decoders,
and a ``schemathesis`` run against the service's own OpenAPI schema.

Each target is one module here (``fuzz/<target>.py``) with ``one_input(data: bytes)``, which
feeds ``data`` to real project code and raises ``Finding`` when a property it checks fails
(an exception type the code does not document, a hang past ``HANG_S``, a broken invariant).
``python -m fuzz`` (``scripts/fuzz``) runs them; seed corpora are under ``fuzz/corpus/``;
findings are saved as files that ``--replay`` re-runs. See ``SECURITY.md``.
"""
