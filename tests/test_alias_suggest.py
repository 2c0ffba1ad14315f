"""`alias suggest`: pairs of names that may be one entity, with why; nothing merged unreviewed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.core.alias_evidence import Message, candidates, suggest
from graphmem.errors import Conflict
from graphmem.evaluation_aliases import evaluate, find, score_pairs

from .conftest import ENGINE

engine_free = pytest.mark.engine_free


def chat(*lines: tuple[str, str]) -> list[Message]:
    return [Message(f"m{i}", speaker, text) for i, (speaker, text) in enumerate(lines, 1)]


def pairs(found) -> set[frozenset[str]]:
    return {frozenset((p.a.lower(), p.b.lower())) for p in found}


SISTERS = chat(("Ada", "my sister mel is moving to edinburgh"),
               ("Bo", "no way, melanie in edinburgh? she'll love edi"),
               ("Ada", "we got peggy a cake for her birthday"),
               ("Bo", "the staff call her margaret but her friends call her peggy"))


@engine_free
def test_short_forms_and_nicknames_come_with_reasons_and_episodes():
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(SISTERS)}
    mel = found[frozenset(("mel", "melanie"))]
    assert mel.reasons == ("mel is a short form of melanie",)
    assert set(mel.episodes) == {"m1", "m2"}
    assert "edi is a short form of edinburgh" in found[frozenset(("edi", "edinburgh"))].reasons
    peggy = found[frozenset(("peggy", "margaret"))]
    assert peggy.reasons[0] == "peggy is a nickname of margaret" and peggy.score >= 0.9
    assert not any({"mel", "edinburgh"} <= pair or {"melanie", "margaret"} <= pair for pair in found)


@engine_free
def test_no_name_ends_on_anymore_and_no_call_record_is_read():
    """"nobody calls me bunty anymore" made "bunty anymore" a name, suggested as more of "Bunty"; an MCP call's
    record was cited as chat (a new user's)."""
    said = chat(("Dev", "pri please. nobody calls me bunty anymore. i'm 29"), ("Dev", "nobody says bombay anymore"),
                ("Priya", "Bunty!! happy birthday"), ("Priya", "Bombay was hot"))
    assert not [name for name in candidates(said, ["Bunty", "Bombay"]) if "anymore" in name.lower()]


@engine_free
def test_a_longer_name_said_by_the_other_speaker_is_no_short_name_and_bf_is_someones():
    """Dev's "his college girlfriend priyanka" was "used for Priya only by the other speaker" at 0.9, as if it were
    her short name; "meera bf" was more of Meera's name (a new user's)."""
    said = chat(("Priya", "hey Dev, how's delhi"), ("Dev", "good. rahul got engaged btw"),
                ("Priya", "no way!! to who"), ("Dev", "yes! to his college girlfriend priyanka"),
                ("Priya", "Meera says hi"), ("Dev", "meera bf is a doctor right"), ("Priya", "yes Meera is thrilled"))
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(said, threshold=0.4)}
    priya = found.get(frozenset(("priya", "priyanka")))
    assert priya is None or not any("only by the other speaker" in r for r in priya.reasons)
    assert frozenset(("meera", "meera bf")) not in found


def test_alias_suggest_reads_no_mcp_call_record(tmp_path):
    """An MCP call's record is no chat: its names are neither evidence nor evidence against (two names in one of
    them read as two people, and kept "peggy" from "Margaret"; one was cited as chat: a new user's)."""
    from graphmem import Store

    with Store(tmp_path / "s", engine=ENGINE) as store:
        store.remember("Margaret came round for tea", actor="Ada")
        store.remember("peggy is so sweet", actor="Bo")
        store.add_episode('alias {"name": "Margaret", "other": "Peggy"}', kind="tool")
        store.add_episode('add {"subject": "Mel", "predicate": "lives_in", "object": "Melanie"}', kind="tool")
        found = store.alias_suggestions(min_score=0.4)
        assert [(s.a, s.b, s.episodes) for s in found] == [("peggy", "Margaret", ["ep1", "ep2"])]


@engine_free
def test_laughter_is_no_name():
    """A new user's: "ahahaha ~ ahahahah" was suggested as one name; initials that look like it stay ("KA")."""
    found = pairs(suggest(chat(("Oksana", "AHAHAHA"), ("Dani", "ahahahah stop"), ("Oksana", "ahahaha ok"),
                               ("Dani", "hehehe"), ("Oksana", "jajaja"), ("Dani", "ahahahah"))))
    assert not [p for p in found if any("ah" in name for name in p)]


@engine_free
def test_names_set_against_each_other_are_not_suggested():
    """Dan and Danny look alike, and a nickname table joins both to Daniel; the chat sets them apart."""
    found = pairs(suggest(chat(("Rosa", "my boss dan is on my last nerve"),
                               ("Maya", "dan your boss or danny your brother? i can't keep up"),
                               ("Rosa", "dan. my boss. danny is a delight"),
                               ("Rosa", "mom made danny a mug that says DANIEL, she won't call him danny"))))
    assert frozenset(("dan", "danny")) not in found
    assert frozenset(("dan", "daniel")) not in found
    assert frozenset(("danny", "daniel")) in found


@engine_free
def test_two_jesses_a_mans_and_a_womans_name_and_a_firms_building_are_not_one():
    """b13, b14: "two Jesses in my life" (Jess and Jess Tran); Ioan the uncle, Ioana the sister; STC the coach
    company and "the stc station". Serwa and Serwaa (b7), a doubled letter, are still one name spelt two ways."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import ambiguous_names, evidence_from_names

    def read(name: str):
        lines = [json.loads(line) for line in (DEV / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        return read_chat([Message(m["id"], m["actor"], m["content"]) for m in lines], [])

    nick = nickname_table()[0]
    b13, b14 = read("b13"), read("b14")
    assert "jess" in ambiguous_names(b13)
    assert evidence_from_names("stc", "stc station", nick, b13) is None
    assert evidence_from_names("ioan", "ioana", nick, b14) is None
    assert evidence_from_names("serwa", "serwaa", nick, read("b7")) is not None


@engine_free
def test_a_name_said_to_stand_for_two_is_no_ones_alias():
    lines = chat(("Maya", "tom made paella. tom keller called out again at work"),
                 ("Rosa", "two toms is too many toms. tommy = your tom"),
                 ("Maya", "thomas says hi"))
    found = pairs(suggest(lines))
    assert not any("tom" in pair for pair in found)
    assert frozenset(("tommy", "thomas")) in found


@engine_free
def test_acronyms_surnames_and_titles():
    found = pairs(suggest(chat(("Ollie", "still at transport for london. tfl have me on weekends"),
                               ("Hannah", "your manager? bob hughes. hughes never decides anything"),
                               ("Ollie", "auntie sue says hi. sue is coming at 2"))))
    assert {frozenset(("tfl", "transport for london")), frozenset(("hughes", "bob hughes")),
            frozenset(("sue", "auntie sue"))} <= found


@engine_free
def test_a_speaker_is_not_the_people_they_name():
    """The nickname table makes Hannah a nickname of Susan; Hannah writing "sue" is not herself."""
    found = pairs(suggest(chat(("Hannah", "sue and kath in one kitchen, dear god"),
                               ("Ollie", "nana called your mum susan all night"))))
    assert frozenset(("hannah", "susan")) not in found
    assert frozenset(("sue", "susan")) in found


@engine_free
def test_a_speaker_giving_a_name_as_their_own_is_not_naming_someone_else():
    """b18 (dev): Samira writes "i'm sami. very different". Her own name is hers, when it could be a form
    of it (its start or a nickname of it); a name with only her first letter is someone else's, or a
    costume, a game, a borrowed phone (a reviewer's attack: "ok i'm frank." by Fran, "i'm maria" by
    Maya, "hi i'm amy, ana's flatmate" by Ana), and "dan here?" asks for Dan."""
    own = chat(("Youssef", "sami!! how is holland"), ("Samira", "haha no. i'm sami. very different"))
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(own)}
    assert "Samira gives sami as their own name" in found[frozenset(("sami", "samira"))].reasons
    assert frozenset(("mo", "mohammed")) in pairs(suggest(chat(("Mohammed", "mo here!"), ("Bo", "hey mo"))))
    for other in ("i'm sami's cousin, she's in utrecht", "sami and i went to the market"):
        found = pairs(suggest(chat(("Youssef", "sami!! how is holland"), ("Samira", other))))
        assert frozenset(("sami", "samira")) not in found, other
    for speaker, line, name in (("Fran", "ok i'm frank.", "frank"), ("Maya", "halloween!! i'm maria.", "maria"),
                                ("Ana", "hi i'm amy, ana's flatmate. she lost her phone", "amy"),
                                ("Dave", "dan here? he said 8", "dan")):
        found = pairs(suggest(chat((speaker, line), ("Bo", f"{name} lol"))))
        assert frozenset((name, speaker.lower())) not in found, line


@engine_free
def test_candidates_are_the_names_used_not_every_word():
    names = {n.lower() for n in candidates(SISTERS)}
    assert {"mel", "melanie", "edinburgh", "peggy", "margaret"} <= names
    assert not names & {"my", "is", "the", "to", "we", "got"}


@engine_free
def test_scoring_is_strict_about_names_of_two_entities():
    owners = {"tom": {"e1", "e2"}, "tommy": {"e1"}, "thomas": {"e1"}, "mel": {"e3"}, "melanie": {"e3"}}
    same = {frozenset(("mel", "melanie")), frozenset(("tommy", "thomas"))}
    score = score_pairs([("Mel", "Melanie"), ("tom", "tommy"), ("Tommy", "junk"), ("mel", "MELANIE")], owners, same)
    assert (score.suggested, score.right, score.found, score.same) == (3, 1, 1, 2)
    assert score.precision == pytest.approx(1 / 3) and score.recall == 0.5


def test_the_store_suggests_from_its_episodes_and_names_its_entities(store):
    store.add("Melanie", "lives_in", "Pittsburgh")
    for actor, text in (("Ada", "my sister mel says hi"), ("Bo", "tell mel i said hi back")):
        store.add_episode(text, kind="chat", actor=actor)
    found = store.alias_suggestions()
    assert [(s.a, s.b, s.a_entity, s.b_entity) for s in found] == [("mel", "Melanie", None, "melanie")]
    # a name the store holds is shown as stored, in the reasons too
    assert found[0].reasons == ["mel is a short form of Melanie"] and len(found[0].episodes) == 2


def test_propose_queues_alias_of_and_nothing_is_believed_until_approved(store_dir):
    runner = CliRunner()
    base = ["--store", str(store_dir), "--engine", ENGINE]
    assert runner.invoke(main, [*base, "init"]).exit_code == 0
    messages = store_dir.parent / "chat.jsonl"
    rows = [{"role": "user", "actor": a, "chat_time": t, "content": c} for a, t, c in (
        ("Ada", "2024-01-01T10:00:00Z", "my sister mel got the job"),
        ("Bo", "2024-01-01T10:05:00Z", "melanie!! tell her congrats"))]
    messages.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert runner.invoke(main, [*base, "ingest", str(messages), "--replay", "--approve"]).exit_code == 0
    shown = runner.invoke(main, [*base, "alias", "suggest"])
    assert shown.exit_code == 0 and "mel is a short form of melanie" in shown.output
    proposed = runner.invoke(main, [*base, "alias", "suggest", "--propose", "--json"])
    assert proposed.exit_code == 0, proposed.output
    queued = json.loads(proposed.output)
    assert [(p["subject"].lower(), p["predicate"], p["object"].lower(), p["state"], p["source"]) for p in queued] == [
        ("mel", "alias_of", "melanie", "pending", "alias-suggest")]
    beliefs = json.loads(runner.invoke(main, [*base, "beliefs", "--json"]).output)
    assert not [b for b in beliefs if b["predicate"] == "alias_of"]
    again = runner.invoke(main, [*base, "alias", "suggest"])
    assert "no names that look like one entity" in again.output  # already waiting for review
    assert runner.invoke(main, [*base, "review", "approve", queued[0]["id"]]).exit_code == 0
    beliefs = json.loads(runner.invoke(main, [*base, "beliefs", "--json"]).output)
    assert [(b["subject"].lower(), b["object"].lower()) for b in beliefs if b["predicate"] == "alias_of"] == [
        ("mel", "melanie")]


def test_a_suggestion_rejected_is_not_suggested_again(store):
    """A new user's trial: a pair answered no in review came back, and `--propose` queued it a second time."""
    for text in ("my sister mel got the job", "melanie!! tell her congrats"):
        store.add_episode(text, kind="chat", actor="Ada", reference_time="2024-01-01")
    [found] = store.alias_suggestions()
    asked = store.propose(found.a, "alias_of", found.b, source="alias-suggest")
    store.reject([asked.id], reason="mel is her cousin")
    assert store.alias_suggestions() == []


