"""visualize over a real Store: the worked examples of docs/semantics.md rendered as all three pages."""

import pytest

from tests.test_visualize import HOSTILE, page_data
from tests.test_visualize_cdp import screenshot_dir, screenshot_on_failure, start_browser
from visualize import render_evolution, render_snapshot, render_timeline


@pytest.fixture
def late_move(store, clock):
    store.add("Ivan", "lives_in", "Prague", valid_from="2020-01-01", recorded_at="2026-01-10",
              quote="I live in Prague.")
    store.add("Ivan", "lives_in", "Berlin", valid_from="2026-10-15", recorded_at="2026-11-01",
              quote="I moved to Berlin on October 15.")
    store.segment("Ivan", "lives_in", "Munich", valid_from="2026-10-01", valid_to="2026-10-15",
                  recorded_at="2026-11-20")
    store.add("Ivan", "likes", HOSTILE, recorded_at="2026-11-21", quote=f"likes {HOSTILE}")
    clock.set("2026-11-25")
    return store


@pytest.fixture
def lead(store, clock):
    """Ending versus correcting: warm, then cold (ending warm), then cold corrected to lost."""
    store.add("Acme lead", "status", "warm", valid_from="2026-03-01", recorded_at="2026-03-01")
    store.add("Acme lead", "status", "cold", valid_from="2026-04-20", recorded_at="2026-05-01",
              quote="The Acme lead went cold on April 20.")
    cold = next(v for v in store.beliefs() if v.object == "cold")
    store.correct(cold.id, "lost", reason="typing mistake: it was lost",
                  recorded_at="2026-06-01")
    clock.set("2026-06-15")
    return store


def objects(path) -> list[str]:
    return sorted(edge["to"] for edge in page_data(path.read_text())["graph"]["edges"])


def test_snapshot_now_and_as_of_the_past(late_move, tmp_path):
    now = render_snapshot(late_move, tmp_path / "now.html")
    assert now == tmp_path / "now.html"
    berlin = late_move.entity("Berlin").id
    assert objects(now) == sorted([berlin, late_move.entity(HOSTILE).id])
    past = render_snapshot(late_move, tmp_path / "past.html", as_of="2026-10-20",
                           valid_at="2026-10-20")
    assert objects(past) == [late_move.entity("Prague").id]
    assert "as believed at 2026-10-20, valid at 2026-10-20" in past.read_text()
    every = render_snapshot(late_move, tmp_path / "sub" / "all.html", valid_at="all")
    assert len(page_data(every.read_text())["graph"]["edges"]) == 4
    assert "valid at any time" in every.read_text()


def test_evolution_has_a_stop_per_write(late_move, tmp_path):
    path = render_evolution(late_move, tmp_path / "evolution.html")
    data = page_data(path.read_text())
    steps = data["steps"]
    assert [s["op"] for s in steps] == ["ADD", "UPDATE", "SEGMENT", "ADD"]
    assert data["episodes"][steps[1]["episode"]]["text"] == "I moved to Berlin on October 15."
    assert steps[2]["headline"].startswith("SEGMENT: Ivan lives_in Munich")


def test_timeline_as_of_now_and_before_the_move_was_known(late_move, tmp_path):
    path = render_timeline(late_move, "Ivan", tmp_path / "ivan.html")
    facts = page_data(path.read_text())["facts"]
    assert len(facts) == len(late_move.versions("Ivan")) == 6
    earlier = render_timeline(late_move, "ivan", tmp_path / "ivan-then.html", as_of="2026-11-05")
    data = page_data(earlier.read_text())
    assert len([v for v in data["versions"] if v["recorded_at"] <= data["as_of"]]) == 3
    assert "(3 recorded later)" in earlier.read_text()


