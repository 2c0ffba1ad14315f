"""The rules extractor on lower-case chat and answers that lean on the turn before: given names
written in lower case, "still at X" answers, where someone lives now after a move."""

from __future__ import annotations

import pytest

from graphmem.evaluation import PREDICATES
from graphmem.extract import RuleExtractor, Turn
from graphmem.extract._names import is_given_name
from tests.test_extract_chat import REF, facts


def asked(text: str) -> Turn:
    return Turn(speaker="Sam", text=text)


@pytest.mark.engine_free
def test_a_given_name_in_lower_case_is_known_but_not_an_everyday_word():
    assert all(map(is_given_name, ("danny", "lucas", "jamie", "theo")))
    assert not any(map(is_given_name, ("will", "may", "frank", "rose", "bill", "nan", "telly", "the", "mum", "Danny")))


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # "he"/"she" is the one person named, in lower case too
    ("he got a job at a bike shop", "how's danny?", [("assert", "danny", "works_at", "bike shop", None, None)]),
    ("she lives in leeds now", "and jamie?", [("assert", "jamie", "lives_in", "leeds", None, None)]),
    # a lower-case given name opening the clause, and as the one dumped
    ("ok so lucas got a job at the museum", None, [("assert", "lucas", "works_at", "museum", None, None)]),
    ("she finally dumped greg", "how's Ana?", [("end", "Ana", "dating", "greg", None, None)]),
])
def test_given_names_in_lower_case(text, previous, expected):
    assert facts(text, asked(previous) if previous else None) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous"), [
    ("he got a job at a bike shop", "how's will?"),  # "will" is a word first
    ("he got a job at a bike shop", "how's mum?"),
    ("she got a job at the bank", "and frank?"),
    ("honestly rose got a job at the bank", None),
    ("he got a job at a bike shop", "did danny and lucas come?"),  # two could be meant
])
def test_lower_case_words_that_name_no_one(text, previous):
    assert facts(text, asked(previous) if previous else None) == []


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "Tom went back to Spain", "she went back to Leeds after the divorce", "we're going back to Oslo",
])
def test_going_back_to_a_place_is_no_trip(text):
    # where one returns is home as often as a trip
    assert facts(text, asked("how's Tom?")) == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # "still at/in X" answers a question that asks it, of whom the question is about
    ("still at Harrow Mills. nine years now", "and you, still at Harrow Mills?",
     [("assert", "Maya", "works_at", "Harrow Mills", None, None)]),
    ("yeah still at the depot, still bored", "how's work?", [("assert", "Maya", "works_at", "depot", None, None)]),
    ("still at the library. moans about it daily", "how's lucas? still at the library?",
     [("assert", "lucas", "works_at", "library", None, None)]),
    ("still in york. loving the new flat", "so where are you these days, still in york?",
     [("assert", "Maya", "lives_in", "york", None, None)]),
])
def test_still_there_answers(text, previous, expected):
    assert facts(text, asked(previous)) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous"), [
    ("yeah still in derby", "how's Tom, he still at the garage?"),  # not the place asked about
    ("still in bed lol", "you still in bed?"), ("still at home this week", "how's work?"),
    ("still at the airport", "still at the airport?"), ("still in town", "are you still in town?"),
    ("still at the depot", "did Tom and Ana say? still at the depot?"),  # two could be meant
    ("still at the depot", "my sister? still at the depot?"),
    ("still at the depot", None), ("still at the depot", "hi!"),
])
def test_still_there_that_states_nothing(text, previous):
    assert facts(text, asked(previous) if previous else None) == []


@pytest.mark.engine_free
def test_still_there_asked_by_the_speaker_herself_states_nothing():
    assert facts("still at the depot", Turn(speaker="Maya", text="how's work?")) == []


@pytest.mark.engine_free
def test_a_name_used_as_a_place_is_not_whom_she_means():
    # "she"/"he" never means a word the chat uses as a place ("that Kilbarra", "Kilbarra in Clare")
    assert facts("not that Kilbarra! Kilbarra in Clare. she works at the pharmacy", asked("Kilbarra??")) == []
    assert facts("she works at the pharmacy", asked("Kilbarra?? since when does Priya live in Kilbarra")) == []
    assert facts("she works at the pharmacy", asked("how's Priya?")) == [
        ("assert", "Priya", "works_at", "pharmacy", None, None)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # one comes up/down/in from home to visit
    ("Priya drove down from Leeds to see us", [("assert", "Priya", "lives_in", "Leeds", None, None)]),
    ("yeah Omar came up from Bristol after work", [("assert", "Omar", "lives_in", "Bristol", None, None)]),
    ("Kofi flew in from Accra on friday", [("assert", "Kofi", "lives_in", "Accra", None, None)]),
    # not a trip's return, a move long ago, a plan or a maybe
    ("Omar came back from Bristol", [("assert", "Omar", "traveled_to", "Bristol", None, None)]),
    ("Omar came over from Spain in 1990", []), ("Omar might drive down from Leeds", []),
    ("Omar didn't come down from Leeds", []), ("Omar came down from the loft", []),
])
def test_coming_from_home_to_visit(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous"), [
    ("i quit lol. my knee was done", "how's the five a side going?"),
    ("I quit today", None),
    ("I ended it on Friday.", "and the guy from the gym?"),
])
def test_an_end_that_names_nothing_ended_is_no_fact(text, previous):
    """"quit" alone may be a team, a game or smoking; "ended it" a call or a plan: no job or partner ends."""
    assert facts(text, previous=asked(previous) if previous else None) == []


@pytest.mark.engine_free
def test_quit_alone_ends_the_job_when_work_was_asked_about():
    assert facts("quit lol", previous=asked("how's the new job treating you?")) == [
        ("end", "Maya", "works_at", None, None, None)]


@pytest.mark.engine_free
def test_a_breakup_with_the_ex_named_ends_dating_them():
    assert facts("also in sad news priya and i split up") == [("end", "Maya", "dating", "priya", None, None)]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["i'm seeing someone new too, her name is Ines",
                                  "I'm dating a guy now, his name is Bo"])
def test_seeing_someone_then_named_with_a_word_between(text):
    name = text.rsplit(" ", 1)[1]
    assert facts(text) == [("assert", "Maya", "dating", name, None, None)]


def written(text: str, previous: Turn | None = None) -> list[tuple]:
    """What ``--approve`` would write of ``text``: the facts the extractor is sure of."""
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam", previous=previous)
    return [(f.subject, f.predicate, f.object) for f in found if f.sure and f.predicate in PREDICATES]


def proposed(text: str, previous: Turn | None = None) -> list[tuple]:
    """What the extractor reads of ``text``, written or for review."""
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam", previous=previous)
    return [(f.subject, f.predicate, f.object) for f in found if f.predicate in PREDICATES]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "lu call me later, the party was crazy",  # a request, not a nickname
    "I met her in Tredu, she studies to be chef",  # "her" is the one met, not Tredu
    "Biscuit is going to stay with Mrs Govender's daughter, she has a cat sitting business",  # no cat
    "I went to the Tappara game yesterday with Aino's brother",  # someone unnamed was there too
    "Glenys rang from Tenby. she's made friends already and joined a bowls club",  # she joined, not Maya
])
def test_slips_of_fresh_chats_write_nothing_wrong(text):
    assert [f for f in written(text) if f[0] != "Maya" or f[1] != "attended"] == []


@pytest.mark.engine_free
def test_a_companion_is_someone_named():
    assert written("I went to the Tappara game yesterday with Aino's brother") == [
        ("Maya", "attended", "Tappara game")]
    assert ("Isa", "attended", "Tappara game") in written("I went to the Tappara game yesterday with Isa")


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "first day at Harbour Pharmacy tomorrow",  # a start still to come: a plan
    "I met someone. from my hiking club. his name is Henri",  # the club said in passing
    "we have choir practice tonight",
    "also our choir concert was on tuesday",
])
def test_what_is_only_implied_or_still_to_come_waits_for_review(text):
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
    assert [f for f in found if f.predicate in ("works_at", "member_of")], "proposed for review"
    assert not [f for f in found if f.predicate in ("works_at", "member_of") and f.sure]


@pytest.mark.engine_free
def test_joining_said_outright_is_still_written():
    assert written("I joined a gospel choir last month") == [("Maya", "member_of", "gospel choir")]
    assert proposed("I joined a choir last month") == [("Maya", "member_of", "choir")]  # a kind's word: for review
    assert written("I started at Harbour Pharmacy on monday") == [("Maya", "works_at", "Harbour Pharmacy")]


@pytest.mark.engine_free
def test_d13_d14_first_read_slips():
    """d13, d14 (dev, read once on arrival): a job told with its days a week, a group named for
    whom it is for, and a marriage with nobody said marrying."""
    assert written("and i'm still working 3 days a week at Harlow Kemp, the architecture firm") == [
        ("Maya", "works_at", "Harlow Kemp")]
    assert written("I joined a women's climbing group") == [("Maya", "member_of", "women's climbing group")]
    assert written("my mum's dog is sick") == []  # still someone else's
    assert written("THAT one. married to Ola now. highlander band until 5am") == []
    assert written("I'm married to Ola now") == [("Maya", "married_to", "Ola")]
    assert written("good. Sólveig and I are official.") == [("Maya", "dating", "Sólveig")]
    assert written("it's official, I got the job!") == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("I am apprentice at Pirkan Sähkö so I do what my boss say", [("Maya", "works_at", "Pirkan Sähkö")]),
    ("I'm a nurse at St Mary's", [("Maya", "works_at", "St Mary's")]),
    ("my manager at Kestrel. shift lead means i do the schedule", [("Maya", "works_at", "Kestrel")]),
    ("I'm a tourist at the museum", []),  # a trade or profession of the list, not any noun
    ("he's a regular at the pub", []),
    ("is your boss at Asda nice?", []),
])
def test_a_trade_or_a_boss_at_a_place_of_work(text, expected):
    assert written(text) == expected


@pytest.mark.engine_free
def test_a_name_goes_on_after_a_connector_only_with_a_capital():
    assert facts("I worked at Hillside for 10 years") == [("end", "Maya", "works_at", "Hillside", None, None)]
    assert facts("I work for the Institute for Fiscal Studies") == [
        ("assert", "Maya", "works_at", "Institute for Fiscal Studies", None, None)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("week 2 at bc parks. im obsessed", [("assert", "Maya", "works_at", "bc parks", None, None)]),
    ("first week at milpark done", [("assert", "Maya", "works_at", "milpark", None, None)]),
    ("welcome to audit lmao. week 3 at lim ong & partners and i already have eye bags",
     [("assert", "Maya", "works_at", "lim ong & partners", None, None)]),
    ("not really. last day at ECG was yesterday", [("end", "Maya", "works_at", "ECG", None, "2026-05-07")]),
])
def test_a_first_or_last_day_at_a_place_of_work_named_in_lowercase(text, expected):
    """A name typed in lowercase runs on for a few words, to a word that cannot be part of it."""
    assert facts(text) == expected


@pytest.mark.engine_free
def test_an_end_still_to_come_and_a_notice_given_are_not_written():
    assert written("got into the course! last day at hatch is the 15th") == []
    # a notice given ends nothing yet: one works there until the last day (so the job is written, no end: since the
    # thirty-second session, after a new user's "I handed in my notice at Fisioterapia Delicias today")
    assert written("14th october. handed in my notice at rbc yesterday") == [("Maya", "works_at", "rbc")]


@pytest.mark.engine_free
def test_someone_elses_relative_named_is_the_subject():
    """d9: "Oti's cousin Njeri lives in Croydon" is where Njeri lives; unnamed, nobody's."""
    assert written("We land in Heathrow, Oti's cousin Njeri lives in Croydon, we stay two nights there") == [
        ("Njeri", "lives_in", "Croydon")]
    assert written("Tom's sister moved to Rome") == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("the Haugen reunion was yesterday. what a day mate", [("Maya", "attended", "Haugen reunion")]),
    ("Ana's wedding last night was amazing", [("Maya", "attended", "Ana's wedding")]),
    ("the wedding last night was amazing", []),  # its kind's word alone: read, for review
    ("Tom's wedding yesterday was so fun", [("Maya", "attended", "Tom's wedding")]),
    ("your party was amazing", []),  # the other's: a compliment
    ("the party was cancelled", []), ("the wedding was called off", []), ("the gig was postponed", []),
    ("the wedding is next week", []),
])
def test_an_event_told_by_when_it_was_or_how_it_went(text, expected):
    assert written(text) == expected



@pytest.mark.engine_free
@pytest.mark.parametrize("text, fact", [
    ("I went to see how she's doing and then joined a gym", ("Maya", "member_of", "gym")),
    ("I asked if he's ok and then started at Tesco", ("Maya", "works_at", "Tesco")),
    ("I know they're busy and joined a gym anyway", ("Maya", "member_of", "gym")),
])
def test_a_clause_of_theirs_inside_the_speakers_leaves_the_verb_for_review(text, fact):
    """Review of the clause of someone else's joined by "and": "she's" said inside the speaker's
    own clause ("I went to see how she's doing") may not have the joined verb; the speaker's
    fact is proposed for review, not dropped."""
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
    assert [(f.subject, f.predicate, f.object) for f in found if f.predicate == fact[1]] == [fact]
    assert written(text) == []
    assert written("she's made friends and joined a bowls club") == []  # hers, as before


@pytest.mark.engine_free
@pytest.mark.parametrize("text, name", [
    ("I met her friend Tom at the pub", "Tom"),
    ("I met her brother Tom yesterday", "Tom"),
    ("I met her best friend Anna last week", "Anna"),
])
def test_her_before_a_relation_word_is_whose_not_whom(text, name):
    """Review: "I met her in Tredu" met no Tredu, but "her friend Tom" is Tom, as "his friend Tom" is."""
    assert ("Maya", "met", name) in written(text)


@pytest.mark.engine_free
@pytest.mark.parametrize("text, fact", [
    ("I got a new kitten sitting on my lap right now", ("Maya", "has_pet", "kitten")),
    ("I have two cats sitting on the windowsill", ("Maya", "has_pet", "cats")),
    ("my cat sitting on the keyboard again lol", ("Maya", "has_pet", "cat")),
])
def test_an_animal_sitting_somewhere_is_still_one(text, fact):
    """Review: "a cat sitting business" is no cat, but a cat sitting on the sofa is one."""
    assert fact in proposed(text)  # a kind's word alone: read, for review
    assert proposed("she has a cat sitting business") == []
    assert proposed("I have a dog sitting gig this weekend") == []


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I went to the game with Isa and Aino's brother",
    "I went to the match with Isa and Chris' dad",
])
def test_a_companion_after_another_is_someone_named_too(text):
    """Review: a possessive after "and" ("with Isa and Aino's brother") names no companion "Aino's"."""
    assert [f for f in proposed(text) if f[1] == "attended"] == [("Maya", "attended", text.split()[4]),
                                                                 ("Isa", "attended", text.split()[4])]


@pytest.mark.engine_free
def test_a_reference_time_without_its_zone_is_refused_in_one_line():
    from datetime import datetime

    from graphmem.errors import InvalidInput

    with pytest.raises(InvalidInput, match="reference_time must carry its time zone"):
        RuleExtractor().extract("I moved to Leeds yesterday", reference_time=datetime(2024, 5, 8), speaker="Maya")


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("We did! Last weekend we went to Diani for three nights, Oti surprised me", [("Maya", "traveled_to", "Diani")]),
    ("we went to Osheaga on Saturday", []),  # a name no list knows, no stay counted: for review
    ("I'm back!! Lisbon was a DREAM", [("Maya", "traveled_to", "Lisbon")]),
    ("Tom's wedding was a blast", [("Maya", "attended", "Tom's wedding")]),
    ("Lisbon was a dream for them", []),
])
def test_a_stay_counted_in_nights_and_a_dream_of_a_trip(text, expected):
    assert written(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("my officemate Hanne made me start bouldering last month and now im obsessed",
     [("Maya", "does", "bouldering")]),
    ("Bjarki from work finally dragged me to bouldering. thursday night", [("Maya", "does", "bouldering")]),
    ("Tom dragged me to the pub", []),  # somewhere, not a pastime
])
def test_someone_got_the_speaker_into_a_pastime(text, expected):
    assert written(text) == expected


# --- the eighth session of 2026-12-03: first reads of fresh dev chats ---------------------------

@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a last day told by when it was, before "my" (three arrivals said it so)
    ("its official. yesterday was my last day at Klucz 🔑", [("end", "Maya", "works_at", "Klucz", None, "2026-05-07")]),
    ("and the 4th was my last day at SP 47. the kids made me a card",
     [("end", "Maya", "works_at", "SP 47", None, "2026-05-04")]),
    ("last night was my last shift at the Halloran", [("end", "Maya", "works_at", "Halloran", None, "2026-05-07")]),
    # a word shouted after the name
    ("first week at SP 12 DONE 🎉", [("assert", "Maya", "works_at", "SP 12", None, None)]),
    # a membership named with the word, ended or held
    ("oh and i cancelled my crux membership. shoulder's still bad", [("end", "Maya", "member_of", "crux", None, None)]),
    ("got a proper membership at monk now, going like 4 times a week",
     [("assert", "Maya", "member_of", "monk", None, None)]),
    # a university named with its noun in lower case is no employer
    ("I started at Erasmus uni this week", [("assert", "Maya", "studies_at", "Erasmus uni", "2026-05-04", None)]),
    # a place the list names with "the"
    ("we went to the alps last week", [("assert", "Maya", "traveled_to", "the alps", "2026-04-27", "2026-05-04")]),
])
def test_jobs_ends_and_places_read_on_first_reads(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "3 weeks in at Bonorong and I love it so much.",  # a job
    "2 weeks in at Lisbon and i never want to leave",  # a reviewer's: a stay, a trip, a diet read the same
    "3 weeks in at the Airbnb and the wifi still sucks",
])
def test_weeks_into_something_wait_for_review(text):
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
    assert all(not f.sure for f in found)
    assert found == [] or found[0].predicate == "works_at"


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I'm in the bath with a glass of wine",  # "the" makes a common noun of a town's name (Bath)
    "back from the split lol",
    "friday was the last day at the bank",  # whose last day: no "my"
    "she said friday was my last day at the bank?",
    "2 was my last day at Hatch",  # a bare number is no date
    "I have to quit the choir",  # not yet
    "mum said i had to quit the choir",  # "had to": told, or thought, as often as done
    # a reviewer's finds: a break, not an end; no employer named; a membership not held or not one's own
    "yesterday was my last day at Lidl before xmas, back in jan",
    "yesterday was my last day at the hospital, discharged finally",
    "i still haven't cancelled my puregym membership lol",
    "i'm gonna get a membership at Crux",
    "i used to have a membership at Crux",
    "i got a membership at the spa for my mum",
])
def test_what_reads_as_no_job_end_or_trip(text):
    assert facts(text) == []