def labelled(folder: Path) -> Path:
    folder.mkdir(parents=True)
    rows = [("Rosa", "my boss dan is on my last nerve"),
            ("Maya", "dan your boss or danny your brother?"),
            ("Rosa", "dan. my boss. danny moved into my flat"),
            ("Maya", "how is your sister mel? still in pittsburgh?"),
            ("Rosa", "melanie is great, she loves pgh")]
    (folder / "x.jsonl").write_text("".join(json.dumps({
        "id": f"x-{i}", "session": 1, "chat_time": f"2024-01-01T10:0{i}:00Z", "role": "user", "actor": a,
        "content": c}) + "\n" for i, (a, c) in enumerate(rows, 1)))
    entities = [("e1", ["Dan"]), ("e2", ["Danny"]), ("e3", ["Mel", "Melanie"]), ("e4", ["Pittsburgh", "pgh"]),
                ("e5", ["Rosa"]), ("e6", ["Maya"])]
    (folder / "x.entities.jsonl").write_text("".join(json.dumps({"entity": e, "names": n}) + "\n" for e, n in entities))
    labels = [("Mel", "Melanie", True), ("Pittsburgh", "pgh", True), ("Dan", "Danny", False)]
    (folder / "x.pairs.jsonl").write_text("".join(json.dumps({"a": a, "b": b, "same": s}) + "\n" for a, b, s in labels))
    return folder


def test_eval_aliases_scores_a_tiny_labelled_chat(tmp_path):
    folder = labelled(tmp_path / "dev")
    report = evaluate(find([folder]), engine=ENGINE).as_json()
    ours, peer = report["parts"]["dev"]["graphmem"], report["parts"]["dev"]["peer"]
    assert (ours["suggested"], ours["right"], ours["same"], ours["found"]) == (2, 2, 2, 2)
    assert (peer["suggested"], peer["right"], peer["found"]) == (1, 0, 0)  # Dan and Danny look alike
    assert report["overall"] == report["parts"]["dev"]
    shown = CliRunner().invoke(main, ["--engine", ENGINE, "eval", "aliases", str(folder)])
    assert shown.exit_code == 0, shown.output
    assert "1.000 / 0.000" in shown.output and "dev" in shown.output


@engine_free
def test_eval_aliases_refuses_a_chat_without_labels(tmp_path):
    (tmp_path / "y.jsonl").write_text("{}\n")
    result = CliRunner().invoke(main, ["eval", "aliases", str(tmp_path)])
    assert result.exit_code == 1 and "no y.entities.jsonl beside it" in result.output


def test_names_a_fact_keeps_apart_and_unnamed_relatives_are_not_suggested(store):
    store.add("Melanie", "lives_in", "Paris", recorded_at="2024-01-01")
    store.add("Mel", "works_at", "Acme", recorded_at="2024-01-02")
    store.add("Maya's sister", "sister_of", "Maya", recorded_at="2024-01-03")
    store.add("Maya", "likes", "tea", recorded_at="2024-01-04")
    assert [(s.a.casefold(), s.b.casefold()) for s in store.alias_suggestions()] == [("mel", "melanie")]
    store.add("Mel", "sister_of", "Melanie", recorded_at="2024-01-05")  # two people after all
    assert store.alias_suggestions() == []


def test_a_place_and_an_organisation_are_not_suggested_as_one(store):
    """A new user's: "leeds ~ Leeds Central Library" (at --min-score 0.4) was queued by `alias suggest --propose`,
    and its approval refused ("leeds is a place and Leeds Central Library a organisation")."""
    said = ["messy lol. still in leeds obvs, flat is freezing", "i work at Leeds Central Library still, its fine",
            "last night in leeds :( the flat is all boxes"]
    for day, text in enumerate(said, 1):
        store.add_episode(text, kind="chat", actor="Bex", recorded_at=f"2024-01-0{day}")
    store.add("Bex", "likes", "Leeds", recorded_at="2024-01-10")
    store.add("Bex", "likes", "Leeds Central Library", recorded_at="2024-01-11")
    names = {frozenset((s.a.casefold(), s.b.casefold())) for s in store.alias_suggestions(min_score=0.4)}
    assert frozenset(("leeds", "leeds central library")) in names  # nothing tells their kinds yet
    store.add("Bex", "lives_in", "Leeds", recorded_at="2024-02-01")
    # a reviewer's: the library's kind told under another of its names only ("LCL"), as the gate reads it
    store.add("Bex", "works_at", "LCL", recorded_at="2024-02-02")
    store.alias("Leeds Central Library", "LCL", recorded_at="2024-02-03")
    assert frozenset(("leeds", "leeds central library")) not in {
        frozenset((s.a.casefold(), s.b.casefold())) for s in store.alias_suggestions(min_score=0.4)}
    with pytest.raises(Conflict, match="Leeds is a place and LCL an organisation"):
        store.add("Leeds", "alias_of", "Leeds Central Library")


@engine_free
def test_a_plain_english_word_is_no_form_of_a_name_by_its_letters():
    """b12, a11, b39 (dev): "boo" of "book", "news" of "Newport", "curry" of "Curepipe" were suggested as short and
    pet forms. A word English uses often, never written with a capital past a message's start and known to no
    name data, is no name's form by its letters; a speaker's name keeps its pet forms ("sunny" of Sunniva)."""
    from graphmem.core._alias_chat import english_counts

    assert english_counts()["book"] > 3000 and "mele" not in english_counts()
    found = pairs(suggest(chat(("Tuva", "gareth from newport is coming for dinner"),
                               ("Sunniva", "bad news from here. mele broke up with brent"),
                               ("Sunniva", "she asked mele to book it. boo said no"),
                               ("Tuva", "love you sunny"), ("Sunniva", "night"), ("Tuva", "go to sleep sunny"),
                               ("Tuva", "night sunny"))))
    assert frozenset(("boo", "book")) not in found
    assert frozenset(("sunny", "sunniva")) in found
    # a pet form made of a plain word that is a name too keeps its evidence: "dawnie" of "dawn" (a reviewer's find)
    assert frozenset(("dawn", "dawnie")) in pairs(suggest(chat(
        ("Ada", "dawn moved to leeds last week"), ("Bo", "dawnie in leeds? wild"), ("Ada", "dawn loves it there"),
        ("Bo", "miss dawnie already"), ("Ada", "dawnie says the rent is cheap"))))
    # written with a capital inside a sentence, the same word may be a name; a message's first word says nothing
    from graphmem.core._alias_chat import read_chat

    said = read_chat(chat(("Ada", "Book says hi"), ("Bo", "how's book? tell Curry hi")), [])
    assert said.plain_words == {"book"}  # "curry": written "Curry" inside a sentence


@engine_free
def test_a_month_said_as_one_is_no_form_of_a_name():
    """b47, b53, b57, b61 and b62 (dev): "june" was suggested as a nickname of "junior", "august" of "gus" and of "st
    augustine", in chats that say "in june" and "3 august". A month the chat says as a month is no name by its letters;
    where it never does, "june" may be June's."""
    dated = [("Ada", "school starts in June"), ("Bo", "how is Junior?"), ("Ada", "Junior says hi"),
             ("Bo", "Gus is back on 3 August"), ("Ada", "tell Gus hi"), ("Bo", "see you in june then")]
    assert frozenset(("june", "junior")) not in pairs(suggest(chat(*dated)))
    from graphmem.core._alias_chat import read_chat

    assert read_chat(chat(*dated), []).months == {"june", "august"}
    # a reviewer's: a person named for a month, said after "from" or before a count, is no month
    for said in ("Got a lovely card from August today.", "I owe August 2 beers.", "This may be the best dinner yet."):
        assert read_chat(chat(("Ada", said)), []).months == set(), said
    assert read_chat(chat(("Ada", "see you on the 5th of June")), []).months == {"june"}  # a second reviewer's
    for said in ("2 of June's kids came over", "all 3 of June's cats"):  # a third's: a count is no day
        assert read_chat(chat(("Ada", said)), []).months == set(), said
    called = pairs(suggest(chat(("Ada", "june says hi"), ("Bo", "how's june? tell june hi"),
                                ("Ada", "junie is 80 next week, we call her junie"), ("Bo", "aw junie"))))
    assert frozenset(("june", "junie")) in called


@engine_free
def test_a_name_written_with_a_combining_accent_is_one_word():
    """A new user's: "Zoe" and a combining diaeresis (U+0308), stored as the entity Zoë, was read as "Zoe" and a mark,
    and suggested as "Zoe ~ Zoë, one name spelt two ways" with no entity for "Zoe"."""
    said = chat(("Ana", "Zoe\u0308 is coming tonight"), ("Ben", "tell Zoë hi"), ("Ana", "Zoe\u0308 says hi"))
    assert suggest(said, ["Zoë"]) == []
    assert candidates(said, ["Zoë"]) == ["Ana", "Ben", "Zoë"]


@engine_free
def test_names_spelt_with_and_without_accents_are_one_name():
    found = suggest(chat(("Ada", "Séan rang from the ferry"), ("Bo", "tell Sean I said safe travels"),
                         ("Ada", "Séan says thanks")))
    assert frozenset(("séan", "sean")) in pairs(found)


@engine_free
def test_a_possessive_in_capitals_is_no_second_spelling():
    found = suggest(chat(("Ada", "ORLA is here"), ("Bo", "ORLA'S flight was early?"), ("Ada", "yes ORLA'S early")))
    assert not any("'" in p.a + p.b for p in found)


CAPITALISED = chat(
    ("Ada", "so Greta and Tomasz came for dinner, then Oskar rang"),
    ("Bo", "how is Greta? and Oskar?"),
    ("Ada", "Greta is grand. we went to Ballyvore after, Oskar drove"),
    ("Bo", "lovely. Ines and Petra said hello"),
    ("Ada", "Ines is back from Madrid. Petra too"),
    ("Bo", "Tomasz will ballyhoo about it. ball games all week"),
    ("Ada", "Oskar rang again, we'll see Petra and Ines friday"),
    ("Ada", "Peter, Susan, David and Kate say hi. Anne too"),
    ("Bo", "hi back to Peter and Susan, David, Kate and Anne"),
)


@engine_free
def test_a_lower_case_word_is_no_name_where_the_writers_capitalise_names():
    names = {n.lower() for n in candidates(CAPITALISED)}
    assert {"greta", "oskar", "ballyvore"} <= names
    assert "ball" not in names and "rang" not in names
    assert frozenset(("ball", "ballyvore")) not in pairs(suggest(CAPITALISED))


