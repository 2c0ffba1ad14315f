"""Search anchored on what the question names: "before he moved to Lisbon" and "my sister".

Facts are written here with their valid and recorded times; every question is asked through
``Store.search`` on the engine under test.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from graphmem import Store
from graphmem.cli import main

from .conftest import ENGINE

LATER = "2026-06-01"


def lucas(store: Store) -> None:
    """Lucas lived in Berlin, moved to Lisbon in 2019, then to Porto in 2024."""
    store.add("Lucas", "lives_in", "Berlin", valid_from="2015-01-01", recorded_at="2025-01-01",
              quote="Lucas grew up in Berlin.")
    store.add("Lucas", "lives_in", "Lisbon", valid_from="2019-05-01", recorded_at="2025-01-02",
              quote="Lucas moved to Lisbon in May 2019.")
    store.add("Lucas", "lives_in", "Porto", valid_from="2024-02-01", recorded_at="2025-01-03",
              quote="Lucas moved to Porto last February.")


def first_fact(store: Store, question: str, **options):
    return next(a for a in store.search(question, as_of=options.pop("as_of", LATER), **options) if a.kind == "fact")


def facts(store: Store, question: str, **options) -> list:
    return [a for a in store.search(question, as_of=options.pop("as_of", LATER), messages=False, **options)]


def test_before_an_event_is_timed_from_the_event_named_not_the_latest_change(store):
    lucas(store)
    hit = first_fact(store, "where did Lucas live before he moved to Lisbon")
    assert (hit.version.object, hit.version.status) == ("Berlin", "ended")
    [event] = hit.matched.resolved
    assert (event.kind, event.statement, event.at.date().isoformat()) == ("event", "Lucas lives_in Lisbon",
                                                                            "2019-05-01")
    assert hit.matched.time.valid_to == event.at and hit.matched.time.valid_from is None
    # without an object, "before he moved" is still timed from his latest move (to Porto)
    assert first_fact(store, "where did Lucas live before he moved").version.object == "Lisbon"
    # the event phrase may name only the object, for the person named before it
    assert first_fact(store, "where did Lucas live before Porto").version.object == "Lisbon"


def test_after_an_event_and_after_leaving(store):
    store.add("Ana", "works_at", "Acme", valid_from="2016-01-01", valid_to="2020-03-01", recorded_at="2025-01-01")
    store.add("Ana", "works_at", "Globex", valid_from="2020-06-01", valid_to="2023-01-01", recorded_at="2025-01-02")
    store.add("Ana", "works_at", "Initech", valid_from="2023-02-01", recorded_at="2025-01-03")
    hit = first_fact(store, "where did Ana work after she left Acme?")
    assert hit.version.object == "Globex"
    assert hit.matched.resolved[0].at.date().isoformat() == "2020-03-01"  # the end of Acme: she left
    assert first_fact(store, "where did Ana work after she started at Globex").version.object == "Initech"
    assert first_fact(store, "where did Ana work before Initech").version.object == "Globex"


def test_who_was_someone_dating_before_someone_either_way_round(store):
    store.add("Keisha", "dating", "Marcus", valid_from="2021-01-01", valid_to="2022-05-01", recorded_at="2025-01-01")
    store.add("Dre", "dating", "Keisha", valid_from="2019-01-01", valid_to="2020-01-01", recorded_at="2025-01-01T01:00")
    store.add("Terrence", "dating", "Keisha", valid_from="2023-03-01", recorded_at="2025-01-02")
    hit = first_fact(store, "who was Keisha dating before Terrence")
    assert (hit.version.subject, hit.version.object) == ("Keisha", "Marcus")
    assert hit.matched.resolved[0].statement == "Terrence dating Keisha"
    assert first_fact(store, "who was Keisha dating after Dre").version.object == "Marcus"


def test_an_event_not_known_gives_no_window_and_messages_answer_first(store):
    lucas(store)
    answers = store.search("where did Lucas live before he moved to Madrid", as_of=LATER)
    assert answers[0].kind == "message"
    found = [a for a in answers if a.kind == "fact"]
    assert found and all(a.matched.time is None for a in found)  # not his latest move, nor any move
    assert all(r.fact is None and r.phrase == "before he moved to Madrid" for a in found for r in a.matched.resolved)
    assert [r.fact for r in answers[0].resolved] == [None]


def test_an_event_is_the_fact_believed_at_the_questions_moment(store):
    lucas(store)
    # on 2025-01-01 only Berlin was known: the move to Lisbon was not, so nothing anchors
    early = facts(store, "where did Lucas live before he moved to Lisbon", as_of="2025-01-01T12:00:00")
    assert [h.version.object for h in early] == ["Berlin"] and early[0].matched.resolved[0].fact is None
    assert facts(store, "where did Lucas live before he moved to Lisbon")[0].matched.resolved[0].fact is not None


def family(store: Store) -> None:
    store.add("Anna", "sister_of", "Maya", recorded_at="2024-01-01")
    store.add("Bea", "sister_of", "Maya", recorded_at="2024-01-02")
    store.add("Carla", "sister_of", "Rosa", recorded_at="2024-01-03")
    store.add("Maya", "brother_of", "Tom", recorded_at="2024-01-04")  # Tom is Maya's sibling, not surely a brother
    for n, (person, place) in enumerate((("Anna", "Acme"), ("Bea", "Initech"), ("Carla", "Globex"),
                                         ("Tom", "Umbrella"), ("Maya", "Hooli"))):
        store.add(person, "works_at", place, recorded_at=f"2024-02-0{n + 1}")


def test_my_sister_means_the_speakers_sister_each_of_them(store):
    family(store)
    mine = facts(store, "where does my sister work", speaker="Maya")
    works = [h for h in mine if h.version.predicate == "works_at"]
    assert {h.version.subject for h in works[:2]} == {"Anna", "Bea"}
    for hit in works[:2]:
        [relation] = hit.matched.resolved
        assert (relation.kind, relation.phrase, relation.entity) == ("relation", "my sister", hit.version.subject)
        assert relation.statement == f"{hit.version.subject} sister_of Maya"
    rosas = facts(store, "where does my sister work", speaker="Rosa")
    assert (rosas[0].version.subject, rosas[0].version.object) == ("Carla", "Globex")
    assert rosas[0].matched.resolved[0].entity == "Carla"


def test_a_possessive_and_what_turns_around(store):
    family(store)
    hit = facts(store, "where does Rosa's sister work")[0]
    assert (hit.version.subject, hit.matched.resolved[0].phrase) == ("Carla", "Rosa's sister")
    # Maya brother_of Tom: Tom is Maya's sibling (asked "sibling"), never her brother or sister
    siblings = {r.entity for h in facts(store, "where does Maya's sibling work") for r in h.matched.resolved}
    assert siblings == {"Anna", "Bea", "Tom"}
    sisters = {r.entity for h in facts(store, "where does Maya's sister work") for r in h.matched.resolved}
    assert sisters == {"Anna", "Bea"}


def test_a_relation_believed_only_later_is_not_used_earlier(store):
    store.add("Anna", "works_at", "Acme", recorded_at="2025-01-01")
    store.add("Lena", "works_at", "Initech", recorded_at="2025-01-02")
    store.add("Maya", "works_at", "Hooli", recorded_at="2025-01-03")
    store.add("Anna", "sister_of", "Maya", recorded_at="2025-06-01")
    early = facts(store, "where does my sister work", speaker="Maya", as_of="2025-03-01")
    assert not any(h.matched.resolved for h in early)
    late = facts(store, "where does my sister work", speaker="Maya")
    assert late[0].version.subject == "Anna" and late[0].matched.resolved[0].entity == "Anna"


def test_your_mum_is_the_other_participants(store):
    store.add("Lupe", "mother_of", "Rosa", recorded_at="2025-01-01")
    store.add("Carmen", "mother_of", "Maya", recorded_at="2025-01-02")
    store.add("Lupe", "lives_in", "Fresno", recorded_at="2025-01-03")
    store.add("Carmen", "lives_in", "Boston", recorded_at="2025-01-04")
    store.add_episode("how is your mum doing?", kind="chat", actor="Maya", recorded_at="2025-02-01")
    store.add_episode("she's good, still in fresno", kind="chat", actor="Rosa", recorded_at="2025-02-02")
    hit = first_fact(store, "where does your mum live", speaker="Maya")
    assert (hit.version.subject, hit.version.object) == ("Lupe", "Fresno")
    assert first_fact(store, "where does your mum live", speaker="Rosa").version.subject == "Carmen"
    assert first_fact(store, "where does my mum live", speaker="Rosa").version.subject == "Lupe"
    # facts alone (--facts-only) still know whom "your" means (a new user's: it resolved to nothing there)
    only = facts(store, "where does your mum live", speaker="Maya")
    assert (only[0].version.subject, only[0].version.object) == ("Lupe", "Fresno")
    assert only[0].matched.resolved[0].entity == "Lupe"


def test_the_table_and_json_say_what_a_phrase_resolved_to(tmp_path):
    directory = tmp_path / "store"
    with Store(directory, engine=ENGINE) as store:
        family(store)
        lucas(store)
    runner = CliRunner()
    table = runner.invoke(main, ["--engine", ENGINE, "--store", str(directory), "search", "where does my sister work",
                                 "--speaker", "Maya", "--facts-only", "--limit", "2"])
    assert table.exit_code == 0, table.output
    assert "“my sister” = Anna (Anna sister_of Maya" in table.output
    out = runner.invoke(main, ["--engine", ENGINE, "--store", str(directory), "search",
                               "where did Lucas live before he moved to Lisbon", "--limit", "1", "--json"])
    [answer] = json.loads(out.output)
    event = answer["matched"]["resolved"][0]
    assert (answer["object"], event["kind"], event["statement"]) == ("Berlin", "event", "Lucas lives_in Lisbon")
    assert event["at"].startswith("2019-05-01")


def test_an_unknown_speaker_is_refused_in_one_line(tmp_path):
    directory = tmp_path / "store"
    with Store(directory, engine=ENGINE) as store:
        family(store)
    runner = CliRunner()
    base = ["--engine", ENGINE, "--store", str(directory), "search", "where does my sister work"]
    typo = runner.invoke(main, [*base, "--speaker", "Mayaa"])
    assert typo.exit_code != 0
    assert typo.output.strip().splitlines() == [
        "error: unknown speaker 'Mayaa': no entity has that name and no message was said by it; did you mean 'Maya'?"]
    assert runner.invoke(main, [*base, "--speaker", "maya"]).exit_code == 0  # names compare in any case
    # GRAPHMEM_SPEAKER, for a store that is one person's (a twelfth new user's: "--speaker" every time)
    wrong = runner.invoke(main, base, env={"GRAPHMEM_SPEAKER": "Mayaa"})
    assert wrong.exit_code != 0 and wrong.output.startswith("error: unknown speaker 'Mayaa'")
    assert runner.invoke(main, [*base, "--json"], env={"GRAPHMEM_SPEAKER": "Maya"}).output == runner.invoke(
        main, [*base, "--json", "--speaker", "Maya"]).output


def test_a_relation_phrase_is_said_on_the_facts_of_every_name_it_led_to(store):
    """"my girlfriend" (Tom's) led to Melanie, and her job was stated under another of her names, Mel: the answer
    said nothing of what "my girlfriend" had resolved to (found making the explorer's speaker box)."""
    store.add("Mel", "works_at", "LGI", recorded_at="2026-01-02")
    store.alias("Mel", "Melanie", recorded_at="2026-01-04")
    store.add("Melanie", "girlfriend_of", "Tom", recorded_at="2026-01-05")
    hit = facts(store, "where does my girlfriend work", speaker="Tom")[0]
    assert (hit.version.subject, hit.version.object) == ("Mel", "LGI")
    assert [(r.phrase, r.entity) for r in hit.matched.resolved] == [("my girlfriend", "Melanie")]


def test_a_first_name_anchors_the_one_person_whose_full_name_opens_with_it(tmp_path):
    """A new user's family chat: "where does Kevin live" did not find `Kevin Kamau lives_in Syokimau`, the store's
    only Kevin; it anchors him now, and anchors no one where two full names open with it."""
    from graphmem import Store
    from tests.conftest import ENGINE

    with Store(tmp_path / "s", engine=ENGINE) as store:
        store.add("Kevin Kamau", "lives_in", "Syokimau", valid_from="2026-05-01")
        store.add("Grace", "lives_in", "Nairobi")
        (first, *_) = store.search("where does Kevin live", limit=3, messages=False)
        assert (first.version.subject, first.matched.anchor) == ("Kevin Kamau", "Kevin Kamau")
        store.add("Ana", "lives_in", "New York")
        store.add("Tom", "traveled_to", "Work Camp")
        store.add("Ana", "works_at", "Green Park Hotel")
        # not a place's or a company's first word, nor one in small letters (a reviewer's)
        assert store.search("where does Ana work", limit=1, messages=False)[0].version.object == "Green Park Hotel"
        assert all(h.matched.anchor != "New York" for h in store.search("what is new with Tom", messages=False))
        assert all(h.matched.anchor is None for h in store.search("where does kevin live", limit=3, messages=False))
        store.add("Kevin Otieno", "works_at", "Safaricom")
        assert all(h.matched.anchor is None for h in store.search("where does Kevin live", limit=3, messages=False))
