"""codemode.search and codemode.describe (acceptance cases 82 and 83)."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.search import SEARCH_RESULT_LIMIT, CodeIndex, SnippetInfo, tokenise
from codemode.tooldefs import ToolDef

URL = "https://agent.example/tool"


def tool(name: str, description: str = "", **extra: Any) -> ToolDef:
    extra.setdefault("url", URL)
    return ToolDef(name=name, description=description, **extra)


GITHUB = [
    tool(
        "create_issue",
        "Create a new issue in a repository.",
        input_schema={
            "type": "object",
            "properties": {
                "repo": {"type": "string", "description": "owner/name"},
                "title": {"type": "string"},
            },
            "required": ["repo", "title"],
        },
        approval={"mode": "durable", "risk": "medium"},
    ),
    tool("list_issues", "List the issues of a repository."),
    tool("get_issue", "Get one issue by number."),
    tool("create_pull_request", "Open a pull request."),
    tool("get_repo", "Get a repository."),
]
TOOLS = [
    tool("createIssueComment", "Comment on an issue or pull request."),
    tool("get-weather", "Current weather for a city."),
]


@pytest.fixture
def index() -> CodeIndex:
    return CodeIndex(
        {"github": GITHUB, "tools": TOOLS},
        [SnippetInfo("triage-issues", "Label new issues by their title.", "print(1)")],
        instructions={"github": "GitHub, as the bot user."},
    )


def test_create_issue_ranks_github_create_issue_first(index: CodeIndex) -> None:
    out = index.search("create issue")
    first = out["results"][0]
    assert first["path"] == "github.create_issue"
    assert first["kind"] == "method"
    assert first["requires_approval"] is True
    assert first["connector"] == "github"
    assert first["method"] == "create_issue"
    assert first["description"] == "Create a new issue in a repository."
    assert out["total"] == len(out["results"])
    assert out["truncated"] is False


def test_result_omits_optional_keys_when_not_applicable(index: CodeIndex) -> None:
    result = index.search("weather")["results"][0]
    assert result["path"] == "tools.get_weather"
    assert "requires_approval" not in result
    assert set(result) == {"path", "connector", "method", "description", "kind", "score"}


def test_score_follows_reference_formula_exactly() -> None:
    # path "tools.search": phrase contained 12x6 + token exact 12x4        = 120
    # method "search": equals query 10x14 + token exact 10x4              = 180
    # full coverage +25, first token starts the method +8, query == method +20
    only = CodeIndex({"tools": [tool("search")]})
    assert only.search("search")["results"][0]["score"] == 120 + 180 + 25 + 8 + 20


def test_description_only_match_scores_by_description_weight() -> None:
    # description "find the weather": token "weather" exact 5x4, phrase contained 5x6
    only = CodeIndex({"t": [tool("x", "find the weather")]})
    assert only.search("weather")["results"][0]["score"] == 20 + 30 + 25


def test_tokenise_splits_camel_case_and_separators() -> None:
    assert tokenise("github.createIssue/v2:foo-bar_baz") == [
        "github", "create", "issue", "v2", "foo", "bar", "baz",
    ]
    assert tokenise("  HTTPServer  ") == ["httpserver"]
    assert tokenise("@@@") == []


def test_camel_case_method_is_found_by_words(index: CodeIndex) -> None:
    paths = [r["path"] for r in index.search("issue comment")["results"]]
    assert paths[0] == "tools.createIssueComment"


def test_plural_query_token_matches_singular_field_token(index: CodeIndex) -> None:
    paths = [r["path"] for r in index.search("issues")["results"]]
    assert "github.get_issue" in paths


def test_short_queries_need_every_token(index: CodeIndex) -> None:
    assert index.search("create banana")["total"] == 0


def test_long_queries_need_sixty_percent_of_tokens(index: CodeIndex) -> None:
    assert index.search("create issue banana")["results"][0]["path"] == "github.create_issue"
    assert index.search("create zebra quokka")["total"] == 0


def test_snippets_are_searchable_as_their_own_kind(index: CodeIndex) -> None:
    result = index.search("triage")["results"][0]
    assert result["kind"] == "snippet"
    assert result["path"] == "triage-issues"
    assert result["connector"] == "snippet"


def test_ties_are_ordered_by_path() -> None:
    twins = CodeIndex({"b": [tool("thing")], "a": [tool("thing")]})
    assert [r["path"] for r in twins.search("thing")["results"]] == ["a.thing", "b.thing"]


def test_at_most_fifty_results_with_total_and_truncated() -> None:
    many = CodeIndex({"tools": [tool(f"report_{i}", "Make a report.") for i in range(60)]})
    out = many.search("report")
    assert len(out["results"]) == SEARCH_RESULT_LIMIT == 50
    assert out["total"] == 60
    assert out["truncated"] is True


@pytest.mark.parametrize("query", ["", "   ", "!!!", "._-"])
def test_empty_queries_find_nothing(index: CodeIndex, query: str) -> None:
    assert index.search(query) == {"results": [], "total": 0, "truncated": False}


def test_tools_without_implementation_are_not_searchable_unless_included() -> None:
    local = ToolDef(name="client_only", description="Client side.")
    assert CodeIndex({"tools": [local]}).search("client")["total"] == 0
    included = CodeIndex({"tools": [local]}, include_unimplemented=True)
    assert included.search("client")["total"] == 1


# --- describe ------------------------------------------------------------------------------


def test_describe_method_gives_path_description_approval_and_declaration(
    index: CodeIndex,
) -> None:
    out = index.describe("github.create_issue")
    assert out["path"] == "github.create_issue"
    assert out["description"] == "Create a new issue in a repository."
    assert out["requires_approval"] is True
    assert out["kind"] == "method"
    assert "def create_issue(*, repo: str, title: str) -> Any:" in out["types"]
    assert "repo: owner/name" in out["types"]
    ast.parse(out["types"])


def test_describe_bare_method_name_searches_every_namespace(index: CodeIndex) -> None:
    assert index.describe("create_issue")["path"] == "github.create_issue"
    assert index.describe("get-weather")["path"] == "tools.get_weather"


def test_describe_namespace_lists_all_its_tools_with_instructions(index: CodeIndex) -> None:
    out = index.describe("github")
    assert out["kind"] == "connector"
    assert out["path"] == "github"
    assert out["description"] == "GitHub, as the bot user."
    assert out["types"].startswith("GitHub, as the bot user.")
    for name in ("create_issue", "list_issues", "get_issue", "create_pull_request", "get_repo"):
        assert f"def {name}(" in out["types"]
    assert "requires_approval" not in out


def test_describe_snippet_shows_description_usage_input_type_and_code() -> None:
    snippet = SnippetInfo(
        "weekly",
        "Weekly report.",
        "result = 1",
        {"type": "object", "properties": {"week": {"type": "integer"}}},
    )
    out = CodeIndex({}, [snippet]).describe("weekly")
    assert out["kind"] == "snippet"
    assert out["description"] == "Weekly report."
    assert "codemode.run('weekly', input)" in out["types"]
    assert "class SnippetInput(TypedDict):" in out["types"]
    assert "```python\nresult = 1\n```" in out["types"]


@pytest.mark.parametrize("target", ["nope", "github.nope", "nope.create_issue", ""])
def test_describe_unknown_target_says_not_found(index: CodeIndex, target: str) -> None:
    assert index.describe(target) == {
        "path": target,
        "types": f'"{target}" not found.',
        "kind": "method",
    }


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(query=st.text(max_size=40))
def test_any_query_gives_a_well_formed_ranked_answer(query: str) -> None:
    index = CodeIndex({"github": GITHUB, "tools": TOOLS})
    out = index.search(query)
    scores = [r["score"] for r in out["results"]]
    assert scores == sorted(scores, reverse=True)
    assert len(out["results"]) <= SEARCH_RESULT_LIMIT
    assert out["total"] >= len(out["results"])
    assert out["truncated"] == (out["total"] > SEARCH_RESULT_LIMIT)