@engine_free
def test_a_short_form_that_begins_two_names_is_neither_s():
    lines = chat(("Ada", "marek and martina both came"), ("Bo", "mar was late as usual"),
                 ("Ada", "martina drove, marek cooked"), ("Bo", "mar said the same"))
    found = pairs(suggest(lines))
    assert frozenset(("mar", "marek")) not in found and frozenset(("mar", "martina")) not in found
    alone = chat(("Ada", "martina came"), ("Bo", "mar was late"), ("Ada", "martina drove"), ("Bo", "mar said so"))
    assert frozenset(("mar", "martina")) in pairs(suggest(alone))


@engine_free
def test_a_contraction_typed_without_its_apostrophe_is_no_name_and_a_pet_form_is_said_as_one():
    """A new user's chat: "shes a weirdo" is she's, no clipped "Sheffield"; "rhysie" is a pet form of rhys (it was
    called the other way round, "rhys is a short form of rhysie")."""
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(chat(
        ("Owen", "my brother rhys has always been evil"), ("Tasha", "shes a weirdo i love her"),
        ("Owen", "rhys is helping me pack"), ("Tasha", "tell rhysie i said get to work"),
        ("Tasha", "her name is Biscuit and shes 4"), ("Owen", "my brother Rhys moved to Sheffield last week")))}
    assert frozenset(("shes", "sheffield")) not in found
    assert found[frozenset(("rhys", "rhysie"))].reasons[0] == "rhysie is a pet form of rhys"


@engine_free
def test_a_pet_form_needs_a_consonant_before_its_ending():
    lines = chat(("Ada", "shay is coming to the party"), ("Bo", "shannon is too"), ("Ada", "shay and I will drive"),
                 ("Bo", "shannon said she'd bring cake"))
    assert frozenset(("shay", "shannon")) not in pairs(suggest(lines))


@engine_free
def test_a_word_the_chat_uses_as_a_common_word_is_no_short_form():
    found = pairs(suggest(chat(("Ada", "we're in wellington now"), ("Bo", "as well as the wind?"),
                               ("Ada", "my supervisor said no"), ("Bo", "super"))))
    assert not found & {frozenset(("well", "wellington")), frozenset(("super", "supervisor"))}


@engine_free
def test_a_name_qualified_by_whose_it_is_stands_for_two():
    found = pairs(suggest(chat(("Ada", "sophie mcleod moved in. sophie is lovely"),
                               ("Bo", "and max's sophie? the one he's dating"))))
    assert frozenset(("sophie", "sophie mcleod")) not in found


@engine_free
def test_a_name_put_right_in_the_next_message_initials_and_hyphens():
    found = pairs(suggest(chat(("Ada", "zee says mieka and wian are coming"), ("Ada", "mieke sorry. autocorrect"),
                               ("Bo", "how's mieke's wedding"),
                               ("Ada", "dr kowalczyk replied. dr k is tough"),
                               ("Bo", "my boss jean-philippe says hi"), ("Ada", "jp is a sweetheart"))))
    assert {frozenset(("mieka", "mieke")), frozenset(("dr k", "dr kowalczyk")),
            frozenset(("jp", "jean-philippe"))} <= found
    # b63 (dev): a greeting by name after a message ending on a country puts nothing right
    assert frozenset(("tahmena", "ukraine")) not in pairs(suggest(chat(
        ("Bo", "😂 better not ask. like ukraine"), ("Bo", "tahmena sorry I did not answer last week"),
        ("Ada", "oh no chief"))))


@engine_free
def test_asking_which_one_a_name_means_makes_it_two():
    found = pairs(suggest(chat(("Ada", "uncle bert fell off his bike"), ("Bo", "which bert? old bert or young bert"),
                               ("Ada", "bert the younger. uncle bert is fine"))))
    assert frozenset(("bert", "uncle bert")) not in found
    assert frozenset(("bert", "uncle bert")) in pairs(suggest(chat(("Ada", "uncle bert fell off his bike"),
                                                                   ("Bo", "bert? is he ok"))))


@engine_free
def test_plurals_descriptions_and_abstract_nouns_are_no_other_name():
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    weekdays = read_chat(CAPITALISED + chat(("Ada", "see you Monday, Greta"), ("Bo", "Mondays are slow")), [])
    assert evidence_from_names("monday", "mondays", nickname_table()[0], weekdays) is None
    described = CAPITALISED + chat(("Bo", 'everyone calls him "the acme guy"'))
    assert frozenset(("the acme", "the acme guy")) not in pairs(suggest(described, ["the acme"]))
    found = pairs(suggest(chat(("Ada", "tell meg congratulations. and tell tom"), ("Bo", "meg is thrilled"),
                               ("Ada", "congratulations to meg and tom"))))
    assert frozenset(("meg", "meg congratulations")) not in found


@engine_free
def test_a_name_clipped_with_s_or_z_is_a_pet_form():
    lines = chat(("Gareth", "tamsin and yusuf are coming sunday"), ("Wen", "gaz. are tams and yusuf bringing the dog"),
                 ("Gareth", "tamsin says yes"), ("Wen", "oh gaz, tams is a gem"))
    found = pairs(suggest(lines))
    assert {frozenset(("tams", "tamsin")), frozenset(("gaz", "gareth"))} <= found
    plural = pairs(suggest(chat(("Ada", "tam and tamsin came"), ("Bo", "two tams, what a day"),
                                ("Ada", "tam says tamsin is fine"))))
    assert frozenset(("tams", "tamsin")) not in plural
    short = pairs(suggest(chat(("Ada", "how is des?"), ("Bo", "des says hi"), ("Ada", "and dean?"),
                               ("Bo", "dean says hi"))))
    assert frozenset(("des", "dean")) not in short  # a stem of two letters begins too many names


@engine_free
def test_a_name_someone_calls_him_by_is_his():
    found = pairs(suggest(chat(("Ada", "who is she marrying?"),
                               ("Bo", "teodor. he's from leeds. everyone calls him teddo"),
                               ("Ada", "teodor says hi"),
                               ("Bo", "how's bartholomew?"), ("Ada", "fine. gran still calls him bodge"),
                               ("Bo", "gran says teodor and bartholomew look alike"))))
    assert frozenset(("teodor", "teddo")) in found
    assert frozenset(("gran", "bodge")) not in found and frozenset(("leeds", "teddo")) not in found


@engine_free
def test_a_name_a_speaker_says_they_are_called_is_theirs():
    """b42, b41, b34 (dev): "they're calling me "lucy" in it" by Losaline, and her "lucy is exhausted" after it,
    are her own names, not someone she names; a speaker the chat never names has no name to join it to, and
    neither does a name in someone else's words, one called by mistake, a call with a stop after "me", the
    first word of a longer nickname, a word that is no plain name ("calls me mate", "called me twice"), one of
    someone's ("jonas's ex") or opening news ("called me jonas is in hospital"), nor one the message puts right."""
    lucy = chat(("Teuila", "how's the new job losaline"),
                ("Losaline", 'starts thursday. they\'re calling me "lucy" in the email'),
                ("Teuila", "Lucy!! fancy"), ("Losaline", "lucy is exhausted. 2 games this week"))
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(lucy)}
    assert "Losaline says they are called lucy" in found[frozenset(("lucy", "losaline"))].reasons
    horvath = chat(("Dora", "how was the match bence"), ("Bence", "don't call me Horváth. I've heard it 1000 times"),
                   ("Dora", "ok ok. Horváth is a great name though"))
    assert frozenset(("bence", "horváth")) in pairs(suggest(horvath))
    for line, name in (('la doctora says call me Gaby. i can\'t', "gaby"),
                       ("abebe keeps calling me Abeba by mistake", "abeba"),
                       ("guess who called me. Pavlych. he wants me back", "pavlych"),
                       ('he calls me "Le Touriste" since the wedding', "le"),
                       ('he called me "mate" at the funeral', "mate"),
                       # an attacker's (104 probes: 60 wrong joins against the first version, none now)
                       ("first line of the book is call me Ishmael", "ishmael"),
                       ("his mum called me Jonas's ex at dinner", "jonas"),
                       ("mum called me Jonas is in hospital again", "jonas"),
                       ("stop calling me Kate!! im ANA", "kate"),
                       ("she called me twice and hung up", "twice")):
        lines = chat(("Bo", "Ana! how was it"), ("Ana", line), ("Bo", f"{name.title()} said hi"),
                     ("Ana", f"{name.title()} again"))
        assert frozenset((name, "ana")) not in pairs(suggest(lines)), line
    unnamed = chat(("Bo", "how's work"), ("Ana", "he calls me Nana now, everyone does"), ("Bo", "Nana lol"))
    assert frozenset(("nana", "ana")) not in pairs(suggest(unnamed))  # nobody calls her Ana in the chat


def test_a_name_the_store_believes_someone_is_called_is_not_set_apart_by_that_fact(store):
    """A believed fact between two names makes them two, but ``is_called`` names its subject: "Losaline
    is_called Lucy" is no reason to keep Lucy and Losaline apart."""
    store.add_episode("they're calling me lucy at work, losaline is too long for them", kind="chat",
                      actor="Losaline")
    store.add_episode("haha lucy. i like it. losaline suits you more", kind="chat", actor="Teuila")
    store.add("Losaline", "is_called", "Lucy")
    assert frozenset(("lucy", "losaline")) in pairs(store.alias_suggestions())
    store.add("Lucy", "knows", "Losaline")  # any other fact: two people
    assert frozenset(("lucy", "losaline")) not in pairs(store.alias_suggestions())


@engine_free
def test_the_words_of_one_full_name_are_not_set_apart():
    lines = CAPITALISED + chat(("Ada", "Marguerite Oyelaran wrote to me. Oyelaran is retiring"),
                               ("Bo", "Oyelaran? good for her. say hi to Marguerite"))
    found = pairs(suggest(lines, [], threshold=0.4))
    assert {frozenset(("oyelaran", "marguerite oyelaran")), frozenset(("marguerite", "marguerite oyelaran"))} <= found


@engine_free
def test_a_pet_form_in_ie_of_a_plain_name_needs_only_to_stand_where_names_go():
    found = pairs(suggest(chat(("Ada", "how's bron?"), ("Bo", "bron says hi"), ("Ada", "bronnie is a star"),
                               ("Bo", "bron? yes"))))
    assert frozenset(("bron", "bronnie")) in found


@engine_free
def test_a_person_described_then_named_in_one_message():
    found = pairs(suggest(chat(("Ada", "the radio guy has a name, it's daniel berg"), ("Bo", "daniel berg! nice"),
                               ("Ada", "the tall woman from the bakery. her name is orla"), ("Bo", "orla says hi"),
                               ("Ada", "the shy one met jo, her name is ines"), ("Bo", "ines and jo"))))
    assert {frozenset(("the radio guy", "daniel berg")), frozenset(("the tall woman", "orla"))} <= found
    assert frozenset(("the shy one", "ines")) not in found  # another name between: whose name is unclear
    rang = pairs(suggest(chat(("Ada", "the old man called jo last night"), ("Bo", "jo says he's lonely"))))
    assert frozenset(("the old man", "jo")) not in rang


@engine_free
def test_a_surname_alone_must_stand_where_names_go():
    lines = chat(("Ada", "i met tim lund. tim! sank in the mud"), ("Bo", "poor tim. sank how"),
                 ("Ada", "tim sank up to his knees. jo sank too"), ("Bo", "yeah, lund. he's fine"))
    found = pairs(suggest(lines, [], threshold=0.4))
    assert frozenset(("sank", "tim sank")) not in found
    assert frozenset(("lund", "tim lund")) in found


DEV = Path(__file__).parent / "data" / "aliases" / "dev"