def chat(*lines: tuple[str, str]) -> list[list[tuple]]:
    """Each line's facts, the lines read in order by one extractor (Maya and Sam's chat)."""
    from datetime import timedelta

    extractor, previous, out = RuleExtractor(), None, []
    for n, (who, text) in enumerate(lines):
        found = extractor.extract(text, reference_time=REF + timedelta(minutes=n), speaker=who,
                                  other="Sam" if who == "Maya" else "Maya", previous=previous)
        out.append([(f.op, f.subject, f.predicate, f.object) for f in found if f.predicate in PREDICATES])
        previous = Turn(speaker=who, text=text)
    return out


@pytest.mark.engine_free
def test_quitting_by_a_short_name_ends_what_the_chat_told_before():
    said = chat(("Maya", "anyway I joined a futsal team!! the Brunswick Bandits."),
                ("Sam", "haha nice, keeper?"),
                ("Maya", "also quit the bandits on wednesday 😢 games are at 7"),
                ("Maya", "and quit the bandits again lol"))
    assert said[0] == [("assert", "Maya", "member_of", "Brunswick Bandits")]
    assert said[2] == [("end", "Maya", "member_of", "Brunswick Bandits")]
    assert said[3] == []  # ended already: nothing left to end


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    ("Maya", "should i quit the bandits?"),  # asked
    ("Maya", "she quit the bandits"),  # someone else
    ("Maya", "i cant believe tom quit the bandits"),
    ("Sam", "I quit the bandits"),  # the other speaker never told of joining
    ("Maya", "I quit the brunswick pool"),  # no word of it fits
    ("Maya", "if I quit the bandits I'd have my wednesdays back"),  # hedged
    ("Maya", "i didnt quit the bandits lol"),  # denied
    ("Maya", "quitting the bandits in june"),  # a plan
    ("Maya", "just left the bandits, great game"),  # "left": for the day
    ("Maya", "cancelled the bandits this week, sick"),  # a game called off
])
def test_quitting_by_a_short_name_ends_nothing_else(line):
    said = chat(("Maya", "anyway I joined a futsal team!! the Brunswick Bandits."), line)
    assert said[1] == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("told", "line"), [
    ("I joined a book club!!", "quit the book, too slow"),  # what the group is for, not the group
    ("i joined a club finally", "quit the app lol"),  # a group with no name fits nothing
])
def test_quitting_what_a_group_is_for_ends_nothing(told, line):
    assert chat(("Maya", told), ("Maya", line))[1] == []


@pytest.mark.engine_free
def test_a_short_name_that_fits_two_things_ends_neither():
    said = chat(("Maya", "I joined the Northside Runners last month"),
                ("Maya", "and I joined the Southside Runners too, for the track nights"),
                ("Maya", "I quit the runners"))
    assert said[2] == []


def chat_sure(*lines: tuple[str, str]) -> list[list[tuple]]:
    """As :func:`chat`, each fact marked whether --approve writes it (True) or it waits for review."""
    from datetime import timedelta

    extractor, previous, out = RuleExtractor(), None, []
    for n, (who, text) in enumerate(lines):
        found = extractor.extract(text, reference_time=REF + timedelta(minutes=n), speaker=who,
                                  other="Sam" if who == "Maya" else "Maya", previous=previous)
        out.append([(f.op, f.subject, f.predicate, f.object, f.sure) for f in found if f.predicate in PREDICATES])
        previous = Turn(speaker=who, text=text)
    return out


@pytest.mark.engine_free
@pytest.mark.parametrize("lines", [
    (("Sam", "and the boat man"), ("Maya", "ugh. so we broke up. last weekend")),  # h7: whom?
    # a name just asked about is as often someone else (a reviewer's attack: the mum at home, a sister's
    # engagement, "still on Hinge?", a band, "we broke up" for the school holidays): not taken
    (("Sam", "and... the talk with Kayla?"), ("Maya", "we broke up. last sunday")),
    (("Sam", "is Eleni there?"), ("Maya", "no she went to the shops"), ("Maya", "ugh and we broke up btw")),
    (("Sam", "is Ellie off school yet?"), ("Maya", "yeah we broke up yesterday")),
])
def test_an_end_that_names_no_one_waits_for_review(lines):
    """On dev every such write was wrong against the labels (8, from six arrivals): with no partner named,
    whom did it end?"""
    assert chat_sure(*lines)[-1] == [("end", "Maya", "dating", None, False)]


@pytest.mark.engine_free
def test_a_breakup_ends_the_partner_told_before():
    said = chat_sure(("Maya", "I'm dating Kayla now!!"), ("Sam", "yay"), ("Maya", "ugh. so we broke up"))
    assert said[0] == [("assert", "Maya", "dating", "Kayla", True)]
    assert said[-1] == [("end", "Maya", "dating", "Kayla", True)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "place"), [
    ("Greetings from Mumbles! Moved in on Thursday. The neighbours came out to look.", "Mumbles"),  # fresh dev d20
    ("Greetings from Lavington! I am in the new house two weeks now", "Lavington"),  # d14
])
def test_an_arrival_whose_message_tells_the_move_proposes_the_home_for_review(line, place):
    said = chat_sure(("Maya", line))[0]
    assert ("assert", "Maya", "lives_in", place, False) in said
    assert not any(sure for *_, sure in said)  # nothing written unseen: a visit reads the same


@pytest.mark.engine_free
def test_an_arrival_without_a_move_is_no_home():
    said = chat_sure(("Maya", "greetings from Höfn. I smell like a wet dog"))[0]
    assert not any(predicate == "lives_in" for _, _, predicate, _, _ in said)


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    "Left Hallein. It's 10 minutes away, but my mother cried like I moved to Australia",  # h29 (dev)
    "28 sqm that's like my truck haha",  # h12
    "feels like we live in Berlin now",
    "its not like i live in london",
    "he was like i moved to paris",
])
def test_a_likeness_is_no_fact(line):
    said = chat_sure(("Maya", line))[0]
    assert not any(predicate in ("lives_in", "has_pet", "owns") for _, _, predicate, _, _ in said), said


@pytest.mark.engine_free
def test_a_filler_like_and_a_like_clause_before_the_statement_keep_it():
    """A reviewer's attack: "like" opening a clause is filler as often as not (70 of 120 generated filler lines lost
    a true fact when every "like" before a subject was read as a likeness)."""
    assert ("assert", "Maya", "lives_in", "Berlin", True) in chat_sure(("Maya", "like, I moved to Berlin last year"))[0]
    assert ("assert", "Maya", "lives_in", "berlin", True) in chat_sure(
        ("Maya", "omg so like i moved to berlin last month"))[0]
    assert ("assert", "Maya", "works_at", "Google", True) in chat_sure(("Maya", "sooo like I got a job at Google!!"))[0]
    assert ("assert", "Maya", "lives_in", "Berlin", True) in chat_sure(
        ("Maya", "just like we planned, we moved to Berlin in May"))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    "We were at the Christkindlmarkt in Vienna on the weekend, Anja's sister lives there.",  # h29 (dev)
    "we were at the Oktoberfest last week",
    "I was at Siemens yesterday for a meeting",
])
def test_being_somewhere_for_a_day_a_weekend_or_a_week_is_no_job(line):
    said = chat_sure(("Maya", line))[0]
    assert not any(predicate == "works_at" for _, _, predicate, _, _ in said), said


@pytest.mark.engine_free
def test_being_somewhere_for_years_is_still_a_job():
    said = chat_sure(("Maya", "I was at Siemens from 2015 to 2018"))[0]
    assert ("assert", "Maya", "works_at", "Siemens", True) in said


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    "I was at Acme last week, my first week there",
    "I was at the Hospital all last week, night shifts, im a nurse there",
    "was at the Office yesterday till 11pm, this job is killing me",
])
def test_a_day_or_a_week_somewhere_told_as_work_proposes_the_job_for_review(line):
    said = chat_sure(("Maya", line))[0]
    assert [(predicate, sure) for _, _, predicate, _, sure in said if predicate == "works_at"] == [("works_at", False)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "expected"), [
    ("no, i have my own place in Cordón now. small apartment", [("Maya", "Cordón")]),  # h14 (dev)
    ("with the baby coming our flat in Kempton Park is too small", [("Maya", "Kempton Park")]),  # h24 (dev)
    ("ja me and Lwazi share a house in Kayamandi. cheaper and he cooks",
     [("Maya", "Kayamandi"), ("Lwazi", "Kayamandi")]),  # d15 (dev)
    ("Chaos. My flat in Tiong Bahru is full of boxes.", [("Maya", "Tiong Bahru")]),  # b4 (dev)
    ("i live in a tiny flat in Belleville, 6th floor, no lift", [("Maya", "Belleville")]),
])
def test_a_home_of_ones_own_tells_where_one_lives(line, expected):
    said = chat_sure(("Maya", line))[0]
    homes = [(subject, place) for _, subject, predicate, place, sure in said if predicate == "lives_in" and sure]
    assert homes == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    "my parents' house in Leeds is huge",
    "my mum's flat in Leeds",
    "my old flat in Leeds was better",
    "our holiday house in Spain is booked out",
    "if i had a flat in Paris i'd never leave",
    "do you have a flat in Paris?",
    # a reviewer's attack: someone else's without the apostrophe, a describing word that makes it another home,
    # a stay, a past home, one let out
    "my parents place in Porto is massive tho",
    "our lake house in Michigan is the best place on earth",
    "my childhood home in Ohio got demolished 😢",
    "our apartment in Rome had the cutest balcony, honeymoon was perfect",
    "our cottage in Cornwall for the week has no wifi",
    "our house in Lagos growing up was tiny",
    "i miss my flat in Barcelona so much",
    "i rent out my flat in Glasgow and live with my gf now",
    "we're renting out our flat in Leeds", "our cabin in Maine is my happy place",  # a reviewer's finds
    "our studio in Berlin just shipped the game",
    # a place that is no home: a spot won in a league or at a university
    "city secured our place in the Champions League!!",
    "my place in Oxford is confirmed",
    "we rent a flat in Lisbon for the week", "we rent a house in Lisbon every summer",  # renting is not read
    "we rent a flat in Leeds to students", "we rent a house in Leeds for my mum",
])
def test_a_home_someone_elses_former_or_for_a_holiday_is_not_where_one_lives(line):
    said = chat_sure(("Maya", line))[0]
    assert not any(predicate == "lives_in" for _, _, predicate, _, _ in said), said


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "expected"), [
    ("also i bought a cargo bike", ("assert", "cargo bike", True)),  # d3 (dev)
    ("I have other news. I have sold the car.", ("end", "car", True)),  # d4 (dev)
    ("speaking of money i sold my old keyboard on carousell", ("end", "keyboard", True)),  # d10 (dev)
    ("i bought a car!", ("assert", "car", False)),  # its kind's word alone: for review
    ("I have other news. I bought a Volvo.", ("assert", "Volvo", True)),
    ("i have a dress!", ("assert", "dress", False)),
    ("she got me a garmin as well", ("assert", "garmin", False)),
])
def test_a_thing_bought_or_sold_is_written_a_thing_had_waits_for_review(line, expected):
    said = chat_sure(("Maya", line))[0]
    assert [(op, obj, sure) for op, _, predicate, obj, sure in said if predicate == "owns"] == [expected]


@pytest.mark.engine_free
@pytest.mark.parametrize("line", [
    "i almost bought a car lol", "should i sell my car?", "i want to sell my car",
    # a reviewer's attack: a gift or a purchase for work, an accessory, one going back, a sale at work
    "bought a car for my son, he passed his test!", "we bought a tv for the office", "bought a bike lock",
    "bought the boots but they're going back", "i sold a house today, first sale since i started at the agency",
    "bought a bike for the kids", "wish i bought the jacket tbh",
])
def test_a_thing_nearly_bought_or_only_thought_of_is_not_written(line):
    said = chat_sure(("Maya", line))[0]
    assert not any(predicate == "owns" and sure for _, _, predicate, _, sure in said), said


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "sure"), [
    ("Hello from Skye!", False),  # d4 (dev): a trip, but "greetings from olomouc" (h31) was the move there
    ("greetings from dublin 👋", False),
    ("hello from Brno, here for a conference", True),  # told as a visit
    ("we're in Rome now!! back Sunday. hello from Rome", True),
])
def test_a_trip_told_only_by_a_greeting_waits_for_review(line, sure):
    said = chat_sure(("Maya", line))[0]
    assert {s for _, _, predicate, _, s in said if predicate == "traveled_to"} == {sure}, said


@pytest.mark.engine_free
@pytest.mark.parametrize(("lines", "expected"), [
    # h42 (dev): asked what he will do, a verb alone names no habit
    ((("Sam", "what will you do?"), ("Maya", "Knit. Dance. Maybe move to Nólsoy.")), []),
    ((("Sam", "and in winter?"), ("Maya", "i knit. every evening")), [("assert", "Maya", "does", "knitting", True)]),
    # h42: a kind one likes best is no pet, nor "they're …" a taste
    ((("Sam", "look!! puffins"), ("Maya", "puffins!!! i love puffins, they're my favourite bird since forever")),
     [("assert", "Maya", "likes", "puffins", False)]),
    # h42: the other of "we" is whom the message names with the speaker, not whom the turn before named
    ((("Sam", "Poor Rex. Kettan has never left the house in 14 years."),
      ("Maya", "I have news also. Not big. Birita and I... we are seeing each other.")),
     [("assert", "Maya", "dating", "Birita", True)]),
    # an event its own sentence says never happened is not attended
    ((("Sam", "how was the weekend"), ("Maya", "went to the wedding but it was cancelled")), []),
    ((("Sam", "how was the weekend"), ("Maya", "went to the gig, it got postponed")), []),
    ((("Sam", "how was the weekend"), ("Maya", "went to the concert, the opening act was cancelled")),
     [("assert", "Maya", "attended", "concert", False)]),
])
def test_seventeenth_session_readings(lines, expected):
    assert chat_sure(*lines)[-1] == expected


