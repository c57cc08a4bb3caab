"""Code Mode as a library: Python callables become typed, validated, journaled tools."""

from __future__ import annotations

import time
from pathlib import Path

from codemode import CodeMode, DurableSettings, tool_from_callable
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


def deploy(target: str) -> str:
    """Deploy to a target (needs a human's approval)."""
    return f"deployed {target}"


async def test_an_inline_wait_is_held_no_longer_than_the_services_maximum(
        compiled_guest: CompiledGuest, tmp_path: Path) -> None:
    gated = tool_from_callable(deploy, approval={"mode": "inline"})
    async with CodeMode(tmp_path, tools=[gated], workers=1, guest=compiled_guest,
                        durable=DurableSettings(max_approval_wait_ms=200)) as cm:
        started = time.monotonic()
        outcome = await cm.execute("tools.deploy(target='prod')", approval_wait_ms=60_000)
        assert outcome["status"] == "paused"
        assert time.monotonic() - started < 5
        done = await cm.approve(outcome["pending"][0]["approval_id"])
        assert done["status"] == "completed" and done["result"] == "deployed prod"