#: The dev chats the suite scores on every run: the first sixteen (a1-a12, written for dev; b3, b4, b7, b8,
#: moved here from held out first). The whole dev set grows by two chats each time held-out chats move here
#: (about 1.2 CPU-s each), so it is scored by the test below only when asked (``-m slow``), and by
#: ``graphmem eval aliases tests/data/aliases/dev`` whenever the rules change.
FIRST_DEV = [DEV / f"{name}.jsonl" for name in [f"a{n}" for n in range(1, 13)] + ["b3", "b4", "b7", "b8"]]


@pytest.mark.one_engine  # the same figures on both engines (docs/aliases.md); the suite's time is counted
def test_the_first_dev_chats_keep_their_precision_and_recall():
    """The first sixteen dev chats: 0.858 and 0.271 (151 right of 176 suggested, 130 of 479 pairs found) when this
    test was split from the one below (2026-12-03, the seventh session); 0.898 and 0.211 (115 of 128, 101 found)
    since a longer form of a name or a surname alone is below the threshold (2026-12-04, the seventeenth)."""
    overall = evaluate(find(FIRST_DEV), engine=ENGINE).total("graphmem")
    assert overall.precision >= 0.89, overall.as_json()
    assert overall.recall >= 0.21, overall.as_json()


@pytest.mark.slow
@pytest.mark.one_engine
def test_the_dev_chats_keep_their_precision_and_recall():
    """The whole dev set (a1-a12, b3-b28), scored as `graphmem eval aliases tests/data/aliases/dev`: a
    change that loses precision or recall here fails (figures in docs/aliases.md, less a margin:
    a1-a8 0.991 and 0.401; a1-a10 0.933 and 0.372 once a9 and a10 were added and months and
    weekdays were no names; with b3 and b4, scored once held out and then moved here, 0.688 and
    0.323, and 0.912 and 0.329 since a building, a people or a compass word makes another entity of
    a place, a first name before two surnames stands for two people and quoted words are someone else's;
    with b7 and b8, scored once held out and then moved here, 0.847 and 0.306; 0.862 and 0.306 since
    "efua sister" is Efua's sister, "mama chidi" Chidi's mother and "well" no name; 0.874 and 0.327 since
    a full name written whole is a name, whatever the nickname data knows: "Serwaa Owusu"; with a11 and a12,
    written later the same day and scored once on arrival (0.522 / 0.194 on them), 0.801 and 0.299; 0.808
    and 0.299 since "St John" is no John with a title and "dont", "near" are no surnames; 0.809 and 0.301
    since a building named for no known place is its short name: "Middlemore Hospital"; with b9 and b10,
    scored held out, then moved here, 0.765 and 0.273; 0.780 and 0.273 since a street or a county is not
    the word it was named for ("front street", "grant county") and a university not its city; with b11 and b12,
    scored held out twice, then moved here, 0.754 and 0.267; 0.772 and 0.266 since a word that opens many a
    place's name is none of them ("são" of São Paulo) and a pet form that fits two names is neither's; with b13
    and b14, scored held out twice, then moved here, 0.772 and 0.260; 0.779 and 0.260 since "two jesses" makes
    Jess two people, "ioan" and "ioana" are a man's name and a woman's, and "stc station" is a building of STC;
    with b15-b18, scored held out twice, then moved here, 0.732 and 0.244; 0.792 and 0.222 since a pair joined
    only through others is not suggested: on first reads, 8 right of 95; with b19 and b20, 0.787 and 0.215; with b21
    and b22, scored held out twice, then moved here, 0.783 and 0.211; with b23 and b24, the same way, 0.777 and
    0.213; with b25 and b26, the same way, 0.776 and 0.213; with b27 and b28, the same way, 0.765 and 0.204; 0.765
    and 0.205 since a speaker's own name given as theirs, "i'm sami.", is no one else's; with b29 and b30, scored held
    out twice, then moved here, 0.772 and 0.205; with b31 and b32, the same way, 0.753 and 0.202; with b33 and
    b34, the same way, 0.726 and 0.196; with b35 and b36, the same way, 0.718 and 0.189; 0.728 and 0.188
    since a capitalised name with a lower-case word after it is no longer form of it: "the Leeds house";
    0.743 and 0.187 since a word said twice outside any name, never where names go, is no more of one: "tell
    tess happy birthday"); with b37 and b38, scored held out twice, then moved here, 0.728 and 0.190; 0.748 and
    0.190 since a building of a town the chat goes to is not the town ("labasa hospital"), no place is a surname
    ("airports fiji") and a people's word is no name ("samoan"); 0.743 and 0.190 with the first narrowed after an
    attacker's and a reviewer's finds: a town is one the chat lives in, moves to or puts a building in; 0.749 and
    0.194 since a title said after a name is that name's: "Sabina didi", "Laci bácsi"; with b39 and b40, scored held
    out twice, then moved here, 0.725 and 0.190; 0.751 and 0.191 since titles of other languages ("Monsieur",
    "Madame", "doña", "khalti"), a house's word ("Maison Ravelo"), a word that opens a place's name and common words
    ("everybody", "finally") are no names; 0.811 and 0.157 (261 right of 322) since a longer form of a name or a
    surname alone is below the threshold, as on first reads they were right a quarter of the time; 0.809 and 0.156
    with the titles that are words of English or names taken out again, after a reviewer's finds; with b41 and
    b42, scored held out twice, then moved here, 0.788 and 0.149, 264 right of 335; 0.795 and 0.156, 276 right of
    347, since a name a speaker says they are called is theirs ("they're calling me "lucy"") and a believed
    is_called is no fact that keeps two names apart; with b43 and b44, scored held out twice, then moved here, 0.795
    and 0.158, 294 right of 370; 0.817 and 0.158, 294 right of 360, since a plain English word is no form of a
    name by its letters, "boo" of "book"; with b45 and b46, scored held out twice, then moved here, 0.813 and
    0.155, 305 right of 375; with b47 and b48, the same way, 0.813 and 0.151, 313 right of 385; with b49 and b50,
    the same way, 0.813 and 0.150, 322 right of 396; with b51 and b52, the same way, 0.812 and 0.147, 329 right
    of 405; 0.816 and 0.147, 329 right of 403, since a country's people's word is no short form of it, "kyrgyz";
    with b53 and b54, scored held out twice, then moved here, 0.806 and 0.144, 336 right of 417; with b55 and
    b56, the same way, 0.802 and 0.143, 348 right of 434; with b57 and b58, the same way, 0.799 and 0.141, 353
    right of 442; 0.803 and 0.149, 378 right of 471, with titles of other languages and letters typed plain;
    with b59 and b60, the same way, 0.799 and 0.147, 386 right of 483; with b61
    and b62, the same way, 0.798 and 0.144, 395 right of 495; 0.806 and 0.144, 395 right of 490, since a month said
    as one is no form of a name, "june" of "junior"); with b63 and b64, the same way, 0.802 and 0.139, 400 right of
    499 (the recall floor 0.13 since); 0.805 and 0.139, 400 right of 497, since no place is put right as a person
    and "bangla" is no short form of Bangladesh; with b65 and b66 (moved to dev at the thirtieth session's start)
    0.797 and 0.135, 408 right of 512; with b67 and b68 (moved to dev at the thirty-first session's start) 0.795 and
    0.132, 414 right of 521; with b69 and b70 (moved to dev at the thirty-second session's start) 0.793 and 0.129,
    422 right of 532 (the recall floor 0.125 since); with b71 and b72 (moved to dev at the thirty-third session's
    start) 0.791 and 0.1246, 423 right of 535 (the recall floor 0.12 since); 0.793 and 0.126, 428 right of 540, since
    the end of a speaker's name the other calls them is evidence ("oh Nês", to Inês); with b73 and b74 (moved to dev
    at the thirty-fourth session's start) 0.789 and 0.124, 430 right of 545; with b75 and b76 (moved to dev at the
    thirty-fifth session's start) 0.780 and 0.122, 435 right of 558; 0.784 and 0.122, 435 right of 555, since a
    greeting or an article of another language is no name ("holaaa", "las Torres") and "gospođo" is a title; with
    b77 and b78 (moved to dev at the thirty-sixth session's start) 0.778 and 0.1198, 446 right of 573 (the recall
    floor 0.115 since); 0.795 and 0.119, 445 right of 560, since a name shouted in capitals is no acronym ("AMU!" to
    Amu), a place's people's word in -ese is no longer form of it ("Timorese"), a family's name is no one's surname
    ("two Mrs McCanns"), a word always in small letters is not a name always capitalised one letter away ("kabyle",
    "Kabylie") and accents tell "Vovó" from "Vovô" and "bà" from "ba"; with b79 and b80 (moved to dev at the
    thirty-seventh session's start) 0.784 and 0.118, 460 right of 587; 0.783 and 0.117, 459 right of 586, since a
    relation word shouted is no acronym, two words typed as one no name unless written as one, and a word of English
    stretched no alias ("god", "GODDDD"); with b81 and b82 (moved to dev at the thirty-eighth session's start)
    0.7765 and 0.1166, 469 right of 604 (the precision floor 0.775 since: of their 18 suggested, 9 right; of the
    nine wrong, the chats' hard negatives by design, "Jo" and "Tonton Jo", "Nils" and "Nilsa", "Sara" and
    "Sarajevo", "Laf" and "Lafayette" among them); with b83 and b84 (moved to dev at the thirty-ninth session's start)
    0.7702 and 0.1152, 476 right of 618 (the precision floor 0.77 since: of their 14 suggested, 7 right; the wrong,
    hard negatives again: "Salman" and "Salmaniya", "Maria" and "Mariam", "Chi" and "Chimwe"); 0.7727 and 0.1152,
    476 right of 616, since a people's word in "-ans" is no longer form of its place ("Mangarevans") and a country
    said after "in" is no short name ("neither is in Chile", "Chileshe"); with b85 and b86 (moved to dev at the
    fortieth session's start) 0.7676 and 0.1150, 492 right of 641; 0.7727 and 0.1150, 493 right of 638, since a
    people's word in "-ian" of a place in "-y" is none of its forms ("Italian"), "mam" and "mamma" are words for a
    mother (each speaker's own) and a word of a longer name is not the one called so ("Sri Meenakshi Flower
    Traders. … we all call him Muthu anna"); with b87 and b88 (moved to dev at the forty-first session's start)
    0.7749 and 0.1144, 506 right of 653; 0.7919 and 0.1123, 491 right of 620 (the recall floor 0.11 since), since a
    name stretched is no other name to review ("SIPHOOOO" and "Sipho": of the 21 such pairs suggested, the labels
    hold 7 the same and list no stretched name in the other 14) and a word after a name written with a capital no
    surname ("Cal forgot"); 0.792 and 0.112, 490 right of 619, at the session's end (a word of English written small
    after a name's capital, or shouted with it, no surname; "Sarah jones" one); with b89 and b90 (moved to dev at the
    forty-second session's start) 0.7903 and 0.1123, 505 right of 639; with b91 and b92 (moved at the forty-third
    session's start: on arrival 0.455 and 0.038, their names mostly ones no rule sees as candidates) 0.7846 and 0.1099,
    510 right of 650, so the recall floor is 0.105 since.
    """
    overall = evaluate(find([DEV]), engine=ENGINE).total("graphmem")
    assert overall.precision >= 0.77, overall.as_json()
    assert overall.recall >= 0.105, overall.as_json()