@pytest.mark.engine_free
def test_an_event_watched_from_afar_is_not_attended():
    """h41 (dev): "the wedding was insane. i watched like 4 hours of ramzi's video call"."""
    said = chat_sure(("Sam", "and??"), ("Maya", "the wedding was insane. i watched like 4 hours of ramzi's video call"))
    assert said[-1] == []
    assert chat_sure(("Sam", "and??"), ("Maya", "the wedding was amazing. we danced till 3"))[-1] == [
        ("assert", "Maya", "attended", "wedding", False)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "partner"), [
    ("i'm seeing someone. gonzalo. he's a geologist at the uni", "gonzalo"),  # h42 (dev)
    ("...ok i didnt tell you. i'm seeing someone. Ola. since july", "Ola"),  # h17 (dev)
    ("i am seeing someone. joaquín. joaco. he does lights at prisma", "joaquín"),  # h14 (dev)
    ("good!! i've been seeing someone. his name is femi", None),  # h36 (dev): a lower-case word no list knows
    ("i'm seeing someone. online. he's in canada", None), ("i'm seeing someone. her name is irrelevant.", None),
    ("i'm seeing someone, Sarah. she's my therapist", None), ("i'm seeing someone, Tom. he's a nurse", "Tom"),
    ("I have girlfriend now. her name is Aino", "Aino"),  # h12 (dev)
    ("his name is seojun, hes in my regression study group. we've been dating like 2 weeks", "seojun"),  # h10 (dev)
    ("i'm seeing someone 🙈 Tom. he's a nurse", "Tom"), ("im seeing someone!! his name is Rafael 😍", "Rafael"),
    # "going out since …" is not read: as often friends, a club, lunch (an attacker's)
    ("ok yes. her name is Chloe. she's on my course. we've been going out since december", None),  # h16 (dev)
    ("Tom and I have been going out for 3 months", None),
    # an attacker's: someone else's words, a joke, a professional one sees, a pet or a thing, a baby, a band
    ("i'd just say, i'm seeing someone. Tom. he's a doctor. she'd believe it", None),
    ("i'm seeing someone. Kofi. he's a physio, really good", None), ("i have a new boyfriend!! Netflix.", None),
    ("i've been seeing someone. his name is Biscuit. he's a puppy and he lives with me now", None),
    ("we had a baby!! her name is Chloe. we got married last year too", None),
    ("me and Tom started a band. we broke up in 2019", None),
    ("Tom and I went to the pub. we both broke up with our girlfriends this year", None),
    ("me and Jess are seeing each other at the reunion", None),
    # not a name, not the speaker's, not dating
    ("i'm seeing someone. it's early days.", None), ("i'm seeing someone. Finally. he is nice", None),
    ("i'm seeing someone. Tuesday. he's nice", None), ("i have a girlfriend? no lol", None),
    ("are you seeing someone? Tom said so", None), ("Tom and I are going out for a few weeks to Spain", None),
    ("her name is Bella, she's a lab. we've been out walking 3 times", None),
])
def test_whom_one_is_seeing_named_after_the_words(line, partner):
    said = chat_sure(("Sam", "sooo any news?"), ("Maya", line))[-1]
    assert [obj for _, _, predicate, obj, sure in said if predicate == "dating" and sure] == (
        [partner] if partner else [])


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "expected"), [
    ("also im learning czech 🇨🇿", [("assert", "Maya", "does", "czech", True)]),  # h31 (dev)
    ("i started learning arabic btw. on the app", [("assert", "Maya", "does", "arabic", True)]),  # h41 (dev)
    ("oh and I started Quechua!! evening classes at the language centre",
     [("assert", "Maya", "does", "Quechua", True)]),
    ("we ate czech food", []),
])
def test_more_languages_learnt(line, expected):
    assert chat_sure(("Sam", "what's new"), ("Maya", line))[-1] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("lines", "expected"), [
    # h38 (dev): "it" is what the message said before it, not the van bought after
    ((("Sam", "and the clio?"), ("Maya", "i sold it to a student for 800 euros and bought a van")),
     [("assert", "Maya", "owns", "van", False)]),  # its kind's word alone: for review
    # h40 (dev): the other participant called by a pet name after "engaged", not the fiancé
    ((("Sam", "AND??"), ("Maya", "I said yes!!!! crying, of course. I'm engaged Papa Eend!!!")), []),
    ((("Sam", "AND??"), ("Maya", "I'm engaged to Tom")), [("assert", "Maya", "dating", "Tom", True)]),
    # h40 (dev): "retired" before people is a word for them, no job ended
    ((("Sam", "what a gift"), ("Maya", "retired people and people who change jobs get the best gifts")), []),
    # h33 (dev): a name offered for someone ("call her …") is not what she is called
    ((("Sam", "Morag is back"), ("Maya", "call her La Tormenta")), []),
    ((("Sam", "Morag is back"), ("Maya", "everyone calls her La Tormenta")),
     [("assert", "Morag", "is_called", "La Tormenta", True)]),
])
def test_seventeenth_session_narrowings(lines, expected):
    assert chat_sure(*lines)[-1] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("previous", "line", "expected"), [
    # an attacker's: a pastime taken back, someone else's, a word of a breed
    ("any new hobbies?", "i started learning arabic but gave up after a week", []),
    ("do you speak any other languages?", "i started learning bulgarian when i was 6. forgot all of it", []),
    ("any new hobbies?", "started learning catalan. jk. as if", []),
    ("what's your brother up to?", "learning czech lol. he moved to prague", []),
    ("how's the puppy training?", "i started learning the irish wolfhound's commands lol", []),
    # a verb alone is a habit where the message says how often, and the speaker's
    ("how do you stay so calm?", "Swim. every morning at 6. it's the only thing keeping me sane",
     [("assert", "Maya", "does", "swimming", True)]),
    ("what does your mum do all day?", "Knits. watches tv. same as always", []),
    ("which cat is the best?", "my favourite cat is Mittens. she's 12 and she sleeps on my bed", []),  # or Garfield
    ("how's the cat?", "my fave cat Mittens is sick again", [("assert", "Maya", "has_pet", "cat", False)]),
    ("dogs?", "my favrite dog is the one next door", []),
    # an event called off in other words, watched from afar, or not gone to; and one that happened after all
    ("how was the weekend", "went to the wedding but they cancelled it last minute", []),
    ("how was the weekend", "went to the festival. but the whole thing was scrapped", []),
    ("how was the wedding?!", "the wedding was gorgeous. my cousin filmed it all for me since i couldn't go", []),
    ("how was the match?", "i watched the match from the pub. what a goal", []),
    ("how was the weekend", "went to the gig. we watched the support act on youtube before",
     [("assert", "Maya", "attended", "gig", False)]),
    ("how was the weekend", "went to the concert and it was cancelled halfway thru bc of a storm",
     [("assert", "Maya", "attended", "concert", False)]),
])
def test_the_attackers_sentences_of_the_seventeenth_session(previous, line, expected):
    said = chat_sure(("Sam", previous), ("Maya", line))[-1]
    assert [f for f in said if f[2] in ("does", "has_pet", "attended")] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("line", ["and I bought the dress! navy blue, long", "I also bought new boots.",
                                  "Andrés bought a hat. a panama hat"])
def test_clothes_bought_wait_for_review(line):
    """d11, h40, h42 (dev): clothes bought are seldom a possession the annotators keep (1 of 4)."""
    said = chat_sure(("Sam", "and??"), ("Maya", line))[-1]
    assert said and not any(sure for *_, sure in said), said


@pytest.mark.engine_free
@pytest.mark.parametrize(("previous", "line", "expected"), [
    # a reviewer's: each check reads the fact's own sentence (or the next), never one about something else
    ("how's Hannah?", "we broke up last week. Jess and I are going to Spain to get over it",
     [("end", "Maya", "dating", "Hannah", True)]),
    ("how's Dave?", "good! we're engaged!! Jess and I are planning the hen do",
     [("assert", "Maya", "dating", "Dave", True)]),
    ("how's Dave?", "we broke up. i'm keeping the cat", [("end", "Maya", "dating", "Dave", True)]),
    ("how's Dave?", "we got married!!! my friends threw us a party",
     [("assert", "Maya", "married_to", "Dave", True)]),
    ("how's Dave?", "we're together to this day haha", [("assert", "Maya", "dating", "Dave", True)]),
    ("how's Dave?", "Tom and I are engaged I can't believe it", [("assert", "Maya", "dating", "Tom", True)]),
    ("how was the weekend", "the concert was amazing! i didn't go home till 4am",
     [("assert", "Maya", "attended", "concert", False)]),
    ("how was the weekend", "the wedding was amazing!! later i watched the match on tv",
     [("assert", "Maya", "attended", "wedding", False)]),
    ("how was the match?", "class. watched it on the telly", []),
    ("how was the weekend", "went to the gig. it got cancelled once the singer fell ill", []),
    ("any new hobbies?", "i joined the choir. my old choir when i lived in leeds was nicer",
     [("assert", "Maya", "member_of", "choir", True)]),
    ("any new hobbies?", "i go climbing every week. jk about the pizza btw, i had salad",
     [("assert", "Maya", "does", "climbing", True)]),
    ("how's the family doing?", "all good. joined a choir btw",
     [("assert", "Maya", "member_of", "choir", True)]),  # a choir joined is written (thirtieth session)
    ("any hobbies?", "i'm taking thai massage lessons", []),
    ("any hobbies?", "i do hungarian folk dancing", [("assert", "Maya", "does", "hungarian folk dancing", True)]),
    ("how's life?", "officially retired ladies!! 32 years at the NHS", [("end", "Maya", "works_at", "NHS", True)]),
])
def test_the_reviewers_sentences_of_the_seventeenth_session(previous, line, expected):
    said = chat_sure(("Sam", previous), ("Maya", line))[-1]
    kept = ("dating", "married_to", "attended", "does", "member_of", "works_at")
    assert [f for f in said if f[2] in kept] == expected


@pytest.mark.engine_free
def test_sold_it_is_the_possession_said_before_the_verb_anywhere_in_the_message():
    """A reviewer's: "it" of "sold it" was looked for at the message's first "it"."""
    said = chat_sure(("Sam", "and the car?"), ("Maya", "honestly it was hard. my car cost too much so i sold it"))[-1]
    assert [(op, obj) for op, _, predicate, obj, _ in said if predicate == "owns"] == [("end", "car")]


@pytest.mark.engine_free
@pytest.mark.parametrize("line", ["i'm seeing someone. wait. he's a nurse", "i'm seeing someone. bye. he's a nurse",
                                  "Man and I... we are dating now", "Dog and I... we're together"])
def test_a_common_word_is_no_one_seen(line):
    """A reviewer's: the words nobody is called (the extractor's and the alias reader's) are no partner."""
    assert not any(p == "dating" for _, _, p, _, _ in chat_sure(("Sam", "sooo any news?"), ("Maya", line))[-1])


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "expected"), [
    ("Vale, I have fish!", [("assert", "Maya", "has_pet", "fish", False)]),  # h40 (dev): a noun, no fishing
    ("Now we have only fish. Fish do not sleep on your chest", [("assert", "Maya", "has_pet", "fish", False)]),
    ("i fish most weekends", [("assert", "Maya", "does", "fishing", True)]),
])
def test_a_habits_verb_after_have_is_a_noun(line, expected):
    assert chat_sure(("Sam", "and you?"), ("Maya", line))[-1] == expected


@pytest.mark.engine_free
def test_sold_it_is_read_where_its_own_sentence_stands():
    """The verb's words are found in its own sentence, not where the same words stand again later ("… i sold it.
    then my bike broke, so i sold it." read the first "it" as the second's, and the van as kept)."""
    said = chat_sure(("Sam", "and?"),
                     ("Maya", "my van kept breaking down so i sold it. then my bike broke, so i sold it."))
    assert ("end", "Maya", "owns", "van", False) in said[-1]


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "fact"), [
    ("i have a dog now!!", ("Maya", "has_pet", "dog")),
    ("I bought a car, finally", ("Maya", "owns", "car")),
    ("the wedding was amazing. we danced till 3", ("Maya", "attended", "wedding")),
    ("I joined a club last month", ("Maya", "member_of", "club")),
])
def test_a_thing_told_by_its_kinds_word_alone_waits_for_review(line, fact):
    """In a chat between two people "have a dog", "bought a car", "the wedding was amazing", "joined a club" are read
    and wait for review: on the dev chats such facts were right 0.76 of the time, those naming the thing 0.93. Named,
    they are written; told to an assistant (no other participant), too; an end is left to the gate."""
    assert fact in proposed(line) and fact not in written(line)
    alone = RuleExtractor().extract(line, reference_time=REF, speaker="Maya")
    assert fact in [(f.subject, f.predicate, f.object) for f in alone if f.sure]


@pytest.mark.engine_free
def test_a_thing_named_or_a_breed_or_a_pastime_is_still_written():
    assert ("Maya", "has_pet", "greyhound") in written("i got a greyhound!! retired racer, so lazy")
    assert ("Maya", "has_pet", "dog") in written("i got a dog!! picked him up on sunday")  # got: an acquisition
    assert ("Maya", "has_pet", "kittens") in written("we adopted two kittens")
    assert ("Maya", "owns", "Volvo") in [f[1:4] for f in chat_sure(("Maya", "I bought a Volvo."))[0] if f[4]]
    assert ("end", "Maya", "owns", "car", True) in chat_sure(("Maya", "I sold my car, finally"))[0]  # to the gate
    assert ("Maya", "works_at", "Office") in written("I work at The Office now, the bar on Main St")
    assert ("Maya", "attended", "Ana's wedding") in written("Ana's wedding last night was amazing")
    assert ("Maya", "member_of", "gospel choir") in written("I joined a gospel choir last month")
    # a choir or a band joined, by its word alone: 9 of 9 right on dev (the thirtieth session; two clubs of three wrong)
    assert ("Maya", "member_of", "choir") in written("I joined a choir last month")
    assert ("Maya", "member_of", "band") in written("also i joined a band again")
    assert ("Maya", "member_of", "club") not in written("I joined a club last month and didn't tell you")
    assert chat_sure(("Sam", "and you?"), ("Maya", "i fish most weekends"))[-1] == [
        ("assert", "Maya", "does", "fishing", True)]


@pytest.mark.engine_free
def test_a_kinds_word_shouted_waits_for_review_too():
    """"I HAVE A DOG TOO" is a kind's word alone, shouted: not a name ("The Office" is), so it waits as "i have a dog
    too" does (a fresh chat's slip, h49). A word in capitals among words in lower case is a name or an acronym and
    is written as before ("a TV", "the LAB")."""
    fact = ("Maya", "has_pet", "DOG")
    assert fact in proposed("ok my news, I HAVE A DOG TOO") and fact not in written("ok my news, I HAVE A DOG TOO")
    assert not [f for f in written("THE WEDDING WAS AMAZING") if f[1] == "attended"]
    # got: an acquisition, as in lower case; a sentence all shouted names the kind as the kind (a new user's "CAT")
    assert ("Maya", "has_pet", "dog") in written("I GOT A DOG!!!")
    assert ("Maya", "owns", "TV") in written("we finally bought a TV")
    assert ("Maya", "works_at", "LAB") in written("I work at the LAB now")


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "boz is terrorising my mothers chickens",  # h49: the mother's, apostrophe left out
    "i'm walking my mates dog again",
    "my sons guitar is so loud",
    "borrowed my grandfathers car for the weekend",
    "my landlords cat sleeps on my bed",
    "my housemates dog",
    "my exs dog",
    "my inlaws dog",
])
def test_a_relatives_pet_or_thing_without_its_apostrophe_is_theirs(text):
    assert not [f for f in proposed(text) if f[1] in ("has_pet", "owns")]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "thing"), [
    ("i bought a women's bike yesterday", "women's bike"),  # who it is for, not whose
    ("just got a new men's watch", "men's watch"),
    ("we have a children's trampoline in the garden", "children's trampoline"),
    ("I got a kids scooter for the commute", "kids scooter"),
])
def test_a_thing_for_someone_is_still_ones_own(text, thing):
    assert ("Maya", "owns", thing) in proposed(text)


@pytest.mark.engine_free
def test_a_pet_named_alone_then_said_to_have_died_is_an_end_for_review():
    """"my betta fish!! the orange one. he died on thursday" (h50) ends the pet on Thursday, for review: "he" is read
    as the pet only where the pet's sentence names it and nothing else, and the next sentence (or the one after a
    few words describing it) says it died."""
    from datetime import UTC, datetime

    found = RuleExtractor().extract("my betta fish!! the orange one. he died on thursday. 3 years old",
                                    reference_time=datetime(2048, 3, 7, 12, tzinfo=UTC), speaker="Ploy",
                                    other="Aigerim")
    assert [(f.op, f.predicate, f.object, f.valid_to and f.valid_to.date().isoformat(), f.sure) for f in found] == [
        ("end", "has_pet", "betta fish", "2048-03-05", False)]
    assert ("end", "Maya", "has_pet", "dog", False) in chat_sure(("Maya", "my dog!! he passed away last night"))[0]
    assert ("end", "Maya", "has_pet", "cat", False) in chat_sure(("Maya", "our old cat 😭. she was put down"))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "my dog is the best. he died laughing at me yesterday lol",  # the pet's sentence says more; a way of speaking
    "my dog!! he died laughing",
    "my cat!! he died his fur blue lol",
    "my cat!! she passed out on my keyboard lol",  # passed out, passed a stone, passed on the treats: alive
    "my dog!! he passed a kidney stone yesterday, vet says hes fine now",
    "my cat!! she passed on the treats, so fussy",
    "my dog!! he died of cuteness",
    "my dog. he died when he saw the postman lol",
    "my dog 😭. my grandad was ill for months. he passed away in january",  # "he" is someone else
    "my rabbit. and my dad. he died in 2019",
    "my cat!! my neighbours dog got hit by a car yesterday. he died instantly",
    "my dog!!! ate my airpods. it died lol",
    "my goldfish!! he died. nah jk he's fine",  # taken back
    "my dog!! he died?? no wait he's just asleep",
    "my dog passed out on the couch",  # the same words right after the pet
])
def test_no_pet_ends_where_it_did_not_die(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[0] == "end"], text


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "our cat died the other day",  # the words of death a reviewer found the first narrowing had lost
    "my dog died a few weeks ago",
    "my dog died when I was at uni",
    "my cat passed in her sleep",
    "my cat passed peacefully the other day",
    "my dog passed on tuesday",
    "my dog passed this morning",
])
def test_a_pet_said_to_have_died_is_still_an_end(text):
    assert [f for f in chat_sure(("Maya", text))[0] if f[0] == "end" and f[2] == "has_pet"], text




@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "and i joined a dive club! red sea divers. we go out every friday morning",
    "and i joined the football team. kautokeino il. they needed a keeper",
    "we're in a walrus club, morsy orłowo. water is 3 degrees",
    "and... i joined the sailing club here! the cholpon-ata yacht club. its 6 old boats",
    "i joined a running club! the hackney harriers.",
])
def test_a_group_named_in_lower_case_after_its_noun_waits_for_review(text):
    """The name typed in lower case after the group's noun is the group the annotators record; the membership of
    the noun waits for review (as one of a name said further on does)."""
    assert [f for f in chat_sure(("Maya", text))[0] if f[2] == "member_of"] and not [
        f for f in chat_sure(("Maya", text))[0] if f[2] == "member_of" and f[4]]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "lol. also i joined a running club. dont laugh",
    "also i joined the office futsal team. thursdays after work",
    "oh also i joined a dance club!! k-pop cover dance. auditions were last friday",
    "I joined a horo group. folk dancing. tuesday nights",
    "i joined a running club! great people",
    "i joined a running club. wish me luck",  # a reaction, a description: words of English, a pronoun, a number
    "i joined a running club, been going 3 weeks",
    "i joined a running club. loving it",
    "i joined a running club, as goalie",
    "i joined a running club! me and isa",
    "i joined a running club. big commitment",
    "i joined a running club! striker obviously",
    "i joined a running club. mostly grannies",
    "i joined a running club. couch to 5k",
])
def test_words_after_a_groups_noun_that_name_no_group_leave_it_written(text):
    assert [f for f in chat_sure(("Maya", text))[0] if f[2] == "member_of" and f[4]]


