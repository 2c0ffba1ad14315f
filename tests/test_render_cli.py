"""`graphmem render` and the demo's pages: files that open offline and show the store."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
from click.testing import CliRunner

from graphmem import Store
from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.scenario import ScenarioClock, load, play
from tests.conftest import ENGINE
from tests.test_visualize import _Resources, page_data
from tests.test_visualize_browser import READY, assert_clean
from tests.test_visualize_cdp import screenshot_dir, screenshot_on_failure, start_browser

#: Checked in the default engine's pass only: pages drawn from a store's answers: rendering, above the engine.
pytestmark = pytest.mark.one_engine

MARKUP = "<b>Tea & Cake</b>"


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory):
    """The worked examples (docs/semantics.md) played into a store on disk, plus one name that is markup."""
    directory = tmp_path_factory.mktemp("render") / "store"
    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC))
    with Store(directory, engine=ENGINE, clock=clock) as store:
        play(store, load("design"), clock)
        store.add("Ivan", "likes", MARKUP, recorded_at="2026-11-25", quote=f"Ivan likes {MARKUP}.")
    return directory


def gm(store_dir, *args):
    return CliRunner().invoke(main, ["--store", str(store_dir), "--engine", ENGINE, *args])


def assert_offline(html: str) -> None:
    """Nothing in the page would be fetched: no src/href/url() pointing anywhere."""
    found = _Resources()
    found.feed(html)
    assert found.fetched == []
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)
    assert not re.search(r"url\(\s*(?!['\"]?data:)", "".join(found.styles))


def assert_escaped(html: str) -> None:
    """The markup name reaches the page as data, never as markup."""
    assert "<b>Tea" not in html
    assert MARKUP in json.dumps(page_data(html), ensure_ascii=False)


def labels(html: str) -> set[str]:
    return {node["label"] for node in page_data(html)["graph"]["nodes"]}


@pytest.mark.parametrize("args, shows, hides", [
    (["snapshot"], {"Berlin", "Shanghai", "lost", MARKUP}, {"Prague", "cold"}),
    (["snapshot", "--as-of", "2026-10-20", "--valid-at", "2026-10-20"], {"Prague"}, {"Berlin", MARKUP}),
    (["snapshot", "--valid-at", "2026-10-05"], {"Munich"}, {"Prague", "Berlin"}),
    (["snapshot", "--valid-at", "all"], {"Beijing", "Shanghai", "Xi'an", "Hangzhou", "apples", "Munich"},
     {"cold"}),
    (["evolution"], {"Prague", "Berlin", "cold", "lost", MARKUP}, set()),
], ids=["snapshot-now", "snapshot-as-of", "snapshot-valid-at", "snapshot-all", "evolution"])
def test_graph_pages(store_dir, tmp_path, args, shows, hides):
    out = tmp_path / "pages" / "page.html"
    result = gm(store_dir, "render", *args, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"wrote {out} (")
    html = out.read_text(encoding="utf-8")
    assert_offline(html)
    seen = labels(html)
    assert shows <= seen and not hides & seen, seen
    if MARKUP in shows:
        assert_escaped(html)


def test_timeline_page(store_dir, tmp_path):
    out = tmp_path / "ivan.html"
    result = gm(store_dir, "render", "timeline", "Ivan", "--output", str(out))
    assert result.exit_code == 0, result.output
    assert "timeline of Ivan" in result.stdout
    html = out.read_text(encoding="utf-8")
    assert_offline(html)
    assert_escaped(html)
    assert "Timeline of Ivan" in html
    headings = {fact["heading"] for fact in page_data(html)["facts"].values()}
    assert {"Ivan lives_in Prague", "Ivan lives_in Berlin", "Ivan lives_in Munich"} <= headings


def test_timeline_as_of_the_past(store_dir, tmp_path):
    out = tmp_path / "lin.html"
    assert gm(store_dir, "render", "timeline", "lin", "--as-of", "2025-07-01", "-o", str(out)).exit_code == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["as_of"] == int(datetime(2025, 7, 1, tzinfo=UTC).timestamp() * 1000)
    known = {data["facts"][v["id"]]["heading"] for v in data["versions"] if v["recorded_at"] <= data["as_of"]}
    assert "Lin lives_in Shanghai" in known and "Lin likes apples" not in known
    assert data["writes"] == sorted(set(data["writes"])) and data["as_of"] < data["writes"][-1]


def test_focused_snapshot_and_evolution(store_dir, tmp_path):
    out = tmp_path / "ivan.html"
    result = gm(store_dir, "render", "snapshot", "--focus", "Ivan", "--valid-at", "all", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "around Ivan within 1 hop" in result.stdout
    html = out.read_text(encoding="utf-8")
    assert_offline(html)
    assert_escaped(html)
    assert labels(html) == {"Ivan", "Prague", "Berlin", "Munich", MARKUP}
    assert "around Ivan, within 1 hop" in html
    lived = tmp_path / "lived.html"
    assert gm(store_dir, "render", "snapshot", "--focus", "ivan", "--predicate", "lives_in", "--valid-at",
              "all", "-o", str(lived)).exit_code == 0
    assert labels(lived.read_text(encoding="utf-8")) == {"Ivan", "Prague", "Berlin", "Munich"}
    evolution = tmp_path / "evolution.html"
    result = gm(store_dir, "render", "evolution", "--focus", "Ivan", "--since", "2026-06-01",
                "--until", "2026-11-21", "-o", str(evolution))
    assert result.exit_code == 0, result.output
    data = page_data(evolution.read_text(encoding="utf-8"))
    assert [s["op"] for s in data["steps"]] == ["UPDATE", "SEGMENT"]
    assert [data["facts"][i]["heading"] for i in data["start"]] == ["Ivan lives_in Prague"]
    assert {n["label"] for n in data["graph"]["nodes"]} == {"Ivan", "Prague", "Berlin", "Munich"}


def test_kind_shows_infers_and_sets(tmp_path):
    directory = tmp_path / "kinds"
    clock = ScenarioClock(datetime(2025, 1, 1, tzinfo=UTC))
    with Store(directory, engine=ENGINE, clock=clock) as store:
        play(store, load("design"), clock)
    shown = gm(directory, "kind", "Berlin")
    assert shown.exit_code == 0 and shown.stdout.strip() == "Berlin: place"
    assert gm(directory, "kind", "Ivan").stdout.strip() == "Ivan: person"
    assert gm(directory, "kind", "acme lead").stdout.strip() == "Acme lead: entity"
    result = gm(directory, "kind", "Acme lead", "Organisation", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"id": "acme lead", "name": "Acme lead", "kind": "organisation"}]
    assert gm(directory, "kind", "Berlin", "city").stdout.strip() == "Berlin: city"
    assert gm(directory, "kind", "Berlin", "auto").stdout.strip() == "Berlin: place"
    bad = gm(directory, "kind", "Berlin", "<b>")
    assert bad.exit_code == 1 and bad.stderr.startswith("error: kind '<b>' is not a valid name")
    missing = gm(directory, "kind", "Nobody", "place")
    assert missing.exit_code == 1 and "no entity named 'Nobody'" in missing.stderr
    page = tmp_path / "s.html"
    assert gm(directory, "render", "snapshot", "--valid-at", "all", "-o", str(page)).exit_code == 0
    kinds = {n["label"]: n["kind"] for n in page_data(page.read_text(encoding="utf-8"))["graph"]["nodes"]}
    assert kinds["Berlin"] == "place" and kinds["Ivan"] == "person" and kinds["Acme lead"] == "organisation"
    assert kinds["warm"] == "value" and kinds["apples"] == "thing"


@pytest.mark.parametrize("args, message", [
    (["timeline"], "timeline needs an ENTITY"),
    (["timeline", "Nobody"], "no entity named 'Nobody'"),
    (["timeline", "Ivan", "--valid-at", "2026-01-01"], "only --as-of applies"),
    (["timeline", "Ivan", "--focus", "Lin"], "only --as-of applies"),
    (["snapshot", "--depth", "2"], "--depth needs --focus ENTITY"),
    (["snapshot", "--focus", "Nobody"], "no entity named 'Nobody'"),
    (["snapshot", "--focus", "Ivan", "--depth", "9"], "9 is not in the range 0<=x<=6"),
    (["snapshot", "--focus", "Ivan", "--predicate", "Lives In"], "predicate 'Lives In' is not a valid name"),
    (["snapshot", "--since", "2026-01-01"], "--since and --until choose the writes"),
    (["evolution", "--focus", "Ivan", "--depth", "0"], "--depth is at least 1"),
    (["snapshot", "Ivan"], "takes no ENTITY"),
    (["evolution", "--as-of", "2026-01-01"], "--as-of and --valid-at do not apply"),
    (["pie"], "'pie' is not one of 'snapshot', 'evolution', 'timeline'"),
    (["snapshot", "--as-of", "last tuesday-ish"], "cannot read 'last tuesday-ish' as a time"),
])
def test_bad_requests_are_one_line_and_write_nothing(store_dir, tmp_path, args, message):
    out = tmp_path / "page.html"
    result = gm(store_dir, "render", *args, "-o", str(out))
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert not out.exists()


def test_output_is_required_and_a_file(store_dir, tmp_path):
    missing = gm(store_dir, "render", "snapshot")
    assert missing.exit_code == 2 and "Missing option '-o' / '--output'" in missing.stderr
    folder = gm(store_dir, "render", "snapshot", "-o", str(tmp_path))
    assert folder.exit_code == 2 and "is a directory" in folder.stderr


def test_missing_store_is_reported(tmp_path):
    result = gm(tmp_path / "none", "render", "evolution", "-o", str(tmp_path / "e.html"))
    assert result.exit_code == 1 and "init`" in result.stderr and "--store" in result.stderr
    assert not (tmp_path / "none").exists() and not (tmp_path / "e.html").exists()


def test_render_has_help():
    result = CliRunner().invoke(main, ["render", "--help"])
    assert result.exit_code == 0
    for word in ("snapshot", "evolution", "timeline ENTITY", "--as-of", "--valid-at", "--output"):
        assert word in result.stdout


def test_demo_writes_the_three_pages(tmp_path):
    directory = tmp_path / "demo"
    result = CliRunner().invoke(main, ["--engine", ENGINE, "demo", "--dir", str(directory)])
    assert result.exit_code == 0, result.output
    pages = {name: directory / "pages" / f"{name}.html" for name in ("snapshot", "evolution", "timeline-ivan")}
    for path in pages.values():
        assert str(path.resolve()) in result.stdout
        assert_offline(path.read_text(encoding="utf-8"))
    assert "Berlin" in labels(pages["snapshot"].read_text(encoding="utf-8"))
    assert "Timeline of Ivan" in pages["timeline-ivan"].read_text(encoding="utf-8")
    again = CliRunner().invoke(main, ["--engine", ENGINE, "demo", "--dir", str(directory)])
    assert again.exit_code == 0, again.output  # pages/ inside the demo store does not block a rerun


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    started = start_browser(tmp_path_factory)
    yield started
    started.close()


@pytest.mark.parametrize("args", [["snapshot", "--valid-at", "all"], ["timeline", "Lin"]],
                         ids=["snapshot", "timeline"])
def test_rendered_page_draws_in_a_browser(store_dir, tmp_path, tmp_path_factory, browser, args):
    out = tmp_path / "page.html"
    assert gm(store_dir, "render", *args, "-o", str(out)).exit_code == 0
    page = browser.open(out.as_uri())
    try:
        with screenshot_on_failure(page, screenshot_dir(tmp_path_factory) / f"render-{args[0]}.png"):
            assert page.wait_for(READY, timeout=20)
            assert_clean(page)
            status = page.status()
            if args[0] == "timeline":
                assert status["bars"] == 7
            else:
                assert status["nodes"] >= 10 and status["edges"] >= 10 and status["inked"] > 200
    finally:
        page.close()


@pytest.mark.parametrize("name", ["graph.png", "graph.PDF", "graph.svg"])
def test_a_page_named_as_another_kind_of_file_is_refused(store_dir, tmp_path, name):
    """A new user's find: `-o x.png` wrote an HTML page under a picture's name."""
    result = gm(store_dir, "render", "snapshot", "-o", str(tmp_path / name))
    assert result.exit_code == 2 and not (tmp_path / name).exists()
    assert "render writes an HTML page" in result.output and ".html" in result.output
    assert gm(store_dir, "render", "snapshot", "-o", str(tmp_path / "graph")).exit_code == 0  # no suffix: fine