@engine_free
def test_a_name_in_someone_elses_quoted_words_is_not_the_speaker_naming_another():
    """b4: Harriet writes `David says, "Hattie, you look like a duchess."`: Hattie is her, in David's words."""
    from graphmem.core._alias_chat import read_chat
    from graphmem.core._alias_rules import evidence_against

    lines = [json.loads(line) for line in (DEV / "b4.jsonl").read_text(encoding="utf-8").splitlines()]
    read = read_chat([Message(m["id"], m["actor"], m["content"]) for m in lines], [])
    assert all(read.tokens[m][s].quoted for m, s, _ in read.mentions["hattie"] if read.speaker(m) == "harriet")
    assert ("hattie", "harriet") not in evidence_against(read)
    assert frozenset(("hattie", "harriet")) in pairs(suggest([Message(m["id"], m["actor"], m["content"])
                                                              for m in lines]))


@engine_free
def test_places_with_more_words_and_two_people_of_one_first_name_are_set_apart():
    lines = chat(("Ada", "flying out of Gdansk airport, then a week in Gdansk"), ("Bo", "Gdansk! say hi to Poland"),
                 ("Ada", "all the Polish food. Poland is great"), ("Bo", "East Gdansk or the old town?"),
                 ("Ada", "and Marek Nowak says hi. Marek Zielinski too, my other Marek"),
                 ("Bo", "Marek Nowak the tall one? say hi to Marek"))
    found = pairs(suggest(lines))
    for apart in (("gdansk", "gdansk airport"), ("gdansk", "east gdansk"), ("marek", "marek nowak"),
                  ("marek", "marek zielinski"), ("marek nowak", "marek zielinski")):
        assert frozenset(apart) not in found, apart
    lines = chat(("Ada", "we had Korea for a month, the Korean food!!"), ("Bo", "Korea sounds amazing. Korean bbq?"))
    assert frozenset(("korea", "korean")) not in pairs(suggest(lines))


@engine_free
def test_months_weekdays_and_the_word_name_are_no_names():
    lines = chat(("Ada", "marta moves in March. Marta!"), ("Bo", "marta in march, fine. rent for March?"),
                 ("Ada", "marco says Friday. his name is Marco"), ("Bo", "Friday with marco then"))
    found = pairs(suggest(lines))
    assert not any({"march", "friday", "name"} & set(" ".join(pair).split()) for pair in found), found


@engine_free
def test_a_name_given_is_a_first_name_and_a_word_after_a_pronoun_is_a_verb():
    lines = chat(("Ada", "the new neighbour? her name is ngaio. ngaio tamatea."), ("Bo", "tamatea! nice"),
                 ("Ada", "tom swam home. she swam too, and who swam after"),
                 ("Bo", "tom swam? how far"), ("Ada", "tom swam with him"))
    found = pairs(suggest(lines, [], threshold=0.4))
    assert {frozenset(("ngaio", "ngaio tamatea")), frozenset(("tamatea", "ngaio tamatea"))} <= found
    assert not any("swam" in " ".join(pair) for pair in found)


@engine_free
def test_a_message_of_thousands_of_names_takes_no_minutes():
    """A pasted message naming people thousands of times (6,000 characters) took seconds, and one
    of 50,000 hours: each pair of spots was checked against every full name of the message. Now 46,000
    characters read in a tenth of a second; were it quadratic again, the suite would not end (no clock is
    asserted here: a shared machine's timings are noise). Four first names, each before two surnames, are
    many people's names: none of them is paired."""
    import random

    rng = random.Random(3)
    firsts, lasts = "Hattie David Marek Tessa Priya Declan Nora Ivan".split(), "Fenwick Hollis Nowak Byrne".split()
    text = "".join(f"“{rng.choice(firsts)} {rng.choice(lasts)} ” ” {rng.choice(firsts)}, hi. " for _ in range(1600))
    found = pairs(suggest([Message("m1", "Maya", text), Message("m2", "Sam", "ok")]))
    assert not any(first.lower() in pair for first in firsts for pair in found)


@engine_free
def test_an_inch_mark_opens_no_quotation_and_german_and_french_quotes_close():
    from graphmem.core._alias_chat import _tokens

    def quoted(text):
        return [t.text for t in _tokens(0, text) if t.quoted]

    assert quoted('he is 6\'2" and Tom says hi') == []
    assert quoted("sie sagt „Hallo Tom“ und Anna") == ["Hallo", "Tom"]
    assert quoted("il dit «Salut Tom» et Anna") == ["Salut", "Tom"]
    assert quoted('David says, "Hattie, you look great." then Tom') == ["Hattie", "you", "look", "great"]


@engine_free
def test_someones_relative_and_a_parent_called_after_a_child_are_other_people():
    """b7, b8: "efua sister" (Efua's sister), "Mama Chidi" (Chidi's mother, called after him), and a
    place someone knows "well" is no longer name."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "Efua is great"), ("Bo", "Mama Chidi called, Chidi is fine"),
                                        ("Ada", "Efua's sister came too")), [])
    nick = nickname_table()[0]
    assert evidence_from_names("efua", "efua sister", nick, talk) is None
    assert evidence_from_names("chidi", "mama chidi", nick, talk) is None
    assert evidence_from_names("chidi", "chidi okafor", nick, talk) is not None  # a surname still counts
    known = pairs(suggest(chat(("Ada", "i have an interview on the 10th, Mott MacDonald, in Leeds"),
                               ("Bo", "Leeds is far from Manchester?"),
                               ("Ada", "i'm looking for a room in Leeds. a friend helps me, she knows Leeds well")),
                          ["Leeds"]))
    assert frozenset(("leeds", "leeds well")) not in known


@engine_free
def test_a_full_name_written_whole_is_a_name_even_unknown_to_the_nickname_data():
    """b7: "Serwaa. Serwaa Owusu": a first name the chat plainly uses and a capitalised word after
    it; not a place and its region ("London Ontario"), a place word ("Liberty Village"), a number."""
    talk = CAPITALISED + chat(("Ada", "I saw Serwaa today with Tom"), ("Bo", "tell Serwaa hi! her full name?"),
                              ("Ada", "Serwaa. Serwaa Owusu"),
                              ("Bo", "Greta is in London. Not that London, London Ontario"),
                              ("Ada", "Petra lives in Liberty Village now, Liberty is nice"),
                              ("Bo", "Two Chrises at one party, Oskar said"))
    found = pairs(suggest(talk))
    assert frozenset(("serwaa", "serwaa owusu")) in found
    assert not {frozenset(("london", "london ontario")), frozenset(("liberty", "liberty village")),
                frozenset(("two", "two chrises"))} & found


@engine_free
def test_a_saint_is_no_title():
    """a11: "St John" (the ambulance service) is not John with a title."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "John is on shift"), ("Bo", "St John sent him")), [])
    assert evidence_from_names("john", "st john", nickname_table()[0], talk) is None
    assert evidence_from_names("sue", "auntie sue", nickname_table()[0], talk) is not None


@engine_free
def test_a_hospital_named_for_no_known_place_is_its_short_name():
    """a11: "Middlemore" and "Middlemore Hospital" are one hospital; "York" and "York Hospital" a
    city and a building in it."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "I'm at Middlemore now"), ("Bo", "Middlemore Hospital? nice")), [])
    assert evidence_from_names("middlemore", "middlemore hospital", nickname_table()[0], talk) is not None
    assert evidence_from_names("york", "york hospital", nickname_table()[0], talk) is None


@engine_free
def test_a_building_of_a_town_the_chat_goes_to_is_not_the_town():
    """b23, b30, b37: "Labasa" and "Labasa Hospital" are a town and its hospital when the chat says one moves
    there, lives there, or a building stands there; "back in Addenbrookes" says no town."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "Mere moved to Labasa last week"), ("Bo", "the doctor in Labasa?"),
                                        ("Ada", "yes! she starts at Labasa Hospital monday")), [])
    assert evidence_from_names("labasa", "labasa hospital", nickname_table()[0], talk) is None
    # an attacker's: a hospital, an airport, a university is said "in", "to", "from" itself
    hospital = read_chat(CAPITALISED + chat(("Ada", "dad is back in Addenbrookes"), ("Bo", "oh no"),
                                            ("Ada", "mum drove him to Addenbrookes at 2am"),
                                            ("Bo", "Addenbrookes Hospital is good")), [])
    assert evidence_from_names("addenbrookes", "addenbrookes hospital", nickname_table()[0], hospital) is not None
    driven = read_chat(CAPITALISED + chat(("Ada", "mum drove Ines to Addenbrookes at 2am"),
                                          ("Bo", "Addenbrookes Hospital is good")), [])  # a reviewer's: after a name
    assert evidence_from_names("addenbrookes", "addenbrookes hospital", nickname_table()[0], driven) is not None
    lives = read_chat(CAPITALISED + chat(("Ada", "my aunty lives in Valmiera"),
                                         ("Bo", "is she at Valmiera Hospital?")), [])
    assert evidence_from_names("valmiera", "valmiera hospital", nickname_table()[0], lives) is None
    standing = read_chat(CAPITALISED + chat(("Ada", "the hospital in Mariehamn called"),
                                            ("Bo", "Mariehamn Hospital? about the scan")), [])
    assert evidence_from_names("mariehamn", "mariehamn hospital", nickname_table()[0], standing) is None


@engine_free
def test_a_title_said_after_a_name_is_that_name_with_a_title():
    """a4, b31, b33, b34: "Sabina didi", "Laci bácsi", "Orhan bey", "Rohan sir" are Sabina, Laci, Orhan, Rohan
    with the title said after the name; "néni" is no surname."""
    from graphmem.core.alias_evidence import suggest

    said = chat(("Ada", "Sabina called, she's fine"), ("Bo", "say hi to Sabina didi from me"),
                ("Ada", "and Laci bácsi fixed the boat"), ("Bo", "Laci is a star. and Erzsi néni?"),
                ("Ada", "Erzsi is well"))
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(said, [], threshold=0.5)}
    assert "with a title" in found[frozenset(("sabina", "sabina didi"))].reasons[0]
    assert frozenset(("laci", "laci bácsi")) in found
    assert frozenset(("néni", "erzsi néni")) not in found
    wine = chat(("Ada", "Pista bácsi gave us wine"), ("Bo", "Pista bácsi is a legend"), ("Ada", "Pista bácsi's wine!"))
    assert [(p.a, p.b) for p in suggest(wine, [], threshold=0.5)] == []  # a possessive is no other spelling


@engine_free
def test_a_peoples_word_and_a_place_are_no_ones_names():
    """a11, b15, b37: "Samoan" is no longer "Sam", "Vietnamese" no short "Vietnam"; "Airports Fiji" has no
    surname "Fiji", nor "Port Authority" one "Authority"."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "Sam is Samoan, from Apia"), ("Bo", "Sam! say hi to Sam"),
                                        ("Ada", "Vietnamese food in Vietnam"), ("Bo", "Airports Fiji hired me, Fiji!"),
                                        ("Ada", "the Port Authority called. Authority says no")), [])
    nick = nickname_table()[0]
    assert evidence_from_names("sam", "samoan", nick, talk) is None
    assert evidence_from_names("vietnam", "vietnamese", nick, talk) is None
    assert evidence_from_names("fiji", "airports fiji", nick, talk) is None
    assert evidence_from_names("authority", "port authority", nick, talk) is None
    named = read_chat(CAPITALISED + chat(("Ada", "Kate Holland called"), ("Bo", "Holland? the new manager"),
                                         ("Ada", "yes Holland is nice")), [])
    assert evidence_from_names("holland", "kate holland", nick, named) is not None  # a place after a first name
    own = read_chat(CAPITALISED + chat(("Ada", "Tomasz Jordan called"), ("Bo", "Tomasz? what did he want"),
                                       ("Ada", "Jordan wants the flat")), [])  # a first name the chat says alone
    assert evidence_from_names("jordan", "tomasz jordan", nick, own) is not None


@engine_free
def test_a_street_or_a_county_is_not_the_word_it_was_named_for():
    """b9, b10: "front" (of "in front of") and "Front Street", "grant" and "Grant County" are two;
    "Leicester" and "Leicester Uni" a city and a university in it."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    talk = read_chat(CAPITALISED + chat(("Ada", "a little house on Front Street"), ("Bo", "up front lol"),
                                        ("Ada", "welcome to Grant County"), ("Bo", "Leicester Uni is big")), [])
    nick = nickname_table()[0]
    assert evidence_from_names("front", "front street", nick, talk) is None
    assert evidence_from_names("grant", "grant county", nick, talk) is None
    assert evidence_from_names("leicester", "leicester uni", nick, talk) is None