@pytest.mark.engine_free
def test_he_or_she_is_not_a_place_the_chat_named():
    """"she sells for the weavers in Pile" - "Pile?" - "… she lives in Montecristi" (h51): "Pile" echoed alone is the
    one capitalised word of the turn before, but the chat said it as where someone is, so "she" is not Pile."""
    said = chat_sure(("Maya", "her name is Carmen. she sells for the weavers cooperative in Pile"), ("Sam", "Pile?"),
                     ("Maya", "a village on the coast. she lives in Montecristi"))
    assert not [f for f in said[2] if f[1] == "Pile"]
    assert ("assert", "Carmen", "lives_in", "Montecristi", True) in chat_sure(
        ("Sam", "who?"), ("Maya", "Carmen?"), ("Maya", "she lives in Montecristi"))[2]  # no place said: her


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I joined the Hash! Lusaka Hash House Harriers. saturday was my first one",  # h52: a running club
    "And I also did something. I joined the Musikkapelle. The town brass band",  # h29: a band
    "I joined Microsoft on 8 May 2023.",
])
def test_what_is_joined_by_its_name_alone_is_a_job_only_after_review(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "works_at" and f[4]], text
    assert ("assert", "Maya", "works_at", "Acme", True) in chat_sure(("Maya", "I joined a new company, Acme"))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "place", "sure"), [
    ("same liepāja, but i moved to karosta last year, the old navy town bit", "karosta", False),  # h41
    ("i moved back to kukës in march", "kukës", False),  # towns only GeoNames knows, in lower case: as often a
    ("moved to sinazongwe!!", "sinazongwe", False),  # bank or an app ("moved to santander", "to kobo")
    ("moved to santander for the £200 switching bonus", "santander", False),
    ("moved to hoi an yesterday. room is small", "hoi an", True),  # a place the hand-written list knows
])
def test_a_place_typed_in_lower_case_after_a_move_done_is_proposed(text, place, sure):
    """A word no list knows, typed in lower case after "moved to", is as often an app, a shop or a diet as a
    place ("moved to whatsapp", "to lidl", "to keto"): where one lives, for review."""
    assert ("assert", "Maya", "lives_in", place, sure) in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "we moved to ur street lol", "i moved to part time in may", "they moved to another room",
    "she got moved to nights", "i'm moving to karosta next year",  # a plan names no home yet
    "we moved to thursdays for book club", "moved to tuesday now", "i moved to nan's", "i moved to mums",
    "i moved to oat milk", "i moved to ikea furniture", "i moved to https://example.org", "i moved to gmail.com",
    "i moved to " + "a" * 400, "moved to fortnightly",  # a reviewer's
])
def test_words_after_a_move_that_are_no_place_in_lower_case(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "lives_in" and f[0] == "assert"], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "activity"), [
    ("I'm learning to weave!!", "weaving"),  # h51
    ("i go wednesday evenings and saturdays. im learning to sail!!", "sailing"),  # h49
    ("i'm learning to cook properly", "cooking"),
])
def test_a_pastime_learnt_by_its_verb(text, activity):
    assert ("assert", "Maya", "does", activity, True) in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "i'm learning to drive", "im learning to be patient", "im learning the ropes", "I am learning the whatsapp",
    "We're learning hiragana.",
])
def test_what_is_learnt_that_is_no_pastime_the_lists_know(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "does"], text


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "Kelly is doing well. I cook, I clean, I hold the baby",  # h11: chores
    "I fish every day for work, small boy",  # h52: work
    "Then we paint. My first bracelet is ugly but it is mine",  # h46: a step of a craft
    "Did I dance. Ask anyone.",
    "left back. i run, i fall, i complain",
])
def test_a_habit_told_without_how_often_waits_for_review(text):
    said = [f for f in chat_sure(("Maya", text))[0] if f[2] == "does"]
    assert said and not [f for f in said if f[4]], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "activity"), [
    ("i bake every morning now, 6am, before the tastings", "baking"),
    ("Now I knit every evening. It is calm", "knitting"),
    ("I run most mornings", "running"),
    ("i swim twice a week", "swimming"),
])
def test_a_habit_told_with_how_often_is_written(text, activity):
    assert ("assert", "Maya", "does", activity, True) in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize(("asked", "text", "activity"), [
    ("what do you do for fun?", "I paint", "painting"),  # a reviewer's: the question of pastimes is how often enough
    ("any hobbies?", "I knit, mostly scarves", "knitting"),
    ("do you do any sport?", "yes I box", "boxing"),
])
def test_a_habit_told_in_answer_to_a_question_of_pastimes_is_written(asked, text, activity):
    assert ("assert", "Maya", "does", activity, True) in chat_sure(("Sam", asked), ("Maya", text))[1]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I box every christmas present", "I run every errand for my gran", "I run twice as fast as you",
    "I surf every channel", "we row every time he comes home",  # a reviewer's: "every" before no time
])
def test_every_before_no_time_is_no_how_often(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "does" and f[4]], text


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I run every morning before I head off for work", "I swim every day, then I leave for work",
])
def test_work_said_later_leaves_a_habit_a_pastime(text):
    assert [f for f in chat_sure(("Maya", text))[0] if f[2] == "does" and f[4]], text


@pytest.mark.engine_free
def test_a_name_said_as_a_place_long_ago_or_not_as_a_place_may_be_she():
    """A reviewer's: "in" after "trust" or "myself" says no place, and a place said many messages before ("grew up
    near Chelsea") does not keep "she" from being the Chelsea spoken of now."""
    for said in ("i trust in Priya completely", "i see so much of myself in Priya"):
        assert ("assert", "Priya", "works_at", "Barclays", True) in chat_sure(
            ("Maya", said), ("Sam", "Priya?"), ("Maya", "she works at Barclays"))[2]
    later = [("Maya", "i grew up near Chelsea"), *[("Sam", "ok"), ("Maya", "yeah")] * 3,
             ("Maya", "Chelsea from school messaged me"), ("Sam", "Chelsea?"), ("Maya", "she lives in Leeds now")]
    assert ("assert", "Chelsea", "lives_in", "Leeds", True) in chat_sure(*later)[-1]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["Swim. usually", "Knit. usually", "Swim. mostly", "Swim. always have"])
def test_a_verb_alone_told_how_often_in_any_words_is_still_proposed(text):
    """A verb alone ("Swim.") is read as a habit where how often is said anywhere beside it ("usually", "mostly"); the
    narrower reading of how often right after the verb decides only whether it is written at once (a re-read of the
    change found the narrow pattern had taken the broad one's name, and dropped these)."""
    said = [f for f in chat_sure(("Sam", "so?"), ("Maya", text))[1] if f[2] == "does"]
    assert said and not any(f[4] for f in said), said


@pytest.mark.engine_free
def test_the_towns_list_holds_towns_not_words_or_names():
    """data/towns.txt (scripts/towns.py, from GeoNames): one folded name a line, sorted, no word of everyday English
    and no name the nicknames data knows as someone's."""
    from pathlib import Path

    from graphmem.core._alias_chat import english_counts, nickname_table
    from graphmem.core.places import folded, is_place, is_town

    lines = (Path(__file__).parent.parent / "graphmem" / "core" / "data" / "towns.txt").read_text("utf-8").splitlines()
    assert lines == sorted(set(lines)) and len(lines) > 30_000
    counts, (_, people) = english_counts(), nickname_table()
    assert all(folded(n) == n and len(n) >= 4 and counts.get(n, 0) < 200 and n not in people for n in lines)
    assert all(map(is_town, ("antalaha", "Tainan", "Concón", "concon", "gdynia", "Berlin", "Conco\u0301n")))
    assert not any(map(is_town, ("reading room", "plagwitz", "florence nightingale", "mobile")))
    # words of other languages ("centro", "praia", "azul") and parts of a big city ("Brixton", "Soho") are left out
    assert not any(map(is_town, ("centro", "praia", "isla", "azul", "carrefour", "Brixton", "Soho", "Canary Wharf")))
    assert is_town("Hassan") and not is_place("Hassan")  # a town, and a name: someone, where the words say no place


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("i went to tainan on thursday", ("assert", "Maya", "traveled_to", "tainan", True)),
    ("i live in gdynia", ("assert", "Maya", "lives_in", "gdynia", False)),  # a home in lower case: for review
    ("I live in Gdynia", ("assert", "Maya", "lives_in", "Gdynia", True)),
    ("i went to tainan with uni friends", ("assert", "Maya", "traveled_to", "tainan", True)),
    ("I moved to Antalaha on the 2nd", ("assert", "Maya", "lives_in", "Antalaha", True)),
    # a site named after a town the long list alone knows, an outing's purpose, or someone to see: for review
    ("We went to Sumiyoshi shrine for hatsumode on 1 January.", ("assert", "Maya", "traveled_to", "Sumiyoshi", False)),
    ("went to Nokia arena for the concert", ("assert", "Maya", "traveled_to", "Nokia", False)),
    ("went to Sakura for dinner", ("assert", "Maya", "traveled_to", "Sakura", False)),  # Sakura: a town in Japan
    ("went to see Hassan on Sunday", ("assert", "Maya", "traveled_to", "Hassan", False)),
    ("went to Hassan for help", ("assert", "Maya", "traveled_to", "Hassan", False)),
    ("went over to Hassan", ("assert", "Maya", "traveled_to", "Hassan", False)),
    ("went to Villa Park for the match", ("assert", "Maya", "traveled_to", "Villa Park", False)),
    # a third reviewer's: the rest of a site's name after a town in lower case, an errand, a university
    ("went to alton towers", ("assert", "Maya", "traveled_to", "alton", False)),
    ("went to toyota for new tyres", ("assert", "Maya", "traveled_to", "toyota", False)),
    ("i went to warwick, studied economics", ("assert", "Maya", "traveled_to", "warwick", False)),
    ("went to daejeon for her 80th", ("assert", "Maya", "traveled_to", "daejeon", True)),  # an occasion: a trip
    ("back from imperia since saturday", ("assert", "Maya", "traveled_to", "imperia", True)),
    # a town only GeoNames knows, typed in lower case as a home or after "left": as often a shop or a firm
    ("drove up from argos with the new sofa", ("assert", "Maya", "lives_in", "argos", False)),
    ("i left bodrum last year", ("end", "Maya", "works_at", "bodrum", False)),
    # a firm or a school named like a town, after "left" or between two firms (a reviewer's)
    ("I left Georgetown in 2019", ("end", "Maya", "studies_at", "Georgetown", True)),
    ("switched from Nokia to Samsung", ("end", "Maya", "works_at", "Nokia", True)),
    ("officially retired today. 31 years at toyota", ("end", "Maya", "works_at", "toyota", True)),
    # a person called like a town is still someone
    ("Hassan moved to Madrid last week", ("assert", "Hassan", "lives_in", "Madrid", True)),
])
def test_a_town_geonames_knows_is_read_where_the_words_say_a_place(text, expected):
    assert expected in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
def test_a_visit_to_someone_called_like_a_town_is_no_trip():
    assert not [f for f in chat_sure(("Maya", "I visited Hassan on Sunday"))[0] if f[2] == "traveled_to"]


@pytest.mark.engine_free
def test_a_past_answer_with_no_subject_to_did_someone_is_theirs():
    """ "did pappa help" - "drove up from bodø with the trailer": pappa drove, not surely the speaker (h15)."""
    asked_of_him = chat_sure(("Sam", "🥹 did pappa help"), ("Maya", "drove up from bodø with the trailer and a drill"))
    assert not [f for f in asked_of_him[1] if f[1] == "Maya"]
    asked_of_her = chat_sure(("Sam", "did you go?"), ("Maya", "drove up from bodø with the trailer and a drill"))
    assert ("assert", "Maya", "lives_in", "bodø", False) in asked_of_her[1]  # (a home in lower case: for review)
    for asked in ("oh nice! did pappa help?", "did Tom come?? lol", "did the kids enjoy it?", "did your mum help?"):
        told = chat_sure(("Sam", asked), ("Maya", "drove up from bodø with the trailer"))
        assert not [f for f in told[1] if f[1] == "Maya"], asked
    for asked in ("how did your weekend go?", "did some shopping. u?", "did laundry all day lol",
                  "what did the doctor say", "Did Paris go well?", "Did Tom and you go?",
                  "Did Someone eat my yoghurt?", "did your weekend go ok?"):  # not a question whether someone else
        # did a thing (a reviewer's)
        assert ("assert", "Maya", "traveled_to", "Leeds", True) in chat_sure(
            ("Sam", asked), ("Maya", "went to Leeds on saturday, so fun"))[1], asked


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a pastime said in the perfect with "since" a month, a season or a year: begun then, not a plan
    ("I've been doing yoga since March", ("assert", "Maya", "does", "yoga", "2026-03-01", None)),
    ("i've been learning the accordion since 2019", ("assert", "Maya", "does", "accordion", "2019-01-01", None)),
    ("I've been doing yoga since March and I love it", ("assert", "Maya", "does", "yoga", "2026-03-01", None)),
    # instruments of many countries, played or learnt
    ("you always laugh. I'm learning the morin khuur", ("assert", "Maya", "does", "morin khuur", None, None)),
    ("ok. I started charango lessons", ("assert", "Maya", "does", "charango", None, None)),
])
def test_pastimes_begun_since_and_instruments_of_many_countries(text, expected):
    assert expected in facts(text)


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "I'm playing tennis tomorrow", "I haven't been doing yoga since March",  # a plan; nothing begun
    # after a reviewer's finds: the time is a session's, a change's, another clause's, or the sentence ends it
    "I've been doing yoga since my op, and pilates since 2019", "I've been doing yoga since March but I stopped",
    "I've been playing more tennis since March", "I've been doing yoga with a new teacher since March",
    "I've been playing chess since Saturday at the tournament", "i've been doing the cooking since march",
    "I've been doing pilates since March - wait no, it was April", "I've been playing tennis since monday",
    # instrument words that are names as often: none of them read
    "we have lyra on tuesdays, shes my granddaughter", "I have Kora on Thursdays, she's my niece",
    "i go to veena for my eyebrows", "I do the whistle for the kids' football",
])
def test_what_those_readings_leave_alone(text):
    assert not [f for f in facts(text) if f[2] == "does" and f[4] is not None or f[2] == "does" and f[0] == "assert"
                and f[3].lower() in ("lyra", "kora", "veena", "whistle")], facts(text)


@pytest.mark.engine_free
def test_an_event_one_went_to_said_with_when_is_written():
    """ "i went to a wedding yesterday", "I was at the funeral on Thursday": an event named by its kind's word
    alone waits for review, unless one says one went and when (on dev, 7 right of 7 that waited)."""
    from tests.test_extract_chat import REF
    written = [(f.subject, f.object, f.sure) for f in RuleExtractor().extract(
        "i went to a wedding yesterday! jo and hannah got married", reference_time=REF, speaker="Maya", other="Sam")
        if f.predicate == "attended"]
    assert written == [("Maya", "wedding", True)]
    for text in ("i went to a wedding", "the wedding was lovely", "we're going to a wedding on saturday",
                 "Tom went to a wedding yesterday",
                 # after a reviewer's finds: a place, someone else's outing, another time, a job there
                 "went to a funeral home on tuesday to sort out grandads stuff",
                 "i went to the concert hall yesterday for a tour", "Leo went to a party yesterday, I went to the pub",
                 "I went to a wedding once, and yesterday I saw the bride in tesco",
                 "i was at a wedding yesterday, i was the photographer",
                 "tom thinks I went to the party last night lol i didnt"):
        assert not [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
                    if f.predicate == "attended" and f.subject == "Maya" and f.sure], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # how long a state has held, said in the perfect or with "now", dates its start (the unit's granularity;
    # REF is 8 May 2026)
    ("I've lived in Leeds for 3 years now", ("assert", "Maya", "lives_in", "Leeds", "2023-01-01", None)),
    ("i've been at Tesco for 6 months", ("assert", "Maya", "works_at", "Tesco", "2025-11-01", None)),
    ("I've been dating Tom for 3 months", ("assert", "Maya", "dating", "Tom", "2026-02-01", None)),
    ("i live in Leeds, 5 years now", ("assert", "Maya", "lives_in", "Leeds", "2021-01-01", None)),
    ("I've been doing yoga for two years", ("assert", "Maya", "does", "yoga", "2024-01-01", None)),
    ("I've been at Farfetch 3 years", ("assert", "Maya", "works_at", "Farfetch", "2023-01-01", None)),  # a new user's:
    ("I've lived in Porto 10 years.", ("assert", "Maya", "lives_in", "Porto", "2016-01-01", None)),  # no "for"
    # vague, another thing's, or no state now: no start
    ("I've lived in Leeds for a few years", ("assert", "Maya", "lives_in", "Leeds", None, None)),
    ("I've been doing yoga for 3 years in a row at the summer camp", ("assert", "Maya", "does", "yoga", None, None)),
    ("I worked at Acme for 2 years", ("end", "Maya", "works_at", "Acme", None, None)),
])
def test_how_long_a_state_has_held_dates_its_start(text, expected):
    assert expected in facts(text)


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    # a reviewer's: an age, another's length, a length read in part, a stretch over or not one, a past perfect,
    # a condition, a belief, a stay
    "I'm married to Tom and we've got a little girl, she's 9 months now", "I have a dog, he's 3 years now",
    "I work at Tesco but I've been off sick for 2 months now", "I'm dating Tom, we've been friends for 10 years now",
    "I've lived in Leeds for twenty five years now", "I've been at Tesco for 1.5 years now",
    "I've lived in Leeds for 3 1/2 years now", "I've worked at Acme, my husband for 10 years",
    "I've been dating Tom, who I've known for 10 years", "I've been at Tesco, before that Asda for 3 years",
    "I've been at Tesco and haven't had a pay rise for 3 years", "I've been at Tesco for a year and a half",
    "I've lived in Leeds for a year or two", "I had been at Tesco for 10 years when they sacked me",
    "I've worked at Tesco for 2 years but I'm at Asda now", "I've lived in Leeds for 3 years, then moved to York",
    "I've lived in Leeds on and off for 10 years", "after I've been at Tesco for 6 months I can transfer",
    "Tom thinks I've lived in Leeds for 10 years lol, it's 3", "I've been engaged to Tom for 6 months",
    "I've been at the Hilton for a week", "I've lived in Leeds for over ten years",
    "I've lived in Leeds 2 years before that", "I've been at Tesco 2 weeks",
])
def test_a_length_that_is_not_how_long_the_state_has_held_dates_nothing(text):
    assert not [f for f in facts(text) if f[4] is not None], facts(text)


