"""Code Mode as a library: Python callables become typed, validated, journaled tools."""

from __future__ import annotations

from pathlib import Path

from codemode import CodeMode
from sandbox.engine import CompiledGuest


def get_weather(city: str, units: str = "metric") -> dict[str, object]:
    """Current weather for a city.

    Args:
        city: The city's name.
        units: metric or imperial.
    """
    return {"city": city, "temp": 21 if units == "metric" else 70}


async def slow_add(a: int, b: int) -> int:
    """Add two integers (asynchronously)."""
    return a + b


async def test_callables_are_tools_with_schemas_from_their_hints(compiled_guest: CompiledGuest,
                                                                 tmp_path: Path) -> None:
    async with CodeMode(tmp_path, tools=[get_weather, slow_add], workers=1, guest=compiled_guest) as cm:
        outcome = await cm.execute("w = tools.get_weather(city='Paris')\n"
                                   "[w['temp'], tools.slow_add(a=2, b=3)]")
        assert outcome["status"] == "completed", outcome
        assert outcome["result"] == [21, 5]
        assert [c["method"] for c in outcome["calls"]] == ["get_weather", "slow_add"]
        rejected = await cm.execute("tools.slow_add(a='x', b=1)")
        assert rejected["status"] == "error" and rejected["calls"] == []
        declarations = cm.declarations()
        assert "def get_weather(*, city: str, units: str = ...)" in declarations
        assert "The city's name." in declarations


async def test_state_persists_in_the_data_directory(compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        await cm.execute("state.write_file('/kept.txt', 'still here')")
    async with CodeMode(tmp_path, workers=1, guest=compiled_guest) as cm:
        assert (await cm.execute("state.read_file('/kept.txt')"))["result"] == "still here"