@engine_free
def test_a_known_place_typed_without_its_vowels_is_that_place():
    """b9: "dbn" is Durban, as "ldn" is London; a word that is no known place needs both names plainly names."""
    from graphmem.core.alias_evidence import suggest

    said = chat(("Ada", "flying back to Durban on friday"), ("Bo", "say hi to everyone in dbn"),
                ("Ada", "dbn is so hot now"), ("Bo", "Durban in summer lol"))
    assert [(p.a, p.b) for p in suggest(said, [], threshold=0.5)] == [("dbn", "Durban")]
    shorthand = chat(("Ada", "back in Leicester tonight"), ("Bo", "nice, talk ltr"), ("Ada", "Leicester is cold"),
                     ("Bo", "ok ltr then"))
    assert suggest(shorthand, [], threshold=0.5) == []  # "ltr" (later), typed where no place goes


@engine_free
def test_the_gazetteer_keeps_each_place_apart():
    """A missing comma once made one name of "the west midlands" and "abuja"."""
    from graphmem.core import places

    lines = places._PLACE_NAMES.strip().splitlines()
    assert all(line.rstrip().endswith(",") for line in lines[:-1])
    assert all(places.is_place(name) for name in ("Abuja", "the west midlands", "Gaborone", "Lagos"))


@engine_free
def test_a_message_of_thousands_of_names_is_read_in_time():
    """Alternating full names written whole ("Orla Kweku Orla Kweku ...") made the usage evidence
    walk every pair of their spots (minutes); a message of more than a few hundred names is not read
    for usage."""
    found = pairs(suggest([Message("m1", "A", "hi " + "Orla Kweku " * 5000),
                           Message("m2", "B", "Kweku Darko said hi. Orla too")]))
    assert frozenset(("orla", "kweku")) not in found  # read (the suite's timeout ends a hang), and two people


@engine_free
def test_a_message_of_many_quotations_is_read_in_time_about_linear_in_its_length():
    """Each quotation looked for "called him" before it from the message's start (quadratic: 16,000
    quotations took ~20 s); where "called him" ends is found once, and a name quoted there is still one."""
    assert suggest(chat(("Ada", '"hi" ' * 16_000))) == []
    assert "Big Tom" in candidates(chat(("Ada", 'we call him "Big Tom" and "hi" ' * 2_000)))


@engine_free
def test_an_acronym_spelt_out_short_of_a_letter_many_times_is_read_in_time():
    """Each "New York" short of "NYC"'s last letter counted the chat's word pairs again (quadratic:
    12,000 took ~35 s); they are counted once."""
    assert "NYC" in candidates(chat(("Ada", "NYC. New York. " * 12_000)))
    # and what sets two names apart was tried on every pair of their mentions, though only two in one
    # sentence can (3,000: 6 s; 12,000: 96 s): now only those of one sentence are tried
    from graphmem.core.alias_evidence import suggest

    assert [(p.a, p.b) for p in suggest(chat(("Ada", "NYC. New York. " * 3_000)), [], threshold=0.5)] == [
        ("NYC", "New York")]


@engine_free
def test_a_word_that_opens_a_place_or_fits_two_names_is_neither():
    """b11, b12: "são" is no short name of São Paulo, nor "spy" its initials; "brissie", in a chat of
    Brisbane and Bristol both, could be either city's pet form and is neither's."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    nick = nickname_table()[0]
    brazil = read_chat(CAPITALISED + chat(("Ada", "flying via São Paulo, SPY said the board"),
                                          ("Bo", "são paulo is huge"), ("Ada", "NYC next, then Sao")), [])
    assert evidence_from_names("são", "são paulo", nick, brazil) is None
    assert evidence_from_names("spy", "são paulo", nick, brazil) is None
    assert evidence_from_names("nyc", "new york", nick, brazil) is not None  # its city
    cities = read_chat(CAPITALISED + chat(("Ada", "Bristol was wet"), ("Bo", "brisbane is hot, brissie in summer"),
                                          ("Ada", "brissie sounds nice")), [])
    assert evidence_from_names("brissie", "brisbane", nick, cities) is None
    assert evidence_from_names("brissie", "bristol", nick, cities) is None
    one = read_chat(CAPITALISED + chat(("Ada", "Jonathan rang"), ("Bo", "Jonny always rings"),
                                       ("Ada", "Jonny says hi")), [])
    assert evidence_from_names("jonny", "jonathan", nick, one) is not None  # a pet form of one name


@engine_free
def test_a_capitalised_name_and_a_lower_case_word_after_it_are_no_longer_name():
    """"the Leeds house" of a writer who capitalises names is a house in Leeds, not more of Leeds' name;
    "Marguerite Oyelaran", both words capitalised, is Marguerite with her surname."""
    lines = CAPITALISED + chat(("Ada", "Marguerite Oyelaran wrote to me. Oyelaran is retiring"),
                               ("Bo", "Oyelaran? good for her. say hi to Marguerite. I miss Leeds"),
                               ("Ada", "Mum says they found a buyer for the Leeds house. Leeds was home"))
    found = pairs(suggest(lines, [], threshold=0.4))
    assert frozenset(("marguerite", "marguerite oyelaran")) in found
    assert frozenset(("leeds", "leeds house")) not in found


@engine_free
def test_a_common_word_after_a_name_is_no_more_of_it():
    """"tell tess happy birthday": "happy", said alone elsewhere and never where names go, is no surname of
    Tess; "hughes", said only with Rob, is his."""
    found = pairs(suggest(chat(("ada", "tess rang. tess says hi"), ("bo", "so happy for her. is tess ok"),
                               ("ada", "tell tess happy birthday from me"),
                               ("bo", "happy days. and rob hughes? rob is well"),
                               ("ada", "so happy. say hi to rob hughes")), [], threshold=0.4))
    assert frozenset(("rob", "rob hughes")) in found
    assert frozenset(("tess", "tess happy")) not in found


@engine_free
def test_titles_of_other_languages_a_house_a_place_opener_and_common_words_are_no_names():
    """b39, b40 on arrival: "Monsieur Ravelo" and "Madame Zafy" are a title and a surname, "Maison Ravelo" a firm,
    "San Cristóbal" and "Sainte-Croix" no "San" or "Sainte", and "everybody", "finally", "anybody" nobody's name."""
    said = chat(("Ada", "Monsieur Ravelo called. Maison Ravelo is hiring"), ("Bo", "Ravelo! and Madame Zafy?"),
                ("Ada", "Zafy is fine. we went to San Cristóbal, then Sainte-Croix"), ("Bo", "San Cristóbal!! 😍"),
                ("Ada", "Eve says hi to everybody. finally done"), ("Bo", "eve!! finally. Fina too?"),
                ("Ada", "Fina is fine, she won't kill anybody"), ("Bo", "ayyy"), ("Ada", "ay"))
    found = pairs(suggest(said, [], threshold=0.5))
    for a, b in [("ravelo", "maison ravelo"), ("zafy", "madame zafy"), ("san", "san cristóbal"),
                 ("sainte", "sainte-croix"), ("eve", "everybody"), ("fina", "finally"), ("ay", "ayyy")]:
        assert frozenset((a, b)) not in found, (a, b)


@engine_free
def test_a_title_is_no_everyday_word_nor_a_name_and_an_opener_that_is_a_name_stays_one():
    """A reviewer's: "ammo", "rev", "hajj", "imam", "pastor" are words of English ("ammo crates", "rev counter"),
    "dona" is Donna's, "sheikh" and "mallam" surnames: none is a title; "El" (Eleanor) opens no place here."""
    said = chat(("Ada", "we found ammo crates in the shed"), ("Bo", "crates of what?"),
                ("Ada", "Ammo Box was the label"))
    assert pairs(suggest(said, [], threshold=0.5)) == set()
    found = pairs(suggest(chat(("Ada", "el. el harper. remember her?"), ("Bo", "El! of course"),
                               ("Ada", "El Harper says hi")), [], threshold=0.5))
    assert frozenset(("el", "el harper")) in found
    assert frozenset(("dona", "donna")) in pairs(suggest(chat(("Ada", "Dona called, Donna says the party is on"),
                                                              ("Bo", "dona is the best")), [], threshold=0.5))


@engine_free
def test_the_names_compared_grow_with_the_names_alike_not_with_every_pair_of_a_store():
    """A store's names are compared only where a rule could join them (a word begun alike, a shared word for two
    names of several words, an acronym or a vowelless word by its first letter, a nickname): 50,000 "Person N"
    of an imported log share one word and nothing else (numbers are no words of a name), so none is compared;
    a title's name and a name its word is a nickname of still are, where a word of each begins alike ("mr mike" and
    "michael"; not "uncle rob" and "bob", never compared before either), and a number is no initial ("gate 1")."""
    from graphmem.core._alias_rules import comparable_pairs

    def pair(x: str, y: str) -> tuple[str, str]:
        return (x, y) if (len(x), x) <= (len(y), y) else (y, x)

    nick = {"mike": frozenset({"michael"}), "michael": frozenset({"mike"}), "rob": frozenset({"bob"}),
            "bob": frozenset({"rob"})}
    assert comparable_pairs([f"person {i}" for i in range(50_000)], nick, pair) == []
    names = ["mr mike", "michael", "uncle rob", "bob", "mel", "melanie", "linda", "linda park", "linda parks", "dr k",
             "dr kowalczyk", "nyc", "new york city", "zoe jones", "zak smith"]
    found = set(comparable_pairs(names, nick, pair, acronyms={"nyc"}))
    assert {pair(*names) for names in (("michael", "mr mike"), ("mel", "melanie"), ("linda", "linda park"),
                                       ("linda park", "linda parks"), ("dr k", "dr kowalczyk"),
                                       ("nyc", "new york city"))} <= found
    assert ("zoe jones", "zak smith") not in found and pair("bob", "uncle rob") not in found
    from graphmem.core._alias_chat import read_chat
    from graphmem.core._alias_rules import evidence_from_names

    told = read_chat(chat(("Ana", "Dr K said Dr Kowalczyk is off"), ("Bo", "gate 1 or gate 100?")), [])
    assert evidence_from_names("dr k", "dr kowalczyk", nick, told) == (0.7, "dr k is dr kowalczyk with an initial")
    assert evidence_from_names("gate 1", "gate 100", nick, told) is None



@engine_free
def test_initials_two_names_share_are_neither_s():
    """"tru" was suggested for both "teuila reyes" and "tito rodel" (b42): letters two names share join neither;
    where one name has them whole and the other with a letter more ("smc", b41), the whole one keeps them; two
    spellings of one name ("jp", b49) are one."""
    from graphmem.core._alias_rules import Evidence
    from graphmem.core.alias_evidence import _initials_of_one

    evidence = {}
    for a, b in [("tru", "teuila reyes"), ("tru", "tito rodel"), ("smc", "shirak medical center"),
                 ("smc", "suren manukyan"), ("jp", "jean-pierre"), ("jp", "jean piere"), ("nyc", "new york"),
                 ("jpm", "jean paul martin"), ("jpm", "jean pierre moreau")]:  # a reviewer's: two names, one start
        evidence[(a, b)] = Evidence()
        evidence[(a, b)].add(0.8, f"{a} is the initials of {b}")
    _initials_of_one(evidence)
    assert set(evidence) == {("smc", "shirak medical center"), ("jp", "jean-pierre"), ("jp", "jean piere"),
                             ("nyc", "new york")}