@pytest.mark.engine_free
def test_a_length_is_counted_back_in_the_extractors_zone():
    """Said at 22:00 UTC on 31 December 2025, which is already 2026 in Sydney: three years back is 2023 there."""
    from datetime import UTC, datetime

    found = RuleExtractor(tz="Australia/Sydney").extract(
        "I've lived in Leeds for 3 years now", reference_time=datetime(2025, 12, 31, 22, tzinfo=UTC), speaker="Maya")
    assert [f.valid_from.isoformat() for f in found if f.valid_from] == ["2022-12-31T13:00:00+00:00"]


def test_a_start_read_from_how_long_re_dates_the_belief_keeping_the_first(tmp_path):
    """ "I live in Leeds" (1 March), then "I've lived in Leeds for 3 years now" (8 May 2024): the belief is
    re-dated to 2021, both sentences cited, the first version kept as superseded."""
    from graphmem import Store
    from graphmem.ingest import ingest, read_messages
    from tests.conftest import ENGINE

    chat = tmp_path / "c.jsonl"
    rows = [("m1", "2024-03-01T10:00:00Z", "Ana", "I live in Leeds"), ("m2", "2024-03-01T10:01:00Z", "Ben", "nice"),
            ("m3", "2024-05-08T10:00:00Z", "Ana", "I've lived in Leeds for 3 years now")]
    chat.write_text("".join(
        f'{{"id": "{i}", "session": 1, "chat_time": "{t}", "role": "user", "actor": "{a}", "content": "{c}"}}\n'
        for i, t, a, c in rows))
    with Store(tmp_path / "store", engine=ENGINE) as store:
        ingest(store, read_messages(chat, tz=store.tz), replay=True, approve=True)
        versions = store.history("Ana", "lives_in")
        current = [v for v in versions if v.superseded_at is None]
        assert [v.valid_from.isoformat()[:10] for v in current] == ["2021-01-01"]
        assert len(versions) == 2


@pytest.mark.engine_free
def test_a_length_followed_by_another_clause_still_dates_it():
    """A new user's: "i've been at Deloitte for 3 years now and honestly im so done with it" (not "for 3 years and 8
    months", "… and now I'm at Asda")."""
    assert ("assert", "Maya", "works_at", "Deloitte", "2023-01-01", None) in facts(
        "i've been at Deloitte for 3 years now and honestly im so done with it")
    for text in ("I've been at Tesco for 3 years and 8 months", "I've worked at Tesco for 2 years and now I'm at Asda"):
        assert not [f for f in facts(text) if f[4] is not None], text


@pytest.mark.engine_free
def test_leaving_a_job_or_group_the_chat_told_before_ends_it():
    """ "I've left Acme" (a new user's "I left Acme", docs/ingest.md, "Endings"): the name left is one the chat told
    before as the speaker's job or group, and the words say it is for good (the perfect, "finally", "for good",
    where one went, a month or longer, a job's word); after a reviewer's ~90 cases, a plain "left X" is the
    building's for the day as often, and ends nothing."""
    for said in ("I've left Acme!", "I finally left Acme", "I left acme in March", "I left acme for Deloitte",
                 "I left acme for good", "i left acme last month to go freelance"):
        told = chat_sure(("Maya", "I work at Acme."), ("Maya", said))
        assert ("end", "Maya", "works_at", "Acme", True) in told[1], said
    for said in ("I left Acme.", "I left acme at 10", "I left acme early", "I left acme and got the bus home",
                 "I left the acme building", "we left acme at 10", "Tom and I left acme for good",
                 "I left acme a review", "I left acme with a headache"):
        assert not [f for f in chat_sure(("Maya", "I work at Acme."), ("Maya", said))[1] if f[0] == "end"], said
    assert not [f for f in chat_sure(("Maya", "I left Acme at 6, so tired"))[0] if f[0] == "end"]  # nothing told


@pytest.mark.engine_free
def test_moving_from_a_place_alone_ends_living_there_and_a_count_is_no_part_of_a_name():
    """A reviewer's: "i moved from london 3 years ago" began a home in London, and "to Leeds 3 years ago" named
    "Leeds 3"."""
    assert facts("i moved from london 3 years ago") == [("end", "Maya", "lives_in", "london", None, "2023-01-01")]
    assert ("assert", "Maya", "lives_in", "Leeds", "2023-01-01", None) in facts(
        "I moved from London to Leeds 3 years ago")
    assert ("assert", "Maya", "works_at", "Terminal 5", None, None) in facts("I work at Terminal 5 at Heathrow")


@pytest.mark.engine_free
def test_a_move_or_a_start_in_the_past_progressive_and_a_sentence_opening_on_were_are_no_facts():
    """A new user's: "were moving to Glasgow in august" ("we're", typed without its apostrophe) wrote a move to
    Glasgow a year back, with --approve; "we were moving in august" says as little (under way, or meant, then). A
    state in the past progressive still is one ("I was living in Leeds in 2019"), and so is an event ("I was staying
    in Paris last week"). A sentence that opens on "were" before a form in -ing, no subject said, gives nothing: a
    reviewer's "were living in Leeds till 2021" is the past, "were living in leeds now" is "we're"."""
    for said in ("were moving to Glasgow in august", "we were moving to Glasgow in august",
                 "omg were moving to glasgow next month!!", "I was joining the choir but then covid",
                 "were getting married in september", "were living in leeds now", "lol were living in leeds now",
                 "were living in Leeds till 2021", "were working at Google in 2019"):
        assert facts(said) == [], said
    assert facts("I was living in Leeds in 2019") == [("assert", "Maya", "lives_in", "Leeds", "2019-01-01",
                                                        "2020-01-01")]
    assert facts("we were living in leeds then") == [("end", "Maya", "lives_in", "leeds", None, None)]
    assert ("assert", "Maya", "lives_in", "Glasgow", "2025-08-01", None) in facts("we moved to Glasgow in august")
    assert [f[2:4] for f in facts("I was staying in Paris last week")] == [("traveled_to", "Paris")]
    # a second reviewer's: only that clause gives nothing, not the sentence
    assert [f[1:4] for f in facts("were having a baby and my sister Tilly works at Google")] == [
        ("Tilly", "works_at", "Google")]
    assert [f[1:4] for f in facts("were having a baby, my brother Tom lives in Oslo")] == [("Tom", "lives_in", "Oslo")]


@pytest.mark.engine_free
def test_a_name_in_its_own_script_is_a_name():
    """A new user's: "my friend ليلى lives in Cairo" gave nothing (search found it only as a message). A name in
    Cyrillic, Greek or Armenian capitals opens a name as a Latin capital does, and one in a script with no capitals
    (Arabic, Hebrew, Chinese, Devanagari, Thai…) where a relation word says a name follows."""
    assert ("assert", "ليلى", "lives_in", "Cairo", None, None) in facts("my friend ليلى lives in Cairo")
    assert ("assert", "Наташа", "lives_in", "Kyiv", "2025-01-01", None) in facts("Наташа moved to Kyiv last year")
    assert ("assert", "Νίκος", "lives_in", "Athens", None, None) in facts("Νίκος lives in Athens")
    assert ("assert", "美玲", "works_at", "Tencent", None, None) in facts("my sister 美玲 works at Tencent")
    said = RuleExtractor().extract("my sister 美玲 works at Tencent", reference_time=REF, speaker="Maya")
    assert ("美玲", "sister_of", "Maya") in {(f.subject, f.predicate, f.object) for f in said}
    assert facts("I had 拉面 for lunch") == []
    # a reviewer's: with no capitals to tell a name from a word, a caseless word alone is no one ("哈哈" is "haha",
    # "我" is "I"); after a relation word it is a name, marks and leading vowels in it ("प्रिया", "เจน"); accented
    # Greek and Ukrainian capitals are capitals
    for said in ("哈哈 moved to Leeds lol", "好的 lives in Leeds now", "我 moved to Tokyo last year"):
        assert [f[1] for f in facts(said)] in ([], ["Maya"]), said
    for name, said in (("प्रिया", "my friend प्रिया lives in Delhi"), ("เจน", "my friend เจน moved to Bangkok"),
                       ("Άννα", "my friend Άννα lives in Athens"), ("Ґанна", "Ґанна lives in Lviv")):
        assert [f[1] for f in facts(said)] == [name], said


@pytest.mark.engine_free
@pytest.mark.parametrize(("line", "fact"), [
    ("I study English", ("assert", "Maya", "does", "English", True)),  # h68: a language studied is a pastime
    ("i started samoan lessons two weeks ago", ("assert", "Maya", "does", "samoan", True)),  # h67: a language
    ("I stopped the English", ("end", "Maya", "does", "English", True)),
])
def test_a_language_studied_is_done(line, fact):
    """h67, h68 (dev since the thirtieth session): "I study English", lessons in Samoan; English and thirty other
    languages were missing from the list of them."""
    assert fact in chat_sure(("Maya", line))[0]
    assert chat_sure(("Maya", "i'm studying law"))[0] == []  # a subject, a school's


@pytest.mark.engine_free
def test_a_person_after_the_is_no_name_of_a_plain_word_or_shouted():
    """"i'm dating the BEST bread" (h67): a word shouted after "the" is no one dated; a plain name still is."""
    assert chat_sure(("Maya", "i'm dating the BEST bread. sourdough with olives"))[0] == []
    assert ("assert", "Maya", "dating", "Tess", True) in chat_sure(("Maya", "im dating Tess now"))[0]


@pytest.mark.engine_free
def test_a_sentence_shouted_is_read_as_if_in_lower_case():
    """A new user's (thirtieth session): "WE ADOPTED A DOG. her name is biscuit" gave nothing, for the rules read
    capitals as names; a sentence wholly in capitals (three words of letters at least) is read in lower case, a name
    the data knows, a known place and a word no dictionary knows capitalised, and the quote stays as written."""
    said = RuleExtractor().extract("WE ADOPTED A DOG. her name is biscuit 🐶🐶", reference_time=REF, speaker="Maya",
                                   other="Sam")
    assert [(f.predicate, f.object, f.sure, f.quote) for f in said] == [
        ("has_pet", "dog", True, "WE ADOPTED A DOG.")]
    assert ("assert", "Maya", "lives_in", "Leeds", True) in chat_sure(("Maya", "OMG. I MOVED TO LEEDS LAST WEEK"))[0]
    assert ("assert", "Maya", "met", "Tom", True) in chat_sure(("Maya", "I MET TOM YESTERDAY"))[0]
    assert ("assert", "Maya", "works_at", "Northwind", True) in chat_sure(("Maya", "I GOT THE JOB AT NORTHWIND"))[0]
    assert chat_sure(("Maya", "I WILL MOVE TO LEEDS"))[0] == []  # "will" is no name


@pytest.mark.engine_free
def test_my_sis_and_my_bro_are_relatives_whose_verbs_are_theirs():
    """A new user's (thirtieth session): "my sis anjali moved to edinburgh last week" wrote only that Anjali is a
    sister ("my sister anjali moved…" wrote her move too): "sis" and "bro" were relation words for the family reader
    and not for the subject's."""
    assert ("assert", "anjali", "lives_in", "edinburgh", True) in chat_sure(
        ("Maya", "my sis anjali moved to edinburgh last week"))[0]
    assert ("assert", "Maya's brother", "has_pet", "dog", True) in chat_sure(("Maya", "my bro got a dog"))[0]
    assert ("assert", "Maya", "lives_in", "leeds", True) in chat_sure(
        ("Maya", "bro that is crazy, i moved to leeds"))[0]


@pytest.mark.engine_free
def test_a_trip_told_again_within_three_weeks_is_the_same_trip():
    """A new user's (thirtieth session): "im in lisbon!!", then "back from lisbon" six days on, wrote two trips to
    Lisbon. A trip with no time of its own, told again within three weeks of the same trip written, is not proposed
    again; one held for review ("hola from lanzarote!!") does not count, and a later trip is a trip."""
    from datetime import timedelta

    extractor = RuleExtractor()

    def said(text, days):
        return [(f.predicate, f.object) for f in extractor.extract(
            text, reference_time=REF + timedelta(days=days), speaker="Maya", other="Sam") if f.sure]

    assert said("im in lisbon!! the tiles omg", 0) == [("traveled_to", "lisbon")]
    assert said("back from lisbon, so tired", 6) == []
    assert said("flew to lisbon for work again", 60) == [("traveled_to", "lisbon")]
    assert said("hola from porto!!!", 70) == []  # a greeting: held for review
    assert said("just got back from porto", 80) == [("traveled_to", "porto")]


@pytest.mark.engine_free
def test_the_thirtieth_session_s_rules_as_a_reviewer_attacked_them():
    """A reviewer's (thirtieth session): "a band of volunteers", "a band called the lemons" were written as bands
    joined; "I study Latin American history" did Latin; "I STARTED WORKING AT TESLA TODAY" read nothing once shouted
    sentences were read in lower case (a word no dictionary knows keeps a capital now, an acronym its capitals); a
    second trip said so ("second trip this month haha") was dropped as the first told again."""
    from datetime import timedelta

    for line in ("i joined a band of volunteers cleaning the beach", "i joined a band called the lemons"):
        assert ("assert", "Maya", "member_of", "band", True) not in chat_sure(("Maya", line))[0], line
    assert chat_sure(("Maya", "I study Latin American history"))[0] == []
    assert ("assert", "Maya", "works_at", "Tesla", True) in chat_sure(("Maya", "I STARTED WORKING AT TESLA TODAY"))[0]
    assert ("end", "Maya", "works_at", "Walmart", True) in chat_sure(("Maya", "LOL I QUIT MY JOB AT WALMART"))[0]
    extractor = RuleExtractor()

    def trips(text, days):
        return [f.object for f in extractor.extract(text, reference_time=REF + timedelta(days=days), speaker="Maya",
                                                    other="Sam") if f.predicate == "traveled_to" and f.sure]

    assert trips("just landed in rome!", 0) == ["rome"]
    assert trips("back from rome, so tired", 5) == []
    assert trips("just landed in rome! second trip this month haha", 20) == ["rome"]


@pytest.mark.engine_free
def test_a_correction_s_words_before_a_name_leave_it_the_subject():
    """A new user's (thirtieth session, over MCP): "Actually no, Tom works at Asda, I mixed it up." wrote nothing: a
    name after a comma is no subject unless only interjections come before it, and "no", "sorry", "oops", "wait"
    were none. (The fact is asserted; the store's gate does the rest: a new value of a one-value predicate.)"""
    assert ("assert", "Tom", "works_at", "Asda", True) in chat_sure(
        ("Maya", "Actually no, Tom works at Asda, I mixed it up."))[0]
    assert ("assert", "Tom", "lives_in", "Leeds", True) in chat_sure(("Maya", "sorry, Tom moved to Leeds"))[0]
    # a second reviewer's: capitalised, the words were read as names beside Tom ("Wait works_at Asda")
    for line in ("Wait, Tom works at Asda.", "Oops, Tom works at Asda.", "No, Tom works at Asda."):
        assert chat_sure(("Maya", line))[0] == [("assert", "Tom", "works_at", "Asda", True)], line
    assert chat_sure(("Maya", "Nope Tom works at Asda"))[0] == []  # no "Nope Tom"