def test_timeline_of_a_name_shows_every_name_of_its_entity_as_believed_then(store, clock, tmp_path):
    """A second trial's find: `render timeline Nads` showed only the alias's own facts. The page reads every
    name the entity went by at its as-of time (an alias ended later still counts before its end)."""
    store.add("Nadia", "works_at", "Arup", valid_from="2024-01-01", recorded_at="2026-01-01")
    store.alias("Nads", "Nadia", recorded_at="2026-02-01")
    store.add("Nads", "likes", "jazz", recorded_at="2026-02-02")
    store.add("Nadia", "knows", "Nads", recorded_at="2026-02-03")  # between two of her names: one bar
    clock.set("2026-03-01")
    for name in ("Nads", "Nadia"):
        data = page_data(render_timeline(store, name, tmp_path / f"{name}.html").read_text())
        bars = {(v["predicate"], v["other"], v["incoming"]) for v in data["versions"]}
        assert {("works_at", "Arup", False), ("likes", "jazz", False)} <= bars
        assert len(data["versions"]) == len({v["id"] for v in data["versions"]}) == 4
    assert "Timeline of Nads (also Nadia)" in (tmp_path / "Nads.html").read_text()
    before = page_data(render_timeline(store, "Nads", tmp_path / "then.html", as_of="2026-01-15").read_text())
    assert {v["predicate"] for v in before["versions"]} == {"alias_of", "likes", "knows"}  # Nadia not yet hers


def test_a_snapshot_draws_the_names_of_one_entity_as_one_node(store, clock, tmp_path):
    """A second trial's find: the snapshot drew "Nads" and "Nadia" as two people joined by an alias_of edge. The
    names believed one at the snapshot's time are one node, labelled with each; before the alias, two."""
    store.add("Nadia", "works_at", "Arup", valid_from="2024-01-01", recorded_at="2026-01-01")
    store.add("Nads", "likes", "jazz", recorded_at="2026-01-02")
    store.alias("Nads", "Nadia", recorded_at="2026-02-01")
    clock.set("2026-03-01")
    data = page_data(render_snapshot(store, tmp_path / "now.html").read_text())
    nadia = store.entity("Nadia").id
    assert {n["label"] for n in data["graph"]["nodes"]} == {"Nadia (also Nads)", "Arup", "jazz"}
    assert {(e["from"], e["label"]) for e in data["graph"]["edges"]} == {(nadia, "works_at"), (nadia, "likes")}
    assert len(data["facts"]) == 3  # the alias fact stays in the table of facts
    focused = page_data(render_snapshot(store, tmp_path / "f.html", focus="Nads").read_text())
    assert [n for n in focused["graph"]["nodes"] if n.get("focus")][0]["id"] == nadia
    before = page_data(render_snapshot(store, tmp_path / "then.html", as_of="2026-01-15").read_text())
    assert {n["label"] for n in before["graph"]["nodes"]} == {"Nadia", "Nads", "Arup", "jazz"}


def test_a_snapshot_shows_a_group_by_a_name_before_a_stand_in(store, clock, tmp_path):
    """A new user's (thirtieth session): the snapshot page drew "Priya's sister (also Anjali)" where the explorer
    drew "Anjali (also Priya's sister)"; both show a group by its first name that is no unnamed relative's stand-in."""
    store.add("Priya's sister", "sister_of", "Priya", recorded_at="2026-01-01")
    store.add("Anjali", "lives_in", "Edinburgh", recorded_at="2026-01-02")
    store.alias("Anjali", "Priya's sister", recorded_at="2026-01-03")
    clock.set("2026-02-01")
    data = page_data(render_snapshot(store, tmp_path / "now.html").read_text())
    assert "Anjali (also Priya's sister)" in {n["label"] for n in data["graph"]["nodes"]}


def test_a_snapshot_colours_the_names_of_one_entity_by_what_all_of_them_say(store, clock, tmp_path):
    """A new user's trial (in the explorer: "tommy" drawn in the grey of an "entity" though Tom is a person): the node
    of a group takes the kind every name's facts say, though its leading name (seen first) says nothing of it."""
    store.add("Sam", "mentioned", "T", recorded_at="2026-01-01")  # an undeclared predicate: T is nothing in particular
    store.add("Tom", "works_at", "BBC", recorded_at="2026-01-02")
    store.alias("T", "Tom", recorded_at="2026-01-03")
    clock.set("2026-02-01")
    assert store.kind("T") == "person"  # the group's, as the pages colour it (the thirty-first session)
    for page, focus in (("all.html", None), ("focused.html", "Tom")):
        data = page_data(render_snapshot(store, tmp_path / page, focus=focus).read_text())
        [node] = [n for n in data["graph"]["nodes"] if n["label"] == "T (also Tom)"]
        assert node["kind"] == "person", page