@pytest.mark.engine_free
def test_a_country_s_people_or_language_is_not_its_short_form():
    """"kyrgyz" of Kyrgyzstan, "armen" of Armenia (b51, b41 on arrival), "bangla" of Bangladesh (b63): the start of a
    country's name before -stan, -ia, -land or -desh is its people's word or language; a town's start is still a
    short form ("guaya" of Guayaquil)."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names
    from graphmem.core.alias_evidence import Message

    said = ["my lessons in Kyrgyz are hard", "we drove across Kyrgyzstan in may", "my friend Armen says hi",
            "we loved Armenia so much", "the bus to Guaya is slow", "Guayaquil is so hot", "i told Armen about Kyrgyz",
            "back in Guaya tomorrow", "grandfather in Bangla is nana", "we flew to Bangladesh"]
    chat = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)],
                     ["Kyrgyzstan", "Armenia", "Guayaquil", "Bangladesh"])
    nick, _ = nickname_table()
    assert evidence_from_names("kyrgyz", "kyrgyzstan", nick, chat) is None
    assert evidence_from_names("armen", "armenia", nick, chat) is None
    assert evidence_from_names("bangla", "bangladesh", nick, chat) is None  # b63 (dev): the language
    assert evidence_from_names("guaya", "guayaquil", nick, chat) == (0.6, "guaya is a short form of guayaquil")


@engine_free
def test_titles_of_other_languages_and_letters_typed_plain():
    """The twenty-sixth session: "doña Piedad", "tante Rima", "paron Hovsep", "zia Cettina" are the name with a
    title; a grandparent's word only weakly (grandchildren are named for them: "jeddo Boutros", little Boutros);
    such a word alone may be a name ("bibi" of Bibiana), and said alone beside "oom Gerrit" is no form of his;
    Fikrət and Fikret, Søren and Soren, Þórir and Thorir are one name typed two ways."""
    found = pairs(suggest(chat(
        ("Ada", "doña Piedad sent tamales again"), ("Bo", "Piedad is a saint"),
        ("Ada", "tante Rima called, Rima says the house is sold"),
        ("Bo", "jeddo Boutros came to the baptism. little Boutros slept through it"),
        ("Ada", "bibi!! how are you"), ("Bo", "Bibiana here, all good lol"),
        ("Ada", "oom Gerrit fixed the tractor"), ("Bo", "thank oom for me. Gerrit is a legend"),
        ("Ada", "Fikrət müəllim taught me that"), ("Bo", "Fikret müəllim is the best restorer in Sheki"),
        ("Ada", "Fikrət says hi"),
        ("Ada", "Søren is coming too"), ("Bo", "Soren? great"))))
    assert {frozenset(("piedad", "doña piedad")), frozenset(("rima", "tante rima")),
            frozenset(("fikrət müəllim", "fikret müəllim")), frozenset(("søren", "soren"))} <= found
    assert frozenset(("boutros", "jeddo boutros")) not in found  # 0.4: below the threshold
    assert frozenset(("oom", "oom gerrit")) not in found
    assert not any("te amo" in " ".join(p) for p in found)


@engine_free
def test_the_end_of_a_speakers_name_the_other_calls_them_and_a_wrong_chat():
    """A twelfth new user's (Messenger, the thirty-third session): her cousin calls Inês "Nês" ("oh Nês. I'm sorry"),
    never suggested; "the power couple 💪" then "sorry wrong chat lol" was "couple" put right as "wrong"."""
    said = chat(("Duarte", "Nêsss feliz ano novo atrasado 🎉"), ("Inês", "Duuu!! how is life at sea"),
                ("Duarte", "oh Nês. I'm sorry. you ok?"), ("Inês", "I'm ok"), ("Duarte", "Nês are you coming?"),
                ("Inês", "the power couple 💪"), ("Inês", "sorry wrong chat lol"))
    found = {frozenset((p.a.lower(), p.b.lower())): p for p in suggest(said, ["Inês", "Duarte"], threshold=0.4)}
    assert "the other speaker calls Inês nes" in found[frozenset(("nês", "inês"))].reasons
    assert frozenset(("wrong", "couple")) not in found
    # the end of a name said by the speaker herself, or of two letters, is no one's form of it
    said = chat(("Bella", "ella is coming too"), ("Sam", "hey bella"), ("Bella", "ella says hi"))
    assert frozenset(("ella", "bella")) not in pairs(suggest(said, ["Bella", "Sam"], threshold=0.4))


@engine_free
def test_a_greeting_or_an_article_of_another_language_is_no_name_and_gospodo_is_a_title():
    """b75: "holaaa how is life in Korcula??" gave hola and holaaa as one name spelt two ways, and "the trek to las
    Torres" gave "las" as a short form of Lastovo; "gospođo Kovačić" gave "gospođo" as a name of its own."""
    lines = chat(("Javi", "Hola Zdenka! how are you"), ("Zdenka", "Hola! all good on Lastovo"),
                 ("Javi", "holaaa how is life on Lastovo??"), ("Javi", "they met on the trek to las Torres"),
                 ("Zdenka", "Las Torres? and Lastovo misses you"),
                 ("Zdenka", "the post office called me gospođo Kovačić, imagine"))
    found = pairs(suggest(lines))
    names = {name.lower() for name in candidates(lines)}
    assert not {"hola", "las", "gospođo"} & names, names
    assert not any({"hola", "holaaa", "las", "gospođo"} & pair for pair in found), found


@engine_free
def test_a_shouted_name_a_peoples_word_a_word_of_the_language_and_a_familys_name_are_no_aliases():
    """b78: "AMU!" shouted at a priest called "Amu" made an acronym of his title ("amu" the initials of "Avó Mingas");
    "Timorese" was a longer form of "Timor"; "McCann" the surname of Lúcia McCann where the chat says "two Mrs
    McCanns"; b77: "kabyle" (the language, always in small letters) one letter from "Kabylie" (always capitalised)."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    said = ["hey AMU! how was the mass", "ok Amu, says hi", "thanks AMU", "Avó Mingas made batar",
            "at a Timorese festival", "back to Timor in may", "Lúcia McCann now", "two Mrs McCanns at the desk",
            "McCann again lol", "in kabyle it's Bgayet", "she speaks kabyle", "the hills of Kabylie",
            "Kabylie in spring", "i flew to NYC today", "New York in june", "NYC is loud", "Rosalind Okafor is here",
            "Okafor said yes"]
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    nick, _ = nickname_table()
    assert "amu" not in talk.acronyms and "nyc" in talk.acronyms
    # a reviewer's: a phone's capital opening a message ("Ucd is miles from you") is no name written so
    lines = chat(("Ana", "going to UCD tomorrow"), ("Bo", "Ucd is miles from you"),
                 ("Ana", "University College Dublin is huge tbf"), ("Bo", "ya UCD is massive"))
    assert frozenset(("ucd", "university college dublin")) in pairs(suggest(lines, ["Ana", "Bo"]))
    assert evidence_from_names("amu", "avó mingas", nick, talk) is None
    names = ["so Mary, John, Peter, Susan and Robert came", "and Mary, John, Peter, Susan and Robert left"]
    said = ["we flew to Timor in may", "i love Timor so much", "back in Timor now", "the Timorese food is great",
            "at a Timorese festival", "with two Timorese lads", *names]
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    assert evidence_from_names("timor", "timorese", nick, talk) is None  # (0.6, "a short form") before
    said = ["Rosalind Okafor is here", "Okafor said yes", "Okafor again lol", "Tom Jones is here", "Jones said yes",
            "Sarah Peter is here", "Peter said yes", "Dr Peters the vet was in"]
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    for surname, name in (("okafor", "rosalind okafor"), ("jones", "tom jones"), ("peter", "sarah peter")):
        assert evidence_from_names(surname, name, nick, talk) == (0.45, f"{surname} is the surname of {name}")
    said += ["the Okafors are coming", "both Mr Joneses came"]  # (a reviewer's: not "Dr Peters", one man)
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    assert evidence_from_names("okafor", "rosalind okafor", nick, talk) is None
    assert evidence_from_names("jones", "tom jones", nick, talk) is None
    assert evidence_from_names("peter", "sarah peter", nick, talk) is not None
    said = ["she is kabyle not arab", "in kabyle it's Bgayet", "she speaks kabyle better than me", "the kabyle girl",
            "we drove to Kabylie", "Kabylie is green", "i miss Kabylie", "my aunt in Kabylie", "Tass went to Kabylie",
            "so Mary, John, Peter, Susan and Robert came", "and Mary, John, Peter, Susan and Robert left"]
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    assert {"kabyle", "kabylie"} <= talk.sure and talk.capitalisers == {"ana", "bo"}
    assert evidence_from_names("kabyle", "kabylie", nick, talk) is None
    # one name spelt two ways, each capitalised, still differs by one letter
    said = [text.replace("kabyle", "Kabylle") for text in said]
    talk = read_chat([Message(str(n), "Ana" if n % 2 else "Bo", text) for n, text in enumerate(said)], ["Ana", "Bo"])
    assert evidence_from_names("kabylie", "kabylle", nick, talk) == (0.5, "kabylie and kabylle differ by one letter")
    # a reviewer's: one who writes no capitals types a name in small letters ("phillip"), still the name spelt another
    # way of one who does ("Philip")
    said = [("Ana", "Philip rang about the car"), ("Bo", "phillip from the club?"), ("Ana", "Philip says hi"),
            ("Bo", "tell phillip i said thanks"), ("Ana", "so Mary, John, Peter, Susan and Robert came")]
    talk = read_chat([Message(str(n), who, text) for n, (who, text) in enumerate(said)], ["Ana", "Bo"])
    assert talk.capitalisers == {"ana"}
    assert evidence_from_names("philip", "phillip", nick, talk) == (0.5, "philip and phillip differ by one letter")


@engine_free
def test_in_a_group_chat_a_reason_names_who_used_the_name():
    """A sixteenth new user's (a family's WhatsApp group of five): "used … only by the other speaker" named no one."""
    said = chat(("Mam", "Siob are you coming Sunday"), ("Siobhán", "yes Mam"), ("Podge", "Siob! the car"),
                ("Siobhán", "what"), ("Mam", "Siob love"), ("Aoife", "I told siob about the car ages ago"))
    found = {frozenset((p.a.lower(), p.b.lower())): p
             for p in suggest(said, ["Siobhán", "Mam", "Podge"], threshold=0.3)}
    reasons = found[frozenset(("siob", "siobhán"))].reasons
    assert "siob is used for Siobhán only by Aoife, Mam and Podge" in reasons
    assert "Mam and Podge call Siobhán siob" in reasons  # (not Aoife, who only named her)
    # "Its Apple auntie Nora nobody wears a tie": the title is Nora's, said before her name, not Apple's after it
    said = chat(("Podge", "Its Apple auntie Nora nobody wears a tie"), ("Mam", "Apple is grand"),
                ("Podge", "Happy new year auntie Nora"), ("Aoife", "Will try anything Nora"),
                ("Mam", "Sabina didi came"), ("Podge", "Sabina didi said hi"), ("Aoife", "Sabina is here"))
    found = pairs(suggest(said, ["Podge", "Mam", "Aoife"], threshold=0.4))
    assert frozenset(("apple", "apple auntie")) not in found
    assert {frozenset(("nora", "auntie nora")), frozenset(("sabina", "sabina didi"))} <= found
    said = chat(("Ana", "hey bo"), ("Bohdan", "hi"), ("Ana", "bo, bo!"))
    assert pairs(suggest(said, ["Ana", "Bohdan"], threshold=0.3)) == {frozenset(("bo", "bohdan"))}
    assert "the other speaker calls Bohdan bo" in suggest(said, ["Ana", "Bohdan"], threshold=0.3)[0].reasons


@engine_free
def test_accents_that_tell_two_words_apart_are_not_one_name_typed_plain():
    """On dev, accents were the only difference of 41 suggested pairs, 12 wrong: "Vovó" (grandmother) and "Vovô"
    (grandfather), each accented; "bà" and "ba", "día" and "dia", "Léa" and "Lea", words of two or three letters
    where the accent is most of the word. A name typed without its accents stays one name ("Séan", "Sean"), and so
    does one whose other words carry accents alike ("Fikrət müəllim", "Fikret müəllim")."""
    found = pairs(suggest(chat(("Ada", "Vovó made bolo"), ("Bo", "and Vovô?"), ("Ada", "Vovô is fishing"),
                               ("Ada", "Vovó says hi"), ("Bo", "Léa is coming"), ("Ada", "Lea from work?"),
                               ("Bo", "Léa says yes"), ("Ada", "Séan rang"), ("Bo", "tell Sean hi"),
                               ("Ada", "Séan says hi"))))
    assert frozenset(("vovó", "vovô")) not in found and frozenset(("léa", "lea")) not in found
    assert frozenset(("séan", "sean")) in found


@engine_free
def test_a_relation_word_shouted_two_words_typed_as_one_and_a_word_stretched_are_no_aliases():
    """A new user's Taglish chat with her mother: "MAMA!!" was the initials of "muna ako mag aaral", "ako ng" and
    "akong" one name spelt two ways; on dev, "god" and "GODDDD". A name stretched is the same name shouted, no other
    to review: "sigga" and "SIGGAAA" (b26), "rose" and "roseee" where Rose is a name, were suggested until the
    forty-first session (on dev, 7 such pairs labelled the same, 14 stretched names no label lists); unless the
    store holds an entity by the stretched name, to be joined."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    said = ["MAMA!! nakapasa ako", "muna ako mag aaral daw sabi mo", "MAMA talaga", "muna ako mag aaral anak",
            "sabi ako ng prof", "akong bahala", "ako ng bahala", "akong sagot", "oh my god", "GODDDD that was close",
            "thank god", "omg GODDDD no",
            "Aït Ouali called", "Aitouali again?", "sigga called", "SIGGAAA haha"]
    talk = read_chat([Message(str(n), "Gaya" if n % 2 else "Mama", text) for n, text in enumerate(said)],
                     ["Gaya", "Mama"])  # (her mother's name in the export: "Mama", a mention too)
    nick, _ = nickname_table()
    assert "mama" not in talk.acronyms
    assert evidence_from_names("akong", "ako ng", nick, talk) is None
    assert evidence_from_names("god", "godddd", nick, talk) is None
    assert evidence_from_names("sigga", "siggaaa", nick, talk) is None
    roses = [Message("1", "Rose", "hi"), Message("2", "Ana", "ROSEEE hi"), Message("3", "Ana", "Rose, hi")]
    assert evidence_from_names("rose", "roseee", nick, read_chat(roses, ["Rose", "Ana"])) is None
    assert evidence_from_names("rose", "roseee", nick, read_chat(roses, ["Rose", "Ana", "ROSEEE"])) is not None


