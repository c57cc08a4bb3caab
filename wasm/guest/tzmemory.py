"""The IANA time zone database, held in memory: ``zoneinfo``, ``pytz`` and ``dateutil.tz``
read it from here.

Inside the isolate no file of the image can be opened (the build's paths are not mounted
at run time), and all three libraries read zone files on demand. So at build time every
zone file of the bundled ``tzdata`` package is read into ``ZONES`` (about 450 KB; pytz's own
copy into ``PYTZ_ZONES``), and each
library's one loading function is pointed at it. A zone name they cannot find is the same
error as before (``ZoneInfoNotFoundError``, ``UnknownTimeZoneError``, ``None`` from
``gettz``).
"""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from typing import Any

ZONES: dict[str, bytes] = {}
"""Zone name (``Europe/Paris``) -> its TZif file, from ``tzdata``."""
PYTZ_ZONES: dict[str, bytes] = {}
"""The same from pytz's own copy: pytz reads only a file's version-1 data, which
``tzdata``'s slim files leave empty (every zone would be UTC)."""


def _read_zones(package: str, into: dict[str, bytes]) -> None:
    try:
        module = importlib.import_module(package)
    except ImportError:
        return
    root = Path(list(module.__path__)[0]) / "zoneinfo"
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.name.startswith("__") and path.suffix not in (".py", ".pyc"):
            data = path.read_bytes()
            if data.startswith(b"TZif"):
                into[path.relative_to(root).as_posix()] = data


def _open(key: str, zones: dict[str, bytes] = ZONES) -> io.BytesIO:
    data = zones.get(key) if isinstance(key, str) else None
    if data is None:
        raise FileNotFoundError(f"No time zone found with key {key}")
    return io.BytesIO(data)


def _zoneinfo() -> None:
    import zoneinfo
    from zoneinfo import _common, _tzpath

    def load_tzdata(key: str) -> io.BytesIO:
        try:
            return _open(key)
        except FileNotFoundError:
            raise zoneinfo.ZoneInfoNotFoundError(f"No time zone found with key {key}") from None

    def available_timezones() -> set[str]:
        return set(ZONES)

    _common.load_tzdata = load_tzdata  # type: ignore[assignment]  # any binary file will do
    _tzpath.available_timezones = available_timezones
    zoneinfo.available_timezones = available_timezones


def _pytz() -> None:
    try:
        import pytz  # type: ignore[import-untyped]
    except ImportError:
        return

    def open_resource(name: str) -> io.BytesIO:
        return _open(name, PYTZ_ZONES)

    def resource_exists(name: str) -> bool:
        return name in PYTZ_ZONES

    pytz.open_resource = open_resource
    pytz.resource_exists = resource_exists


def _dateutil() -> None:
    try:
        from dateutil import _tzdata_impl  # type: ignore[import-untyped]
    except ImportError:
        return
    not_found: Any = _tzdata_impl.TZFileNotFound

    def load_tzdata(key: str) -> io.BytesIO:
        try:
            return _open(key)
        except FileNotFoundError:
            raise not_found("Time zone not found: %s", zone_key=key) from None

    def load_tzdata_keys() -> list[str]:
        return sorted(ZONES)

    _tzdata_impl._load_tzdata = load_tzdata
    _tzdata_impl._load_tzdata_keys = load_tzdata_keys


def install() -> None:
    """Done once, at build time, after the packages are imported."""
    _read_zones("tzdata", ZONES)
    _read_zones("pytz", PYTZ_ZONES)
    if ZONES:
        _zoneinfo()
        _dateutil()
    if PYTZ_ZONES:
        _pytz()