@pytest.mark.engine_free
def test_the_tenth_new_users_sentences():
    """A physiotherapist's chat with her brother (a new user's, the thirty-second session): a pet taken in by its
    name with an emoji of its kind, a boss named by the relation alone, "retired guys" no retirement, a job's short
    name the one told in full."""
    assert chat_sure(("Maya", "We adopted Lola today!!! 🐕"))[-1] == [("assert", "Maya", "has_pet", "dog", True)]
    assert chat_sure(("Maya", "we adopted Maria 2 years ago"))[-1] == []  # no pet's emoji: a child, maybe
    assert chat_sure(("Maya", "should we adopt Lola? 🐕"))[-1] == []
    boss = RuleExtractor().extract("My boss is called Marta, she seems really nice", reference_time=REF,
                                   speaker="Maya", other="Sam")
    assert [(f.subject, f.predicate, f.object) for f in boss] == [("Marta", "boss_of", "Maya")]  # not also someone
    # named "Maya's boss" who is called Marta
    assert chat_sure(("Sam", "we won!"), ("Maya", "retired guys are the deadliest opponents"))[-1] == []
    assert chat_sure(("Maya", "I handed in my notice at Fisioterapia Delicias today"),
                     ("Maya", "Last day at Delicias today. They got me a cake"))[-1] == [
        ("end", "Maya", "works_at", "Fisioterapia Delicias", True)]
    assert chat_sure(("Maya", "I got the job at Clínica Arcadia, the sports one near Plaza Aragón"),
                     ("Maya", "First day at Arcadia done"))[-1] == [
        ("assert", "Maya", "works_at", "Clínica Arcadia", True)]  # no change of job to "Arcadia"
    assert chat_sure(("Maya", "I got the job at Clínica Arcadia"), ("Maya", "I got the job at Arcadia Sport"),
                     ("Maya", "First day at Arcadia done"))[-1] == [("assert", "Maya", "works_at", "Arcadia", True)]
    bought = chat_sure(("Maya", "I bought a car. 2019 Skoda Octavia estate, grey, 48k miles"))[-1]
    assert bought == [("assert", "Maya", "owns", "Skoda Octavia", True)]  # the model, as a thing bought is written
    assert chat_sure(("Maya", "I bought a car lol"))[-1] == [("assert", "Maya", "owns", "car", False)]
    assert chat_sure(("Maya", "I bought a car. 2019 was a good year"))[-1] == [("assert", "Maya", "owns", "car", False)]
    assert chat_sure(("Maya", "Said yes!! I'm officially head chef at Brasa from today 👨‍🍳"))[-1] == [
        ("assert", "Maya", "works_at", "Brasa", True)]  # today is begun, no plan
    assert chat_sure(("Maya", "I'm head chef at Brasa from tomorrow"))[-1] == []
    assert chat_sure(("Maya", "I'm working at Tesco tonight, covering for a mate"))[-1] == []  # a reviewer's: one night
    assert chat_sure(("Maya", "today I'm a nurse at St Mary's for one shift"))[-1] == []


@pytest.mark.engine_free
def test_the_eleventh_new_users_sentences():
    """A designer in Kraków and her friend, a nurse in Dublin, on Telegram (the thirty-second session)."""
    asked = RuleExtractor().extract("does she still think I'm your boyfriend", reference_time=REF, speaker="Maya",
                                    other="Sam")
    assert asked == []  # asked, with no question mark: no boyfriend of Sam's
    assert chat_sure(("Maya", "fun fact Tomasz actually moved back to Gdańsk last week. his mum told my friend"))[
        -1] == [("assert", "Tomasz", "lives_in", "Gdańsk", True)]
    assert chat_sure(("Maya", "officially a Phibsborough resident"))[-1] == [
        ("assert", "Maya", "lives_in", "Phibsborough", True)]
    assert chat_sure(("Maya", "are you a Leeds resident?"))[-1] == []
    assert chat_sure(("Sam", "wait you still work at St James's? I thought the Mater was closer"),
                     ("Maya", "it is closer but no, still St James's. im not leaving my ward"))[-1] == [
        ("assert", "Maya", "works_at", "St James's", True)]
    assert chat_sure(("Maya", "I GOT A CAT her name is Biscuit"))[-1] == [("assert", "Maya", "has_pet", "cat", True)]


@pytest.mark.engine_free
def test_his_or_her_relative_named_is_the_one_the_talk_is_about():
    """"how's Priya?" - "good! her husband Raj got a job": Raj is Priya's husband (an eleventh new user's "her husband
    Ronan", said of Aoife); not where "his" and "her" both are said, nor a relative left unnamed."""
    from datetime import timedelta

    def told(*lines: tuple[str, str]) -> list[tuple[str, str, str]]:
        extractor, previous, found = RuleExtractor(), None, []
        for n, (who, text) in enumerate(lines):
            found = [(f.subject, f.predicate, f.object or "") for f in extractor.extract(
                text, reference_time=REF + timedelta(minutes=n), speaker=who, other="Sam" if who == "Maya" else "Maya",
                previous=previous)]
            previous = Turn(speaker=who, text=text)
        return found

    assert ("Raj", "husband_of", "Priya") in told(("Sam", "how's Priya?"), ("Maya", "good! her husband Raj got a job"))
    assert told(("Sam", "how's Tom?"), ("Maya", "good, he says his sister Ana and her husband Raj are coming")) == []
    assert told(("Sam", "how's Priya?"), ("Maya", "good! her husband got a job")) == []


@pytest.mark.engine_free
def test_the_twelfth_new_users_sentences():
    """A chemistry teacher in Porto and her cousin, a ship's engineer in Gdańsk, on Messenger (the thirty-third
    session): what she said that was read as nothing, or dated wrong."""
    from datetime import datetime, timedelta

    from graphmem.core.times import UTC

    def dated(*lines: tuple[str, str]) -> list[tuple]:
        extractor, previous, found = RuleExtractor(), None, []
        for n, (who, text) in enumerate(lines):
            found = [(f.op, f.subject, f.predicate, f.object, f.valid_from, f.valid_to, f.sure) for f in
                     extractor.extract(text, reference_time=REF + timedelta(minutes=n), speaker=who,
                                       other="Sam" if who == "Maya" else "Maya", previous=previous)]
            previous = Turn(speaker=who, text=text)
        return found

    assert chat_sure(("Maya", "I told the coach I'm done with basketball. at least for this year"))[-1] == [
        ("end", "Maya", "does", "basketball", True)]
    for text in ("we're done with climbing for today", "I'm done with swimming at 6", "are you done with football?",
                 "done with pruning finally"):
        assert chat(("Maya", text))[-1] == [], text  # a day's, or asked, or a chore
    assert chat_sure(("Maya", "I started surf lessons!! at the escola de surf, Saturdays and Wednesdays"))[-1] == [
        ("assert", "Maya", "does", "surfing", True)]
    assert chat_sure(("Maya", "and i stopped the spanish classes"))[-1] == [("end", "Maya", "does", "spanish", True)]
    assert chat_sure(("Maya", "i have news too. i started horse riding 🐴 my friend keti has a stable"))[-1][0] == (
        "assert", "Maya", "does", "horse riding", True)  # (dev's: "riding" alone is as often a bike to work)
    assert chat_sure(("Maya", "I've been teaching chemistry at Garcia de Orta for 6 years now, I'm immune"))[-1] == [
        ("assert", "Maya", "works_at", "Garcia de Orta", True)]
    # a move told with no place: where the speaker greeted from this sitting, or the other asked after
    assert chat_sure(("Maya", "greetings from Mandeville 🌄"), ("Sam", "YOU MOVED! how is it??"),
                     ("Maya", "we moved last saturday. bye bye Kingston traffic"))[-1] == [
        ("assert", "Maya", "lives_in", "Mandeville", True)]
    assert chat_sure(("Sam", "how's the new flat in Gdynia?"), ("Maya", "moved in on the 1st! 3rd floor"))[-1] == [
        ("assert", "Maya", "lives_in", "Gdynia", True)]
    assert chat(("Sam", "how's the new flat in Gdynia?"), ("Maya", "I moved the sofa on the 1st lol"))[-1] == []
    assert chat_sure(("Maya", "also. I signed the contract!! a flat in Matosinhos, 2 rooms, 5 min from the beach 🌊"),
                     ("Sam", "when do you move?"), ("Maya", "1st of June. keys on the 29th"),
                     ("Maya", "moved!!!!! 📦📦📦"))[-1] == [("assert", "Maya", "lives_in", "Matosinhos", True)]
    assert chat(("Maya", "I signed the contract for my sister's flat in Leith"), ("Maya", "moved!!! 📦"))[-1] == []
    # REF is Friday 8 May 2026: "bought it last saturday", the 2nd
    found = dated(("Maya", "ok big news. I bought a car!!"), ("Sam", "noooo which one"),
                  ("Maya", "peugeot 208, 2019, grey, 68 000 km. bought it last saturday from a stand in Maia"))
    assert [(f[3], f[4]) for f in found] == [("peugeot 208", datetime(2026, 5, 2, tzinfo=UTC))]


@pytest.mark.engine_free
def test_an_attackers_moves_ends_jobs_and_cars_after_the_twelfth_new_user():
    """What the thirty-third session's readings wrote that was not said (an attacker's)."""
    assert chat(("Maya", "greetings from Lisbon! here for a conference"), ("Sam", "nice. settled in the new house?"),
                ("Maya", "yes! moved in last week"))[-1] == []  # a visit greeted from
    assert chat(("Maya", "hello from Lisbon airport ✈️ flight delayed again"), ("Sam", "how's the new place?"),
                ("Maya", "good! we moved in last saturday"))[-1] == []
    assert chat(("Maya", "greetings from Lisbon!"), ("Sam", "how's the new flat in Leeds?"),
                ("Maya", "love it! moved in last saturday"))[-1] == []  # two places: neither
    assert chat(("Sam", "you're in Rome!! how is it"),
                ("Maya", "amazing! shame we just moved in last week, the flat back home is chaos"))[-1] == []
    assert chat(("Sam", "how's the new flat in Leeds?"), ("Maya", "no!! that fell through. moved in last week "
                                                                 "somewhere else"))[-1] == []
    for text in ("I'm done with running, for today at least", "I'm done with running now, showering",
                 "I'm done with running!! ran 10k", "I'm done with basketball training"):
        assert chat(("Maya", text))[-1] == [], text
    for text in ("I teach maths at GCSE and A-level", "I teach english at KS3", "I teach history at Year 9"):
        assert chat(("Maya", text))[-1] == [], text
    for text in ("Toyota Vitz, silver, 2014. Bought it off a guy who'd had it since 2016",
                 "Toyota Vitz, silver, 2014. bought it with the bonus I got in january",
                 "Toyota Vitz, silver, 2014. bought it. it's been in the garage since monday"):
        [fact] = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
        assert (fact.object, fact.valid_from) == ("Toyota Vitz", None), text


@pytest.mark.engine_free
def test_a_job_got_and_named_only_by_answering_the_others_question():
    """"I GOT THE JOB" - "Bial??" - "Bial!!! they called me on monday. I start on the 1st of September" (the twelfth
    new user's; d16's "GOT THE JOB" - "ALSTOM??" - "alstom!! … start 12 april"): the job to begin is Bial's, written
    once begun; not a place asked of, nor a name said back with no job got."""
    said = chat(("Maya", "I GOT THE JOB 🧪🧪🧪"), ("Sam", "NO WAYYY. Bial??"),
                ("Maya", "Bial!!! they called me on monday. I start on the 1st of September"),
                ("Maya", "first day was monday. so calm, no bells"))
    assert said[2] == [] and said[3] == [("assert", "Maya", "works_at", "Bial")]
    assert chat(("Maya", "GOT THE JOB"), ("Sam", "ALSTOM??"), ("Maya", "alstom!! commissioning technician, start 12 "
                                                                      "april"), ("Maya", "I started monday"))[-1] == [
        ("assert", "Maya", "works_at", "Alstom")]
    assert chat(("Maya", "I got the job!!"), ("Sam", "Lisbon??"), ("Maya", "Lisbon!! we start the trip on friday"),
                ("Maya", "first day was monday"))[-1] == []
    assert chat(("Sam", "Bial??"), ("Maya", "Bial!!! I start on the 1st of September"),
                ("Maya", "first day was monday"))[-1] == []  # no job got: whose start, the words do not say
    assert chat(("Maya", "I GOT THE JOB"), ("Sam", "Bial??"), ("Maya", "Bial!!! I start on the 1st of September"),
                ("Maya", "anyway as I said, first 2 weeks at Bial are done. it's so calm"))[-1] == [
        ("assert", "Maya", "works_at", "Bial")]  # "as I said": her own words, no one's reported
    assert chat(("Maya", "she said her first 2 weeks at Zara are done"))[-1] == []


@pytest.mark.engine_free
def test_the_thirteenth_new_users_sentences():
    """A nurse in Osaka and her brother, a welder in Ulsan, on LINE (the thirty-third session)."""
    assert chat(("Sam", "Im a welder at Hyundai Heavy Industries in Ulsan"))[-1] == [
        ("assert", "Sam", "works_at", "Hyundai Heavy Industries")]  # "Im": I'm, not someone called Im
    assert chat(("Sam", "Im working at Hyundai now"))[-1] == [("assert", "Sam", "works_at", "Hyundai")]
    assert chat(("Sam", "we adopted a shiba inu last sunday"))[-1] == [("assert", "Sam", "has_pet", "shiba inu")]
    assert chat(("Sam", "I stopped going to boxing"))[-1] == [("end", "Sam", "does", "boxing")]
    assert chat(("Sam", "bought a car nang 🚗 Kia Morning 2021, silver. second hand"))[-1] == [
        ("assert", "Sam", "owns", "Kia Morning")]
    assert chat(("Sam", "I bought a bike 😍 my friend has a Honda Civic, grey"))[-1] == [
        ("assert", "Sam", "owns", "bike")]


@pytest.mark.engine_free
def test_an_attackers_jobs_said_back_people_called_im_and_breeds():
    """What the echo of a job, "Im", and the new breeds wrote that was not said (an attacker's)."""
    def job(said_back: str, asked: str | None = None, first: str = "I GOT THE JOB") -> list[tuple]:
        name = asked or said_back.split("!")[0]
        return chat(("Maya", first), ("Sam", f"{name}??"), ("Maya", said_back), ("Maya", "first day was good"))[-1]

    for said_back in ("Remote!! I start on monday", "Part time!! I start next week",
                      "Tomás!! he'll start in the same team, on monday", "Bial!! but I turned it down",
                      "Bial!! no, not Bial, I start at Novartis monday", "Bial!! do I start on monday? no idea"):
        assert job(said_back) == [], said_back
    assert job("Ikea!! I start on the bed frame tomorrow", first="I got the job done 💪") == []
    assert job("Google!! I start prepping tonight", first="I got the job interview!!!") == []
    assert chat(("Maya", "I GOT THE JOB"), ("Sam", "Bial??"), ("Maya", "Bial!!! I start on the 1st"),
                ("Maya", "so the first 3 days at Disneyland were over so fast"))[-1] == []
    for text in ("Im lives in Busan with her kids", "Im works at Samsung", "Ive works at Apple"):
        assert chat(("Maya", text))[-1][0][1] in ("Im", "Ive"), text  # someone called Im, as before
    for text in ("I have a Maltese friend", "I have Samoyed heritage", "I have shiba coin lol"):
        assert chat(("Maya", text))[-1] == [], text


@pytest.mark.engine_free
def test_the_fourteenth_new_users_sentences():
    """A pharmacist in Galway and her brother, a fisherman turned ferry deckhand on Inis Mór, from her phone's SMS
    backup (the thirty-fourth session)."""
    assert chat_sure(("Maya", "The abba. And the director. And Tuesday nights. I'm done, I'd rather swim"))[-1] == []
    # ("I'd" was her ex)
    assert chat_sure(("Sam", "I got a job as a deckhand with Aran Island Ferries"))[-1] == [
        ("assert", "Sam", "works_at", "Aran Island Ferries", True)]
    assert chat_sure(("Sam", "I got a job as a senior nurse at St James's"))[-1] == [
        ("assert", "Sam", "works_at", "St James's", True)]  # a job, not a senior at a school
    assert chat_sure(("Maya", "I'm chief pharmacist at UHG now"))[-1] == [("assert", "Maya", "works_at", "UHG", True)]
    assert chat_sure(("Sam", "I'm a deckhand with Aran Island Ferries"))[-1] == [
        ("assert", "Sam", "works_at", "Aran Island Ferries", True)]
    assert chat_sure(("Sam", "I live on Inis Mór"))[-1] == [("assert", "Sam", "lives_in", "Inis Mór", False)]
    for text in ("we live on Elm Street", "I lived on Main St for years", "I live on a boat"):
        assert chat_sure(("Sam", text))[-1] == [], text
    assert chat_sure(("Sam", "Róisín and me are engaged!!!"))[-1] == [("assert", "Sam", "dating", "Róisín", True)]
    assert chat_sure(("Sam", "she invited Tom and me to the wedding"))[-1] == []
    assert chat_sure(("Maya", "Bought a car. Toyota Yaris hybrid, 2022, silver."))[-1] == [
        ("assert", "Maya", "owns", "Toyota Yaris", True)]
    assert chat_sure(("Sam", "I bought a quad"))[-1] == []  # "quad" was taken out again: "a quad shot latte", "a quad
    # core laptop" (an attacker's)
    assert chat_sure(("Maya", "My car was written off"))[-1] == [("end", "Maya", "owns", "car", False)]
    assert chat_sure(("Maya", "my car was nearly written off"))[-1] == [("assert", "Maya", "owns", "car", False)]
    assert chat_sure(("Maya", "is my car written off?"))[-1] == []
    # a sentence that is only a role and where: the speaker's, or the one the turn before asked about (h62)
    assert chat_sure(("Sam", "I got the job on the ferry!! deckhand with Aran Island Ferries"))[-1] == [
        ("assert", "Sam", "works_at", "Aran Island Ferries", True)]
    assert chat_sure(("Sam", "what does elvin do again?"), ("Maya", "engineer at Azersu. the water company"))[-1] == [
        ("assert", "Elvin", "works_at", "Azersu", True)]
    assert chat_sure(("Sam", "what does he do?"), ("Maya", "engineer at Azersu"))[-1] == []
    # a second attacker's: someone else's, a job not got, a wish, a past job, a person as the employer
    for before, text in ((None, "His brother? deckhand with Aran Island Ferries"),
                         (None, "Interview tomorrow!! Deckhand with Aran Island Ferries"),
                         (None, "I got the job!! deckhand with Aran Island Ferries but turned it down"),
                         ("what does elvin's wife do?", "nurse at UHG"),
                         ("what does elvin want to do?", "pilot with Aer Lingus"),
                         ("what did elvin do before he retired?", "nurse at UHG"), (None, "I'm a welder with Sam"),
                         (None, "I'm a carer for Mrs Byrne"), (None, "They'd moved to Leeds"),
                         (None, "Mam and me moved to Leeds")):
        lines = ([("Sam", before)] if before else []) + [("Maya", text)]
        assert [f for f in chat_sure(*lines)[-1] if f[2] in ("works_at", "lives_in")] == [], text
    for text in ("nurse at the clinic said I'm fine", "a nurse at St James's told me to rest",
                 "Nurse at St James's here, quick question"):
        assert chat_sure(("Maya", text))[-1] == [], text
    # "guess who …": the speaker's news, told as a riddle, where the message says it is theirs (h8's "Guess who quit
    # the book club 🙋‍♀️"); as often gossip ("guess who moved to Leeds... Tom!": a second attacker's)
    assert chat_sure(("Maya", "Guess who quit the book club 🙋‍♀️"))[-1] == [
        ("end", "Maya", "member_of", "book club", True)]
    assert chat_sure(("Maya", "Guess who joined a choir. Me!"))[-1] == [("assert", "Maya", "member_of", "choir", True)]
    for text in ("Guess who joined a choir", "guess who I met at the party", "guess who got engaged?? Tom and Ana!!",
                 "guess who moved to Leeds... Tom!", "guess who quit the book club. hint: not me",
                 "guess who's dating Tom"):
        assert chat_sure(("Maya", text))[-1] == [], text


