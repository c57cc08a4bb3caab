"""Path handling (workspace._paths) and a fuzz test that nothing resolves above the root."""

import asyncio
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workspace import InvalidArgument, NameTooLong, WorkspaceError, WorkspaceStore, materialise
from workspace._paths import compile_glob, glob_prefix, normalize, normalize_glob, subtree_bounds

pieces = st.sampled_from(["..", ".", "", "a", "b", "..a", "a..", "...", "%", "_", " ", "\\", "~"])
raw_paths = st.lists(pieces, max_size=12).map("/".join) | st.text(max_size=40).filter(lambda s: "\x00" not in s)


@pytest.mark.fuzz
@settings(max_examples=200, deadline=None)
@given(raw_paths)
def test_normalize_never_climbs_above_root_and_is_idempotent(raw: str) -> None:
    p = normalize(raw)
    assert p.startswith("/")
    assert all(part not in ("", ".", "..") for part in p.split("/")[1:]) or p == "/"
    assert normalize(p) == p
    # Whatever the input, the host location stays inside the materialisation root.
    root = "/srv/root"
    assert os.path.normpath(os.path.join(root, p.lstrip("/"))).startswith(root)


link_targets = st.lists(st.sampled_from(["..", ".", "a", "b", "c"]), min_size=1, max_size=6).map(
    lambda parts: "/".join(parts)
) | st.lists(st.sampled_from(["..", "a", "b"]), min_size=1, max_size=6).map(lambda parts: "/" + "/".join(parts))


async def _write_through_links(targets: list[str], writes: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with await WorkspaceStore.open(f"{tmp}/db", f"{tmp}/blobs") as store:
            ws = store.workspace()
            await ws.mkdir("/a/b", recursive=True)
            for i, target in enumerate(targets):
                try:
                    await ws.symlink(target, f"/a/l{i}")
                except WorkspaceError:
                    pass
            for i, w in enumerate(writes):
                try:
                    await ws.write_file(w, str(i))
                except WorkspaceError:
                    pass
            for entry in await ws.walk("/"):
                assert normalize(entry.path) == entry.path
            snap = await ws.snapshot()
            with materialise(snap) as root:
                for dirpath, dirnames, filenames in os.walk(root):
                    for name in dirnames + filenames:
                        real = os.path.realpath(os.path.join(dirpath, name))
                        assert real.startswith(os.path.realpath(root))


@pytest.mark.fuzz
@settings(max_examples=25, deadline=None)
@given(
    st.lists(link_targets, max_size=4),
    st.lists(st.lists(st.sampled_from(["a", "l0", "l1", "l2", "..", "x"]), min_size=1, max_size=5).map(
        lambda parts: "/a/" + "/".join(parts)
    ), max_size=6),
)
def test_writes_through_random_symlinks_stay_inside_the_workspace(targets: list[str], writes: list[str]) -> None:
    asyncio.run(_write_through_links(targets, writes))


def test_overlong_and_nul_paths_are_refused() -> None:
    with pytest.raises(NameTooLong):
        normalize("/" + "a" * 4096)
    assert normalize("/" + "a" * 4095) == "/" + "a" * 4095
    with pytest.raises(InvalidArgument):
        normalize("/a\x00b")
    with pytest.raises(InvalidArgument):
        normalize(None)  # type: ignore[arg-type]


def test_subtree_bounds_select_exactly_the_descendants() -> None:
    lo, hi = subtree_bounds("/dir")
    inside = ["/dir/a", "/dir/z/deep", "/dir/%"]
    outside = ["/dir", "/dir0", "/dir00/x", "/dir-x", "/dir.x", "/dis", "/dio"]
    assert all(lo <= p < hi for p in inside)
    assert not any(lo <= p < hi for p in outside)
    root_lo, root_hi = subtree_bounds("/")
    assert not root_lo <= "/" < root_hi and root_lo <= "/a" < root_hi


@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        ("/f?.txt", ["/f1.txt"], ["/f10.txt", "/f/.txt"]),
        ("/**/*.ts", ["/a.ts", "/x/y/a.ts"], ["/a.tsx", "/a/ts"]),
        ("/src/**", ["/src/a", "/src/a/b"], ["/src", "/srcx/a"]),
        ("/{a,b}/*.py", ["/a/x.py", "/b/y.py"], ["/c/x.py", "/a/b/x.py"]),
        ("/[!a]*", ["/b", "/zz"], ["/a", "/ab"]),
        ("/x*y", ["/xy", "/x-y"], ["/x/y"]),
    ],
)
def test_glob_semantics(pattern: str, matches: list[str], misses: list[str]) -> None:
    glob = compile_glob(normalize_glob(pattern))
    assert all(glob.matches(m) for m in matches)
    assert not any(glob.matches(m) for m in misses)


def test_glob_normalisation_and_prefix() -> None:
    assert normalize_glob("**/*.ts") == "/**/*.ts"
    assert glob_prefix("/a/b/*.ts") == "/a/b/"
    assert glob_prefix("/a/{b,c}/x") == "/a/"
    assert glob_prefix("/plain.txt") == "/plain.txt"


@pytest.mark.parametrize(
    ("pattern", "suffix"),
    [("/**/*.py", ".py"), ("/a/*/b.txt", "/b.txt"), ("/src/**", ""), ("/app.{ts,js}", ""), ("/plain", ""), ("/a\\*b", "")],
)
def test_glob_suffix_is_the_literal_tail(pattern: str, suffix: str) -> None:
    from workspace._paths import glob_suffix

    assert glob_suffix(pattern) == suffix