@engine_free
def test_a_peoples_word_in_ans_and_a_country_said_as_one_are_no_short_forms():
    """b83, b84 (dev): "Mangarevans" was a longer form of "Mangareva", an island no list knows; "Chile", in "neither is
    in Chile", a short form of Chileshe that her friend called her by. Not said as a place, it may be one."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    said = ["the Mangarevans are so kind", "Mangareva is the end of the world", "back on Mangareva tomorrow",
            "Chileshe!! happy new year", "exactly. and neither is in Chile", "Chile is far", "Chad says hi",
            "Chadwick Boateng is my boss", "Chad was late again"]
    talk = read_chat([Message(str(n), "Bo" if n % 2 else "Chileshe", text) for n, text in enumerate(said)],
                     ["Chileshe", "Bo"])
    nick, _ = nickname_table()
    assert evidence_from_names("mangareva", "mangarevans", nick, talk) is None
    assert evidence_from_names("chile", "chileshe", nick, talk) is None
    said = [text for text in said if "in Chile" not in text] + ["my friend Chile says hi"]
    talk = read_chat([Message(str(n), "Bo" if n % 2 else "Chileshe", text) for n, text in enumerate(said)],
                     ["Chileshe", "Bo"])
    assert evidence_from_names("chile", "chileshe", nick, talk) == (0.6, "chile is a short form of chileshe")
    lines = chat(*((("Bo" if n % 2 else "Chileshe"), text) for n, text in enumerate(said)))
    assert frozenset(("chile", "chileshe")) not in pairs(suggest(lines, ["Chileshe", "Bo"]))


@engine_free
def test_a_name_after_to_or_from_and_a_call_after_a_stranded_word_still_count():
    """A reviewer's attack on the rules above: "I lent my charger to Devon" and "got a text from India" name people,
    so a county or a country said after "to" or "from" keeps its short form; "what u up to Femi?" calls Olufemi
    Femi (a stranded "to" before a name no list knows as a place)."""
    for short, full, end in (("Devon", "Devonte", "I gave the keys to Devon"), ("India", "Indiana",
                                                                                "got a text from India earlier")):
        lines = chat(("Bo", f"{full}!! happy new year"), (full, "thank you!! you too"),
                     ("Bo", f"my friend {short} says hi"), (full, "aw hi"), ("Bo", end), (full, "haha"))
        assert frozenset((short.lower(), full.lower())) in pairs(suggest(lines, [full, "Bo"])), short
    lines = chat(("Olufemi", "hey, long week"), ("Tayo", "what u up to Femi?"), ("Olufemi", "nothing much, you?"),
                 ("Tayo", "where u at Femi? we need one more for five-a-side"))
    assert frozenset(("femi", "olufemi")) in pairs(suggest(lines, ["Olufemi", "Tayo"]))


@engine_free
def test_a_peoples_word_after_a_y_and_two_words_for_mother_are_no_aliases():
    """b85, b86 (dev): "Italian" was a pet form of "Italy", and "Mam" (Welsh) a short form of "mamma" (Italian): two
    speakers' mothers, each said by a word that resolves through its speaker, never an alias."""
    from graphmem.core._alias_chat import nickname_table, read_chat
    from graphmem.core._alias_rules import evidence_from_names

    said = ["Italy was lovely", "the Italian lady at the stall", "my mamma says hi", "Mam says hi too",
            "Mam is in Gaiman", "mamma is in Naples", "Italy again in May", "Italian food forever"]
    talk = read_chat([Message(str(n), "Gwen" if n % 2 else "Assunta", text) for n, text in enumerate(said)],
                     ["Assunta", "Gwen"])
    nick, _ = nickname_table()
    assert evidence_from_names("italy", "italian", nick, talk) is None
    lines = chat(*((("Gwen" if n % 2 else "Assunta"), text) for n, text in enumerate(said)))
    found = pairs(suggest(lines, ["Assunta", "Gwen"]))
    assert frozenset(("mam", "mamma")) not in found and frozenset(("italy", "italian")) not in found


@engine_free
def test_a_word_of_a_longer_name_is_not_the_one_called_so():
    """b85 (dev): "yes Sri Meenakshi Flower Traders. Muthupandi is the owner, we all call him Muthu anna" made Muthu
    a name of Meenakshi (a word of the firm's name, and her daughter's): the one called so is a name standing alone
    (the whole chat read, as its names are known only from all of it)."""
    from collections import defaultdict

    from graphmem.core._alias_chat import read_chat
    from graphmem.core._alias_rules import ambiguous_names, evidence_called
    from graphmem.core.alias_evidence import Evidence

    said = [json.loads(line) for line in (DEV / "b85.jsonl").read_text(encoding="utf-8").splitlines()]
    talk = read_chat([Message(m["id"], m["actor"], m["content"]) for m in said], ["Kavitha", "Giommaria"])
    assert "sri meenakshi flower traders" in talk.mentions
    evidence: dict[tuple[str, str], Evidence] = defaultdict(Evidence)
    evidence_called(talk, evidence, lambda x, y: (x, y) if (len(x), x) <= (len(y), y) else (y, x),
                    ambiguous_names(talk))
    assert not [pair for pair in evidence if "meenakshi" in pair]


@engine_free
def test_a_verb_after_a_name_written_with_a_capital_is_no_surname():
    """A twenty-sixth new user's diary: "Valentines. Cal forgot. FORGOT." made "forgot" the surname of "Cal forgot"
    (0.85, with a correction read in the shout), above Cal and Callum."""
    from graphmem.core.alias_evidence import suggest

    said = ["Ugh, Callum and I had a row again.", "Made up with Cal. Pizza.",
            "Valentines. Cal forgot. FORGOT. He got me a card from the garage at 9pm."]
    pairs = suggest([Message(str(n), "Robyn", text) for n, text in enumerate(said)], ["Robyn", "Callum", "Cal"])
    assert [(p.a, p.b) for p in pairs] == [("Cal", "Callum")]


@engine_free
def test_a_family_group_chat_s_blessings_trips_and_babies_are_no_names():
    """A twenty-ninth new user's family group chat: "Thank you Teuila God bless" made "Teuila God" Teuila with more of
    the name, "i better meet her before i go to aus!!" had Lagi call Aunty Fa'a "aus", and "bubs" (the baby) was a
    clipped form of Bubba (the dog)."""
    from graphmem.core.alias_evidence import suggest

    said = [("Mum", "Teuila is coming sunday"), ("Teuila", "Bubba ate my jandal AGAIN"),
            ("Aunty Fa'a", "Thank you Teuila God bless"), ("Teuila", "thanks aunty"),
            ("Aunty Fa'a", "Lagi come see me before you leave"), ("Lagi", "i better meet her before i go to aus!!"),
            ("Sio", "wanna be home when bubs comes"), ("Sio", "mele and bubs both good"),
            ("Teuila", "sio can you feed Bubba while we away?"), ("Sio", "bubba missed u"),
            ("Lagi", "malo aunty Tina!!"), ("Aunty Fa'a", "Good idea Tina. God bless baby Losa")]
    pairs = suggest([Message(str(n), who, text) for n, (who, text) in enumerate(said)],
                    ["Teuila", "Mum", "Aunty Fa'a", "Lagi", "Sio", "Bubba"])
    assert not {frozenset((p.a.lower(), p.b.lower())) for p in pairs} & {
        frozenset(("teuila", "teuila god")), frozenset(("aus", "aunty fa'a")), frozenset(("bubs", "bubba"))}
    assert ("Tina", "aunty Tina") in {(p.a, p.b) for p in pairs}
    # a reviewer's: other ways of going or staying, other blessings
    for went in ("come to aus!!", "im off to aus!!", "we headed to aus!!", "ill stay in aus!!"):
        told = said[:5] + [("Lagi", f"i better meet her before i {went}")] + said[6:]
        pairs = suggest([Message(str(n), who, text) for n, (who, text) in enumerate(told)],
                        ["Teuila", "Mum", "Aunty Fa'a", "Lagi", "Sio", "Bubba"])
        assert not any("aus" in (p.a.lower(), p.b.lower()) for p in pairs), went
    told = [(who, text.replace("God bless", "Godbless")) for who, text in said]
    pairs = suggest([Message(str(n), who, text) for n, (who, text) in enumerate(told)],
                    ["Teuila", "Mum", "Aunty Fa'a", "Lagi", "Sio", "Bubba"])
    assert not any("godbless" in (p.a.lower() + p.b.lower()) for p in pairs)
