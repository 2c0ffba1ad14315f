"""visualize's pages in headless Chromium, opened from disk with networking off."""

import json
import re

import pytest

from tests.test_visualize import HOSTILE, SCRIPTY, sample_pages
from tests.test_visualize_cdp import screenshot_dir, screenshot_on_failure, start_browser

pytestmark = pytest.mark.engine_free

READY = ("window.graphmem && graphmem.status.ready && graphmem.status.stable !== false"
         " && (graphmem.status.inked === undefined || graphmem.status.inked > 0)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    started = start_browser(tmp_path_factory)
    yield started
    started.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    found = {}
    for name, html in sample_pages().items():
        found[name] = folder / f"{name}.html"
        found[name].write_text(html, encoding="utf-8")
    return found


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    return screenshot_dir(tmp_path_factory)


@pytest.fixture
def load(browser, files, shots, request):
    """Open one of the sample pages (with an optional #hash) and wait until it has drawn."""
    opened = []

    def open_page(name: str, fragment: str = ""):
        page = browser.open(files[name].as_uri() + fragment)
        opened.append(page)
        page.wait_for(READY, timeout=20)
        return page

    yield open_page
    for page in opened:
        page.close()


def checked(page, shots, request):
    return screenshot_on_failure(page, shots / (re.sub(r"[^\w.-]+", "_", request.node.name)
                                                + ".png"))


def assert_clean(page):
    status = page.status()
    assert status and status["ready"], status
    assert page.problems() == []
    assert status["errors"] == []
    assert status["resources"] == []


@pytest.mark.parametrize("name", ["snapshot", "evolution"])
def test_graph_pages_draw(load, shots, request, name):
    page = load(name)
    with checked(page, shots, request):
        assert_clean(page)
        status = page.status()
        assert status["stable"] and status["drawn"] >= 1
        assert status["nodes"] >= 3 and status["edges"] >= 2
        assert status["inked"] > 200, "the canvas stayed blank"
        assert status["clipped"] == 0, "a node's label runs past the frame"  # (a new user's: a long one was cut)
        assert page.evaluate("document.querySelectorAll('#graph canvas').length") == 1


def test_timeline_draws(load, shots, request):
    page = load("timeline")
    with checked(page, shots, request):
        assert_clean(page)
        assert page.status()["bars"] == 7
        box = page.evaluate("JSON.stringify(document.getElementById('timeline')"
                            ".getBoundingClientRect())")
        assert '"width":0' not in box and '"height":0' not in box
        page.evaluate("document.querySelector('g.bar[data-version=v3]')"
                      ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        assert page.status()["selected"] == "v3"
        assert "I moved to Berlin on October 15." in page.evaluate(
            "document.getElementById('details').textContent")


def test_evolution_slider_changes_what_is_shown(load, shots, request):
    page = load("evolution")
    with checked(page, shots, request):
        last = page.status()
        assert last["step"] == 6 and last["edge_ids"] == ["v3", "v4", "v5", "v6", "v7"]
        page.evaluate("var s = document.getElementById('step'); s.value = '1';"
                      "s.dispatchEvent(new Event('input'))")
        first = page.status()
        assert first["step"] == 1 and first["edge_ids"] == ["v1"]
        caption = page.evaluate("document.getElementById('caption').textContent")
        assert "ADD: Ivan lives_in Prague" in caption and "2026-01-10" in caption
        page.evaluate("document.getElementById('next').click()")
        second = page.status()
        assert second["step"] == 2 and second["edge_ids"] == ["v1", "v2", "v3"]
        assert "UPDATE" in page.evaluate("document.getElementById('caption').textContent")
        assert page.evaluate("document.getElementById('step-label').textContent") == "2 / 6"
        assert_clean(page)


def test_evolution_opens_at_the_step_in_the_address(load, shots, request):
    page = load("evolution", "#step=3")
    with checked(page, shots, request):
        assert page.status()["step"] == 3
        assert page.status()["edge_ids"] == ["v2", "v3", "v4", "v5"]
        assert page.evaluate("document.getElementById('step-label').textContent") == "3 / 6"
        assert page.status()["changed"] == ["v2", "v4", "v5"]
        # the slider is scaled by date: its value is the write's time, and the address follows it
        assert page.evaluate("Number(document.getElementById('step').value)") == page.evaluate(
            "graphmem.data().steps[2].at")
        page.evaluate("var s = document.getElementById('step'); s.value = String(Date.parse('2026-11-21T06:00:00Z'));"
                      "s.dispatchEvent(new Event('input'))")
        assert page.status()["step"] == 4 and page.evaluate("location.hash") == "#step=4"
        page.evaluate("var j = document.getElementById('jump'); j.value = '2026-11-01';"
                      "j.dispatchEvent(new Event('change'))")
        assert page.status()["step"] == 2 and page.evaluate("location.hash") == "#step=2"
        widths = page.evaluate("JSON.stringify(graphmem.view.edges.get().filter(function (e) {"
                               " return !e.hidden; }).map(function (e) { return [e.id, e.width]; }))")
        assert {e: w for e, w in json.loads(widths)} == {"v1": 4, "v2": 4, "v3": 4}


def test_evolution_play_button_steps_through_writes(load, shots, request):
    page = load("evolution")
    with checked(page, shots, request):
        page.evaluate("document.getElementById('play').click()")
        assert page.status()["step"] == 1
        assert page.wait_for("graphmem.status.step >= 2", timeout=6)
        page.evaluate("document.getElementById('play').click()")
        assert page.evaluate("document.getElementById('play').textContent").endswith("Play")


@pytest.mark.parametrize("name, fragment, shown", [
    ("snapshot", "#select=v6", HOSTILE),
    ("evolution", "#step=6", HOSTILE),
    ("timeline", "#version=v7", SCRIPTY),
    ("timeline", "#version=v5", SCRIPTY),
], ids=["snapshot", "evolution", "timeline-object", "timeline-episode"])
def test_injected_markup_is_shown_as_text_and_never_runs(load, shots, request, name, fragment,
                                                         shown):
    page = load(name, fragment)
    with checked(page, shots, request):
        assert page.evaluate("window.__pwned") is None
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        assert page.evaluate("document.querySelectorAll('script').length") == (
            4 if name == "timeline" else 5)
        panel = "caption" if name == "evolution" else "details"
        assert shown in page.evaluate(f"document.getElementById('{panel}').textContent")
        assert HOSTILE in page.evaluate("document.body.textContent")
        assert_clean(page)


def test_snapshot_details_panel_shows_the_supporting_sentence(load, shots, request):
    page = load("snapshot", "#select=v3")
    with checked(page, shots, request):
        text = page.evaluate("document.getElementById('details').textContent")
        assert "Ivan lives_in Berlin" in text and "I moved to Berlin on October 15." in text
        assert "2026-11-01 → still believed" in text
        assert page.evaluate("document.title").endswith(HOSTILE)


def test_hover_tooltip_shows_hostile_text_as_text(load, shots, request):
    page = load("snapshot")
    with checked(page, shots, request):
        point = page.evaluate("""(function () {
            var network = graphmem.view.network;
            var at = network.getPositions(['ivan', 'hostile']);
            var dom = network.canvasToDOM({x: (at.ivan.x + at.hostile.x) / 2,
                                           y: (at.ivan.y + at.hostile.y) / 2});
            var box = document.getElementById('graph').getBoundingClientRect();
            return [dom.x + box.left, dom.y + box.top];
        })()""")
        for nudge in (0, 1, 2):
            page.call("Input.dispatchMouseEvent", type="mouseMoved", x=point[0] + nudge,
                      y=point[1])
        tooltip = "(document.querySelector('div.vis-tooltip') || {}).textContent || ''"
        assert page.wait_for(f"({tooltip}).indexOf('Ivan likes') >= 0", timeout=5)
        assert HOSTILE in page.evaluate(tooltip)
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        assert page.evaluate("window.__pwned") is None
        assert_clean(page)


def _crossing(selector: str) -> str:
    """A script counting the pairs of SVG texts matched by ``selector`` whose boxes cross."""
    return "(function () { var selector = " + json.dumps(selector) + ";" + """
        var boxes = Array.prototype.map.call(document.querySelectorAll(selector),
            function (t) { var b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; });
        var found = 0;
        boxes.forEach(function (a, i) { boxes.slice(i + 1).forEach(function (b) {
            if (a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5) {
                found += 1; } }); });
        return found; })()"""


def test_timeline_zooms_keeps_every_bar_and_never_overlaps_labels(load, shots, request):
    page = load("timeline")
    with checked(page, shots, request):
        status = page.status()
        assert status["bars"] == 7 and status["min_width"] >= 6
        overlaps = _crossing("#timeline g.bar text")
        assert page.evaluate(overlaps) == 0
        munich = "document.querySelector('g.bar[data-version=v5] text').textContent"
        assert page.evaluate(munich) == "Munich"  # a two-week stay, labelled at full zoom-out
        before = page.status()["range"]
        box = page.evaluate("JSON.stringify(document.getElementById('timeline').getBoundingClientRect())")
        box = json.loads(box)
        for _ in range(6):
            page.call("Input.dispatchMouseEvent", type="mouseWheel", x=box["x"] + box["width"] * 0.9,
                      y=box["y"] + 60, deltaX=0, deltaY=-100)
        page.wait_for("graphmem.status.range[1] - graphmem.status.range[0] < "
                      f"{(before[1] - before[0]) / 2}", timeout=5)
        after = page.status()["range"]
        assert after[1] - after[0] < (before[1] - before[0]) / 2
        assert page.evaluate(overlaps) == 0
        page.evaluate("document.getElementById('zoom-reset').click()")
        assert page.status()["range"] == before
        # the as-of control steps back through the writes about Ivan
        for _ in range(3):  # 2026-11-23 (the retraction), 11-22, then 11-21: v7 not yet written
            page.evaluate("document.getElementById('asof-prev').click()")
        earlier = page.status()
        assert earlier["known"] < 7 and earlier["as_of"] < status["as_of"]
        assert_clean(page)


def test_a_long_zone_name_stays_clear_of_the_years(load, shots, request):
    """A new user's timeline in America/Argentina/Cordoba: "valid time (America/Argentina/Cordoba) →" ran over the
    first year's label."""
    page = load("timeline-zone")
    with checked(page, shots, request):
        assert page.evaluate(_crossing("#timeline g.axis text")) == 0
        assert "America/Argentina/Cordoba" in page.evaluate("document.querySelector('#timeline g.axis').textContent")
        assert_clean(page)


def test_graph_layout_is_the_same_on_every_load(load, shots, request):
    positions = []
    for _ in range(2):
        page = load("snapshot")
        with checked(page, shots, request):
            positions.append(page.evaluate("JSON.stringify(graphmem.view.network.getPositions())"))
            assert page.status()["outliers"] == 0
    assert positions[0] == positions[1]


@pytest.mark.parametrize("low, high, labels", [
    ("2020-01-01", "2026-11-25", ["2020", "2021", "2022", "2023", "2024", "2025", "2026"]),
    ("2026-09-01", "2026-11-25", ["Sep 2026", "Oct 2026", "Nov 2026"]),
    ("2026-10-01", "2026-10-20", ["2026-10-05", "2026-10-12", "2026-10-19"]),
    ("0001-01-02", "9997-12-31", ["1000", "2000", "3000"]),
])
def test_timeline_axis_ticks_fall_on_round_dates(load, low, high, labels):
    page = load("timeline")
    found = page.evaluate(f"graphmem.timelineTicks(Date.parse('{low}T00:00:00Z'), Date.parse('{high}T00:00:00Z'))"
                          ".map(function (t) {{ return t[1]; }})")
    assert found[:len(labels)] == labels


def test_long_labels_at_the_edge_of_the_graph_stay_inside_its_frame(browser, tmp_path, shots, request):
    """A twenty-second new user's: "Duarte (also Tomás Ferreira's brother)", a node at the left of a star, had its
    label cut by the frame (the view fitted the nodes' centres, not their labels)."""
    from datetime import UTC, datetime

    import visualize
    from graphmem.models import Entity, Version

    when = datetime(2026, 1, 1, tzinfo=UTC)
    names = ["Duarte (also Tomás Ferreira's brother)", "Tomás Ferreira's boss", "Hansa", "Berlin", "german", "Lena",
             "Tomás Ferreira's mother", "Valentim de Carvalho"]
    entities = {"tomas": Entity(id="tomas", name="Tomás Ferreira (also Tomi, Tomás)", kind="person")}
    versions = []
    for n, name in enumerate(names):
        entities[f"e{n}"] = Entity(id=f"e{n}", name=name, kind="person")
        versions.append(Version(id=f"v{n}", subject="Tomás Ferreira (also Tomi, Tomás)", subject_id="tomas",
                                predicate="knows",
                                object=name, object_id=f"e{n}", valid_from=when, recorded_at=when,
                                status="current"))
    path = tmp_path / "star.html"
    path.write_text(visualize.snapshot_html(versions, entities, {}, title="star", as_of=when, valid_at=when),
                    encoding="utf-8")
    page = browser.open(path.as_uri())
    try:
        page.wait_for(READY, timeout=20)
        page.call("Emulation.setDeviceMetricsOverride", width=900, height=800, deviceScaleFactor=1, mobile=False)
        page.call("Page.reload")  # (a window as narrow as a laptop's half screen: the frame ~530 pixels wide)
        page.wait_for(READY, timeout=20)
        with checked(page, shots, request):
            assert page.status()["nodes"] == 9 and page.status()["clipped"] == 0
    finally:
        page.close()