@pytest.mark.engine_free
def test_a_parent_or_grandparent_called_so_to_their_face():
    """"Hi Mam it's Darragh" (to his mother, a new user's backup): the other is the speaker's mother, proposed for
    review (written, aliases dev was +2 right, b4's "Morning, Gran!", b37's "love you mum", and 1 wrong, b16's "hi mama
    👋🏾", said through her father; a second attacker's jokes and partners made it wait)."""
    def told(text: str) -> list[tuple]:
        return [(f.subject, f.predicate, f.object, f.sure) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other="Sam") if f.predicate.endswith("_of")]

    assert told("Hi Mam it's Darragh") == [("Sam", "mother_of", "Maya", False)]  # for review: said in jest to anyone
    assert told("love you mum xx") == [("Sam", "mother_of", "Maya", False)]
    assert told("Thanks, Gran. Anyway, how are you?") == [("Sam", "grandmother_of", "Maya", False)]
    for text in ("thanks mum and dad", "hi mum's friend came over", "mama mia what a day", "proud of u sis",
                 "happy birthday amma stína!!!", "named after his taid! sorry, grandad.", "vanna, vania, mom, mama",
                 # a second attacker's: in jest, to a partner, someone else's words
                 "thanks mum 🙄", "Thanks Dad! 😂", "thanks daddy 😘", "Hey mama 😘", "thanks mum (jk)",
                 "love you mum xx (said Tom)", "Thanks Dad, love Tom", "Thanks mam, I mean Sam"):
        assert told(text) == [], text
    relayed = RuleExtractor()
    relayed.extract("what should I text your mam?", reference_time=REF, speaker="Sam", other="Maya")
    assert [f for f in relayed.extract("Hi Mam it's Darragh", reference_time=REF, speaker="Maya", other="Sam",
                                       previous=Turn(speaker="Sam", text="what should I text your mam?"))
            if f.predicate.endswith("_of")] == []
    assert [f for f in RuleExtractor().extract("love you mum", reference_time=REF, speaker="Maya")
            if f.predicate.endswith("_of")] == []  # no one known to be spoken to


@pytest.mark.engine_free
def test_a_pet_introduced_by_its_name_and_emoji_waits_for_review():
    """"meet Bran 🐶 hes a collie" (a new user's backup; h15's "meet the new family member: Pisco 🐶", h25's "meet paxta
    🐱"): a pet of the emoji's kind, for review (five more on dev were told before, as "we got a puppy")."""
    assert chat_sure(("Maya", "meet Bran 🐶 hes a collie, 10 weeks"))[-1] == [
        ("assert", "Maya", "has_pet", "dog", False)]
    assert chat_sure(("Maya", "meet the new family member: Pisco 🐶 a quiltro"))[-1] == [
        ("assert", "Maya", "has_pet", "dog", False)]
    for text in ("meet Tom at the park 🐶", "say hi to bingo for me 🐕", "meet me 🐶", "meet Bran"):
        assert chat_sure(("Maya", text))[-1] == [], text


@pytest.mark.engine_free
def test_a_name_whose_words_open_with_a_capital_beyond_ascii_is_read_whole():
    """"Tom's a teacher at Scoil Éinne" was Scoil (a second attacker's, in passing); d13's "Þingvellir" was no place."""
    assert chat_sure(("Maya", "Tom's a teacher at Scoil Éinne"))[-1] == [("assert", "Tom", "works_at", "Scoil Éinne",
                                                                          True)]
    assert chat_sure(("Maya", "I moved to Łódź last week"))[-1][0][3] == "Łódź"
    assert chat_sure(("Maya", "I started at Ørsted on monday"))[-1][0][3] == "Ørsted"


@pytest.mark.engine_free
def test_a_guess_who_answered_by_any_me_is_not_the_speakers():
    """Reading the change again: "ME" and "me." were matched in any case and anywhere, so "Tom told me" made a "guess
    who" the speaker's own news; "Me!" must stand alone, "ME" be written in capitals."""
    for text in ("guess who moved to Leeds, Tom told me", "guess who moved to Leeds. Tom told me."):
        assert chat_sure(("Maya", text))[-1] == [], text
    for text in ("Guess who joined a choir. Me!", "guess who joined a choir. me", "guess who joined a choir (me)",
                 "guess who joined a choir. ME"):
        assert chat_sure(("Maya", text))[-1] == [("assert", "Maya", "member_of", "choir", True)], text


@pytest.mark.engine_free
def test_the_fifteenth_new_users_sentences():
    """A physiotherapist in Lisbon and her cousin, a surf instructor gone to Taghazout, on Instagram (the thirty-fifth
    session): a job to come named with a word kept in lower case, begun "at the hospital"; the one spoken to teased as a
    relative; a language no list held."""
    assert chat(("Maya", "I GOT ITTT"), ("Maya", "I got the job!!"), ("Maya", "I start at Hospital da Luz on June 1st"),
                ("Maya", "last week at Fisio Alvalade 🥲"), ("Maya", "first day at the hospital done"))[-1] == [
        ("assert", "Maya", "works_at", "Hospital da Luz")]
    assert chat(("Maya", "I start at RBC on the 3rd"), ("Maya", "first week at work done!"))[-1] == [
        ("assert", "Maya", "works_at", "RBC")]
    for elsewhere in ("first day at the gym done", "first day at the beach done", "first week at the new flat done"):
        assert chat(("Maya", "I start at Hospital da Luz on June 1st"), ("Maya", elsewhere))[-1] == [], elsewhere
    def relatives(text: str) -> list[tuple[str, str, str | None]]:
        return [(f.subject, f.predicate, f.object) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Sam", other="Maya") if f.predicate.endswith("_of")]

    assert relatives("who are you and what did you do with my cousin who quit guitar after 2 lessons") == []
    assert relatives("what have you done with my sister") == []
    assert relatives("my cousin quit guitar") == [("Sam's cousin", "cousin_of", "Sam")]
    assert relatives("what'd you do with my cousin") == []
    # a reviewer's: only "you", and only the relative alone
    assert relatives("what did they do with my sister Anna after the crash") == [("Anna", "sister_of", "Sam")]
    assert relatives("what did you do with my sister Anna's keys") == [("Anna", "sister_of", "Sam")]
    for lines in [("I start at Google do I tell Mark", "Google"), ("I start at Nike van Monday", "Nike"),
                  ("I start at Accenture of ALL", "Accenture"), ("I start at Bank of Ireland on Monday",
                                                               "Bank of Ireland")]:
        assert chat(("Maya", lines[0]), ("Maya", "first day done!!"))[-1] == [
            ("assert", "Maya", "works_at", lines[1])], lines
    assert chat(("Maya", "I start at Hospital da Luz on June 1st"),
                ("Maya", "first week at the new place done, unpacking finally over"))[-1] == []
    assert chat(("Sam", "started learning darija!! online classes"), ("Sam", "I quit the darija classes")) == [
        [("assert", "Sam", "does", "darija")], [("end", "Sam", "does", "darija")]]


@pytest.mark.engine_free
def test_moving_in_with_someone_somewhere_is_a_home_there():
    """d6: "She moved back in with her sister in Oakville last Sunday." was no home (read on dev, not from a user)."""
    assert chat(("Maya", "Jess moved back in with her sister in Oakville last Sunday."))[-1] == [
        ("assert", "Jess", "lives_in", "Oakville")]
    assert chat(("Maya", "I moved in with Tom in Leeds"))[-1] == [("assert", "Maya", "lives_in", "Leeds")]
    for text in ("I moved in with my sister in March", "Tom moved in with his girlfriend in the summer",
                 "moving in with my parents in a month", "I moved in with Mark in Jan", "moved in with Mark in Sept",
                 "I moved in with Mark in Lockdown 2020", "we moved in with Tom in Halls", "I moved in with Mark in "
                 "Year 2"):
        assert [f for f in chat(("Maya", text))[-1] if f[2] == "lives_in"] == [], text


# --- the thirty-seventh session of 2026-12-07: dev misses ---------------------------------------

@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "place"), [
    ("moved on the 1st! Zaisan, 9th floor, balcony facing the Bogd Khan mountain.", "Zaisan"),  # h28
    ("we moved last week! Brighton. near the sea, love it", "Brighton"),
    ("Leeds. moved in last month, its tiny but its ours", "Leeds"),
])
def test_a_move_told_with_its_place_in_a_sentence_of_its_own(text, place):
    """A move told, and where to in a fragment beside it: the home, from when the move was."""
    assert ("assert", "Maya", "lives_in", place, True) in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "moved in yesterday. Nice.",  # a word, though a town too
    "moved in yesterday. Jamie, you free sunday?",  # a name said to someone
    "we moved last saturday. to a hotel for now",
    "moved in yesterday! Sorry, been mad busy",
    "we moved last week. Leeds, for work, until june",  # a stay
    "Brighton. we moved last week? no idea",  # asked
    "we moved last week. Brighton. Leeds, near the station",  # two places
    # a reviewer's: a word, a brand, a feast, someone's, a visit
    "we moved yesterday. Lmao.", "moved in yesterday! Yay.", "we moved last month. Brexit.",
    "moved in on Friday! Netflix. pizza. bed", "moved in yesterday. Aldi. near the flat",
    "we moved last week. to Sam's.",
    "we moved last week. to Paris. for the weekend lol", "moved in yesterday. Ramadan.",
])
def test_a_sentence_beside_a_move_that_names_no_home(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "lives_in"], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("We did a day trip to Toledo too. Saw the cathedral.", [("Maya", "traveled_to", "Toledo")]),  # h14
    ("we also did a day trip to Sintra", [("Maya", "traveled_to", "Sintra")]),
    ("we did a lot in Porto", []),
    ("I did two weeks in ICU", []),  # a reviewer's: a stay counted with "did" is as often a ward or a school year
])
def test_a_trip_told_with_did(text, expected):
    assert written(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("went to Lisbon with Ana last week", [("Maya", "traveled_to", "Lisbon"), ("Ana", "traveled_to", "Lisbon")]),
    ("flew to Porto with Ryanair on Monday", [("Maya", "traveled_to", "Porto")]),  # no one, a day
    ("went to Berlin with Work last month", [("Maya", "traveled_to", "Berlin")]),  # a word
    ("went to Lisbon with Ana's brother last week", [("Maya", "traveled_to", "Lisbon")]),  # someone unnamed
    ("went to Lisbon with Ana on Monday", [("Maya", "traveled_to", "Lisbon"), ("Ana", "traveled_to", "Lisbon")]),
    ("went to Lisbon with Tom in mind", [("Maya", "traveled_to", "Lisbon")]),  # a reviewer's
    ("flew to Rome with Ryanair", [("Maya", "traveled_to", "Rome")]),  # a trip's: a given name only
])
def test_who_went_with_the_speaker_went_too(text, expected):
    """A trip's companions, named after "with", as an event's were ("went to the Games with Isa")."""
    assert written(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("went to the concert with Mark on Monday", ["Maya", "Mark"]),  # the day cut off, the name kept
    ("went to the gig with Grace", ["Maya", "Grace"]),  # a name that is a word of English too
    ("went to the concert with Work", ["Maya"]), ("went to the concert with Monday", ["Maya"]),
])
def test_who_went_to_an_event_with_the_speaker_is_a_name(text, expected):
    assert [f[1] for f in chat(("Sam", "hi"), ("Maya", text))[1] if f[2] == "attended"] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("(sorry my news is happier) Madina's wedding was saturday!!",
     [("assert", "Maya", "attended", "Madina's wedding")]),
    ("kev's wedding was yesterday and i'm still recovering", [("assert", "Maya", "attended", "kev's wedding")]),  # d10
    ("Tom's party was on saturday, so good", [("assert", "Maya", "attended", "Tom's party")]),
    ("Madina's wedding was saturday but I couldn't go", []),
    ("it's wedding was saturday", []),
    ("Madina's wedding was saturday?", []),
])
def test_an_event_of_someones_told_by_the_day_it_was(text, expected):
    """h51, d10: someone's event told by when it was, its owner's name in small letters or after a parenthesis."""
    assert [f for f in chat(("Sam", "hey"), ("Maya", text))[1] if f[2] == "attended"] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["😂 retired undefeated", "she walks with the retired ladies of the east end.",
                                  "he retired hurt in the second over"])
def test_retired_said_of_no_job(text):
    """A new user's: "retired undefeated" (of quitting five-a-side) and "the retired ladies" each ended a job at a
    word."""
    assert not [f for f in chat(("Sam", "hi"), ("Maya", text))[1] if f[2] == "works_at"], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("and I started something new. roller skating", [("Maya", "does", "roller skating")]),  # h54
    ("And I have a new hobby. Woodcarving. My neighbour carves masks", [("Maya", "does", "Woodcarving")]),  # h56
    ("i started something too. saz lessons. dedo salko plays every afternoon", [("Maya", "does", "saz")]),  # h73
    ("oh and i started something new. forró classes! Duda takes me", [("Maya", "does", "forró")]),  # h31
    ("I also started a class! Korean, at the institute, tuesday and thursday evenings",
     [("Maya", "does", "Korean")]),  # h28
    ("I started something too. don't laugh", []),
    ("i'm doing something new too. sos cagarro", []),  # no list knows it
    ("she started something new. pottery", []),  # hers
    ("maybe. kuba says try something new. climbing, he's obsessed", []),  # advice
    ("I have a class. pottery at 5", []),  # a lesson today
])
def test_something_new_named_in_the_words_after(text, expected):
    """Dev's misses: news of a pastime begun told first ("I started something new."), what it is a fragment after."""
    assert written(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("i started luxembourgish lessons! at the language institute", [("Maya", "does", "luxembourgish")]),  # h70
    ("ok my news. i started kaqchikel classes", [("Maya", "does", "kaqchikel")]),  # h71
    ("worse. I'm taking lyra lessons", [("Maya", "does", "lyra")]),  # h28
    ("I started evening classes", []), ("i started a barista course!", []),  # when, not what; a course studied
    ("I joined a computer class at the library", []),  # a word of English: as often a group joined
    ("I signed up for saturday lessons", []), ("I signed up for prenatal classes", []),  # a reviewer's: when, or how
    ("I signed up for refresher lessons", []), ("I signed up for toddler classes", []),
    ("They've a lathe so I'm learning woodturning. Made a bad bowl", []),  # h80: an -ing word alone is not read (a
    # reviewer's "learning breastfeeding", "learning pricing at work")
])
def test_lessons_of_what_no_list_knows(text, expected):
    """Lessons named by one word no list of activities knows ("kaqchikel classes"), not by when or how they are."""
    assert [f for f in written(text) if f[1] == "does"] == expected


@pytest.mark.engine_free
def test_a_pastime_told_before_ends_by_its_name():
    """Dev's misses: a pastime or group the chat told before, ended by "done with", "stopped", "no more" or said
    over by its name; not another thing that holds its word ("the choir concert is over")."""
    said = chat(("Maya", "i started janggu lessons"), ("Maya", "i quit janggu btw"),
                ("Maya", "i started guitar lessons"), ("Maya", "nah. i'm done with the guitar to be honest"),
                ("Maya", "I started the alphorn lessons"), ("Maya", "ok. alphorn is finished."),
                ("Maya", "I joined the choir"), ("Maya", "the choir concert is over"),
                ("Maya", "i said goodbye to the choir. 12 years"),
                ("Maya", "i started freediving"), ("Maya", "ok sad news. no more freediving for me 😔"),
                ("Maya", "I started bokator lessons"), ("Maya", "i stopped bokator. officially"))
    ends = [f for line in said for f in line if f[0] == "end"]
    assert ends == [("end", "Maya", "does", "janggu"), ("end", "Maya", "does", "guitar"),
                    ("end", "Maya", "does", "alphorn"), ("end", "Maya", "member_of", "choir"),
                    ("end", "Maya", "does", "freediving"), ("end", "Maya", "does", "bokator")]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["is the alphorn finished?", "maybe the alphorn is finished", "the alphorn isn't done",
                                  "I'm not done with the alphorn", "if I stopped the alphorn",
                                  "done with alphorn practice, heading home now", "I'm done with alphorn for the week",
                                  "no more alphorn on Tuesdays, it's moved", "no more alphorn for Tom lol",
                                  "I stopped at alphorn on the way home", "the alphorn is finished! polished it today",
                                  "alphorn is over for the summer", "I stop alphorn after this term"])