def test_correct_and_purge_appear_as_stops(lead, tmp_path):
    data = page_data(render_evolution(lead, tmp_path / "e.html").read_text())
    steps = data["steps"]
    assert [s["op"] for s in steps] == ["ADD", "UPDATE", "CORRECT"]
    assert steps[-1]["reason"] == "typing mistake: it was lost"
    assert [data["times"][i][4] for i in steps[-1]["closed"]] == [True]  # retracted
    warm = next(v for v in lead.versions() if v.object == "warm" and v.status == "ended")
    lead.purge("version", warm.id, recorded_at="2026-06-20")
    steps = page_data(render_evolution(lead, tmp_path / "p.html").read_text())["steps"]
    assert steps[-1]["op"] == "PURGE"


def test_store_pages_in_the_browser(late_move, tmp_path, tmp_path_factory, request):
    browser = start_browser(tmp_path_factory)
    shots = screenshot_dir(tmp_path_factory)
    try:
        pages = [render_snapshot(late_move, tmp_path / "snapshot.html"),
                 render_evolution(late_move, tmp_path / "evolution.html"),
                 render_timeline(late_move, "Ivan", tmp_path / "timeline.html"),
                 render_timeline(late_move, "Prague", tmp_path / "prague.html")]
        for path in pages:
            page = browser.open(path.as_uri())
            with screenshot_on_failure(page, shots / f"{request.node.name}-{path.stem}.png"):
                assert page.wait_for("window.graphmem && graphmem.status.ready"
                                     " && graphmem.status.stable !== false", timeout=20)
                status = page.status()
                assert status["errors"] == [] and status["resources"] == []
                assert page.problems() == []
                assert status["nodes"] > 0
                assert page.evaluate("window.__pwned") is None
            page.close()
    finally:
        browser.close()


def test_pictures_show_times_in_the_stores_zone(tmp_path, clock):
    """A Europe/London store's pictures said "14:31Z" where its command line and explorer said 15:31 (a new user's):
    each page now shows, and says, the store's zone; a UTC store's keep their Z."""
    from graphmem import Store
    from tests.conftest import ENGINE

    with Store(":memory:", engine=ENGINE, clock=clock, timezone="Europe/London") as london:
        london.add("Ivan", "lives_in", "Berlin", valid_from="2026-06-01T09:30:00Z", recorded_at="2026-06-02T14:31:00Z",
                   quote="I moved to Berlin.")
        clock.set("2026-06-10")
        pages = [render_snapshot(london, tmp_path / "s.html"), render_timeline(london, "Ivan", tmp_path / "t.html"),
                 render_evolution(london, tmp_path / "e.html")]
        for page in pages:
            html = page.read_text()
            assert "all times Europe/London" in html and page_data(html)["zone"] == "Europe/London", page
        assert "2026-06-01 10:30" in pages[0].read_text() and "2026-06-02 15:31" in pages[0].read_text()
        assert "14:31Z" not in pages[0].read_text()
    with Store(":memory:", engine=ENGINE, clock=clock) as utc:
        utc.add("Ivan", "lives_in", "Berlin", recorded_at="2026-06-10T14:31:00Z")
        html = render_snapshot(utc, tmp_path / "u.html").read_text()
        assert "all times UTC" in html and "14:31Z" in html


def test_a_zone_a_browser_may_not_know_is_shown_as_the_one_it_names():
    """"posix/Asia/Tokyo" is Asia/Tokyo to a page's script; "localtime" and "Factory" are UTC: the page's text and
    script agree (a reviewer's: a page said Tokyo's time in its subtitle and UTC on its axis)."""
    from graphmem.pages.palette import page_zone

    assert [page_zone(n) for n in ("Europe/London", "posix/Asia/Tokyo", "right/UTC", "localtime", "Factory", "utc",
                                   "Etc/UTC")] == ["Europe/London", "Asia/Tokyo", "UTC", "UTC", "UTC", "UTC", "UTC"]