def test_a_pastime_not_said_over_goes_on(text):
    """Not read as an end (a reviewer's): a question, a hedge, a denial, one sitting, a break, someone else's, a
    place, a thing made, a plan."""
    said = chat(("Maya", "I started the alphorn lessons"), ("Maya", text))
    assert not [f for f in said[1] if f[0] == "end"], text


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("I joined the Asociacion de Comerciantes del Cerro Alegre",
     [("Maya", "member_of", "Asociacion de Comerciantes del Cerro Alegre")]),  # a new user's: was a job, for review
    ("i joined the asociacion!", [("Maya", "member_of", "asociacion")]),  # a new user's: nothing
    ("i joined the asociacion de comerciantes yesterday", [("Maya", "member_of", "asociacion de comerciantes")]),
    ("I joined the Association of Bakers", [("Maya", "member_of", "Association of Bakers")]),  # was "Association"
])
def test_a_group_is_named_after_its_noun(text, expected):
    assert written(text) == expected
    assert proposed("I joined a choir of fifty") == [("Maya", "member_of", "choir")]  # "of" and a small word: no name


@pytest.mark.engine_free
@pytest.mark.parametrize(("asked", "said", "expected"), [
    ("tell me about Ewan!!", "...we're seeing each other. properly. since about two weeks ago", ["Ewan"]),  # d1
    ("are you and leah a thing?", "ok ok we're kinda seeing each other. like 3 weeks now", ["leah"]),  # d10
    ("wait who is Linas", "ok fine. we're together. he's my boyfriend.", ["Linas"]),  # h39
    ("and??? Linas???", "he's my boyfriend now", ["Linas"]),
    ("how's Theo", "we're not together anymore", []), ("how's Theo", "we're together at the beach lol", []),
    ("how's Jake?", "ok. we're together now, waiting for the doctor", []),  # a reviewer's: one place, not a couple
    ("how's Jake?", "we are together every day anyway", []), ("how's Aino?", "we are together 3 weeks now", ["Aino"]),
    ("BRO???", "we're seeing each other", []),  # a shout, no one asked of
    ("tell me about Ewan!!", "we are seeing each other. i think", []),  # hedged
    ("tell me about Ewan!!", "are we dating?", []),
])
def test_a_couple_told_of_the_one_the_other_asked_about(asked, said, expected):
    """Dev's misses: "we're seeing each other" with the partner named only in the other's question before."""
    found = chat(("Sam", "hi"), ("Sam", asked), ("Maya", said))[2]
    assert [f[3] for f in found if f[2] == "dating"] == expected


@pytest.mark.engine_free
def test_courting_is_dating():
    """h16: "Folake and I are courting. Properly." (not "when we were courting": no one named)."""
    assert written("Folake and I are courting. Properly.") == [("Maya", "dating", "Folake")]
    assert written("Grandpa played the banjo when we were courting, very badly.") == []
    assert written("Tom is courting Amazon for a job") == written("we're courting Sequoia for the seed round") == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("busy. I finally bought a new ute btw. the old hilux died", [("Maya", "owns", "ute")]),  # h22
    ("and I got myself an electric bike", [("Maya", "owns", "electric bike")]),  # h9
    ("got myself a coffee", []), ("I have a pickup at 5 from the school", []),
])
def test_things_got_for_oneself_and_utes(text, expected):
    """Dev's misses, proposed for review as a kind's word alone is: a ute, a thing got for oneself."""
    assert [f for f in proposed(text) if f[1] == "owns"] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "place"), [
    ("and i'm back from hakuba!! last weekend, snowboarding with haruka", "hakuba"),  # d18
    ("mia and i went to daylesford last weekend", "daylesford"),  # d8
    ("hello from home. we got back from piran on thursday", "piran"),  # h35
    ("back from são miguel!", "são miguel"),  # h63
    # a reviewer's: the capitals a phone writes by itself, and a word of chat after the place
    ("We just got back from svalbard", "svalbard"), ("Went to hakuba :D", "hakuba"),
    ("went to hakuba w jess", "hakuba"), ("back from svalbard tmrw lol", "svalbard"),
])
def test_a_trip_to_a_place_typed_in_lower_case_is_proposed(text, place):
    """The thirty-ninth session: a place no list knows, typed in lower case after a trip's words, was no fact; it is
    proposed for review, as after "moved to" (it may be a shop, a class or someone)."""
    assert ("assert", "Maya", "traveled_to", place, False) in chat_sure(("Maya", text))[0]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    "just back from futsal. we lost 9-2", "went to lidl for milk", "the bandura went back to marta",
    "we went to piazza della loggia for the countdown", "greetings from bjelave 🏠", "went to zumba last night",
    "back from japanese. my head hurts", "going to dev's mates house", "went to ur mums",
    # a reviewer's attack: chains, routine places, holidays, faith, food, apps, someone's home without its apostrophe,
    # a street, a name before its noun, someone there, words for home in other languages, a writer of capitals
    "went to tescos", "went to greggs", "went to spoons after", "back from uni", "back from physio", "back from xmas",
    "went to jummah", "went for yum cha", "went to kevs", "went to nonnas", "went to carnaby st",
    "went to quran school",
    "went to trivia night", "back from muay thai", "went to ghar", "we went to baka in trogir", "went to see priya",
    "I went to vinitaly last week, in verona, with the school", "We went to daylesford with Mia",
])
def test_words_after_a_trip_typed_in_lower_case_that_are_no_place(text):
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "traveled_to"], text


@pytest.mark.engine_free
@pytest.mark.parametrize("text", ["i live in trackies", "i basically live in spoons now", "drove down from uni",
                                  "i live in crocs in summer"])
def test_a_home_typed_in_lower_case_needs_a_home_s_word(text):
    """A place typed in lower case is a home only after a home's word ("our flat in woodlands"): "i live in trackies"
    is what one wears (a reviewer's)."""
    assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "lives_in"], text
    assert ("assert", "Maya", "lives_in", "woodlands", False) in chat_sure(("Maya", "our flat in woodlands is tiny"))[0]


@pytest.mark.engine_free
def test_whom_one_is_seeing_named_in_a_later_message_and_a_couple_made_official():
    """A twenty-second new user's: "I'm seeing someone", "WHO", "his name is Hugo. he's an architect" named no one
    (the name in a message of its own, after the other's turn), and "Hugo and I are official 🥰" was no couple (an
    emoji after "official"). Not a name given five messages on, nor someone else's ("her name is Dave's mum")."""
    said = chat_sure(("Maya", "I'm seeing someone"), ("Sam", "WHO"), ("Maya", "his name is Hugo. he's an architect"))
    assert ("assert", "Maya", "dating", "Hugo", True) in said[2]
    assert ("assert", "Maya", "dating", "Hugo", True) in chat_sure(("Maya", "Hugo and I are official 🥰"))[0]
    later = chat_sure(("Maya", "I'm seeing someone"), ("Sam", "WHO"), ("Maya", "later"), ("Sam", "?"),
                      ("Maya", "work"), ("Sam", "!!"), ("Maya", "ok"), ("Maya", "his name is Hugo"))
    assert not [f for f in later[-1] if f[2] == "dating"]
    assert not [f for f in chat_sure(("Maya", "I'm seeing someone"), ("Maya", "his name is Hugo"))[0]
                if f[2] == "dating"]  # (nothing named in the first message itself)


@pytest.mark.engine_free
@pytest.mark.parametrize("lines", [
    (("Maya", "my sister is dating someone new"), ("Sam", "who?"), ("Maya", "his name is Rui")),
    (("Maya", "I'm not seeing someone"), ("Sam", "ok"), ("Maya", "his name is Rui")),
])
def test_whom_someone_else_or_no_one_is_seeing_is_no_one_the_speaker_dates(lines):
    """A reviewer's attack on the carry-over: another's partner, a negation."""
    assert not [f for f in chat_sure(*lines)[-1] if f[2] == "dating"]


@pytest.mark.engine_free
def test_the_fortieth_sessions_dev_misses_are_not_read():
    """From h87 and h88 (moved to dev): coming home from a place for a while is from where one lives ("Leilani came
    home from Oregon for a week"), an answer about someone else to "how was the conference?" tells of no one's being
    there ("she came. 4 days."), "my lab report" holds no dog, a shop written with its capital is no trip ("went to
    Costco", "went to argos for a kettle"), and a group joined and named two sentences on waits for review ("a running
    group. … the Coloane Trail Crew")."""
    for text in ("Leilani came home from Oregon for a week!!", "lupe's flying home from denver for xmas so full house",
                 "then I went to Costco to buy her a microwave", "went to argos for a kettle"):
        assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "traveled_to"], text
    assert ("assert", "Maya", "traveled_to", "Paris", True) in chat_sure(
        ("Maya", "I came home from Paris yesterday"))[0]
    asked = chat_sure(("Sam", "how was the library conference????"), ("Maya", "she came. 4 days. I showed her around"))
    assert not [f for f in asked[1] if f[2] == "attended"]
    assert ("assert", "Maya", "attended", "conference", False) in chat_sure(  # (by its kind alone: for review)
        ("Sam", "how was the conference?"), ("Maya", "so good, learnt loads"))[1]
    assert not [f for f in chat_sure(("Maya", "you said it about my lab report in form 5"))[0] if f[2] == "has_pet"]
    joined = chat_sure(("Maya", "also I joined a running group. trail running, in the hills. the Coloane Trail "
                                "Crew, mostly expats"))[0]
    assert ("assert", "Maya", "member_of", "running group", False) in joined


@pytest.mark.engine_free
def test_a_sister_said_by_her_word_after_one_was_named_is_her_for_review():
    """A twenty-fourth new user's: "my sister Niamh lives in York", then "wait actually my sister lives in Leeds, not
    York" gave nothing (she may have another sister), and the correction was lost: it is Niamh now, for review. With
    two sisters named, still no one; "my mum" after "my mum Carmen" is Carmen, sure."""
    said = chat_sure(("Maya", "my sister Niamh lives in York"), ("Sam", "noted!"),
                     ("Maya", "wait actually my sister lives in Leeds, not York."))
    assert ("assert", "Niamh", "lives_in", "Leeds", False) in said[2]
    two = chat_sure(("Maya", "my sister Niamh lives in York"), ("Maya", "my sister Orla is in Cork"),
                    ("Maya", "my sister lives in Leeds now"))
    assert not [f for f in two[2] if f[2] == "lives_in"]
    assert ("assert", "Carmen", "lives_in", "Vigo", True) in chat_sure(("Maya", "my mum Carmen is great"),
                                                                       ("Maya", "my mum moved to Vigo"))[1]


@pytest.mark.engine_free
def test_a_reviewers_attack_on_the_fortieth_sessions_readings():
    """An answer about someone else and oneself is still one's being there ("how was Lisbon?" - "he and I had a blast");
    "home from X for lunch", "for a week now" are trips; a shop with a town after it names the town's trip for review;
    a sister said with another word than the named one's ("my little sister" after "my big sister Niamh"), or after
    "I have two sisters", and a boss or a partner after one was named, are no one named."""
    assert ("assert", "Maya", "traveled_to", "Lisbon", True) in chat_sure(("Sam", "how was Lisbon?"),
                                                                          ("Maya", "he and I had a blast"))[1]
    assert [f for f in chat_sure(("Sam", "how was the wedding?"),
                                 ("Maya", "she looked stunning, we danced all night"))[1] if f[2] == "attended"]
    for text in ("we got home from Cornwall for lunch on Saturday",
                 "got home from Greece for a week now, still tanned"):
        assert [f for f in chat_sure(("Maya", text))[0] if f[2] == "traveled_to"], text
    assert [f for f in chat_sure(("Maya", "I have a bengal Tiger who sleeps all day"))[0] if f[2] == "has_pet"]
    for said in ((("Maya", "my big sister Niamh lives in York"), ("Maya", "my little sister lives in Leeds")),
                 (("Maya", "I have two sisters. my sister Niamh is in York"), ("Maya", "my sister works at Tesco")),
                 (("Maya", "my sisters are both nurses. my sister Niamh is in York"),
                  ("Maya", "my sister works at Tesco")),
                 (("Maya", "my boss Karen is nice"), ("Maya", "my boss quit on Friday"))):
        assert not [f for f in chat_sure(*said)[1] if f[1] in ("Niamh", "Karen")], said


@pytest.mark.engine_free
def test_a_move_planned_then_an_arrival_in_a_groups_chat_is_the_move_for_review():
    """A twenty-fifth new user's family group: "We're moving to Brisbane end of June", then "Landed in Brisbane!" was
    believed a day's trip (the plan was read only between two people); "We moved into the Titahi Bay house yesterday"
    was nothing (a place's word, "Bay", after its own name)."""
    from datetime import timedelta

    extractor, found = RuleExtractor(), []
    for n, (who, text) in enumerate((("Tama", "We're moving to Brisbane end of June"), ("Ruth", "wow"),
                                     ("Tama", "Landed in Brisbane! 27 degrees in winter whaaat"))):
        found.append([(f.op, f.subject, f.predicate, f.object, f.sure) for f in extractor.extract(
            text, reference_time=REF + timedelta(days=n), speaker=who)])
    assert ("assert", "Tama", "lives_in", "Brisbane", False) in found[2]
    assert ("assert", "Tama", "traveled_to", "Brisbane", False) in found[2]
    assert ("assert", "Maya", "lives_in", "Titahi Bay", True) in chat_sure(
        ("Maya", "We moved into the Titahi Bay house yesterday"))[0]
    assert not [f for f in chat_sure(("Maya", "we moved into the Big Bay house"))[0] if f[2] == "lives_in"]


@pytest.mark.engine_free
def test_a_pastime_someone_is_teaching_the_speaker_is_theirs():
    """Dev's misses (h28, h38, h54, h64): "rui is teaching me to surf", "she's teaching me to dive with a tank",
    "Edwin is teaching me to kayak" (surfing, diving, kayaking); not a thing taught once ("taught me to make waakye"),
    nor asked for ("can you teach me to swim?")."""
    for text, pastime in (("rui is teaching me to surf", "surfing"),
                          ("she's teaching me to dive with a tank", "diving"),
                          ("also Edwin is teaching me to kayak. on sundays", "kayaking")):
        assert ("assert", "Maya", "does", pastime) in [f[:4] for f in chat_sure(("Maya", text))[0]], text
    for text in ("his mum taught me to make waakye", "can you teach me to swim?", "zura is teaching me to make chacha"):
        assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "does"], text


@pytest.mark.engine_free
def test_a_thing_learnt_or_played_that_no_list_knows_waits_for_review():
    """Dev's misses (h9, h80, h82, h85): "other news, I've been playing the tin whistle", "so I'm learning
    woodturning", "I'm learning the lesiba" named no pastime a list knows, and were left; they wait for review now
    (half of such things were no pastime on first reads), not an app ("I'm learning whatsapp") nor a carnival band's
    "playing mas"."""
    for text, what in (("other news, I've been playing the tin whistle", "tin whistle"),
                       ("They've a lathe so I'm learning woodturning. Made a very bad bowl", "woodturning"),
                       ("also something else new: I'm learning the lesiba", "lesiba")):
        assert ("assert", "Maya", "does", what, False) in chat_sure(("Maya", text))[0], text
    for text in ("I'm learning whatsapp, the children set it up", "I've registered in a band. I'm playing mas",
                 "i've been playing with the kids all day", "I'm learning to be patient"):
        assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "does"], text


@pytest.mark.engine_free
def test_a_pastime_and_how_often_alone_is_the_speakers():
    """Dev's misses (d8, d15): "climbing 3 times a week now lol", "changed woman sips. running 3 times a week round
    ormeau park"; not of someone else the message names ("bouldering. 3 times a week with people from his work")."""
    for text, what in (("climbing 3 times a week now lol", "climbing"),
                       ("changed woman sips. running 3 times a week round ormeau park", "running")):
        assert ("assert", "Maya", "does", what) in [f[:4] for f in chat_sure(("Maya", text))[0]], text
    assert not [f for f in chat_sure(("Maya", "bouldering. 3 times a week with people from his work"))[0]
                if f[2] == "does"]


@pytest.mark.engine_free
def test_a_second_reviewers_attack_on_the_fortieth_sessions_readings():
    """Not taught now: denied, to come, given up, or no pastime ("run the till", "walk again"); an event is not dated
    by a year or a month told of something else ("she was 94, born in 1931"); in a group's chat a move is not given the
    home asked of another ("how's the new flat in Leeds, Mere?"); "my two sisters" are several."""
    from datetime import timedelta

    for text in ("nobody is teaching me to surf", "Rui is teaching me to surf tomorrow",
                 "my boss is teaching me to run the till", "the physio is teaching me to walk again",
                 "Rui's been teaching me to surf but I quit"):
        assert not [f for f in chat_sure(("Maya", text))[0] if f[2] == "does"], text
    dated = chat_sure(("Sam", "how was the funeral?"), ("Maya", "sad. she was 94, born in 1931"))[1]
    assert not [f for f in dated if f[2] == "attended" and f[3] != "funeral"]
    extractor, found = RuleExtractor(), []
    for n, (who, text) in enumerate((("Ruth", "how's the new flat in Leeds, Mere?"), ("Tama", "moved in on the 1st!"))):
        found.append(extractor.extract(text, reference_time=REF + timedelta(days=n), speaker=who))
    assert not [f for f in found[1] if f.predicate == "lives_in"]
    two = chat_sure(("Maya", "my two sisters are visiting. my sister Niamh is in York"),
                    ("Maya", "my sister works at Tesco"))
    assert not [f for f in two[1] if f[1] == "Niamh"]
