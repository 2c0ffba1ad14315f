"""The rules extractor on natural two-person chat: what it refuses, the everyday facts it reads,
the context it is given (the other participant, the turn before), and how ingest passes it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from graphmem.core.aliases import ALIAS
from graphmem.core.relations import relation_of
from graphmem.evaluation import ExtractionCase, GoldFact, facts_match, read_conversation_set, score_extraction
from graphmem.extract import ExtractedFact, RuleExtractor, Turn, takes_context
from graphmem.ingest import ingest, read_messages

#: A Friday.
REF = datetime(2026, 5, 8, 10, 0, tzinfo=UTC)


def facts(text: str, previous: Turn | None = None, speaker: str = "Maya") -> list[tuple]:
    found = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker=speaker, other="Sam",
                                                 previous=previous)
             if relation_of(f.predicate) is None and f.predicate != ALIAS]  # tests/test_extract_family.py
    return [(f.op, f.subject, f.predicate, f.object, f.valid_from and f.valid_from.isoformat()[:10],
             f.valid_to and f.valid_to.isoformat()[:10]) for f in found]


@pytest.mark.engine_free
@pytest.mark.parametrize("text", [
    # filler and "like" that is no taste
    "Sounds like a plan!", "Looks like rain.", "like was he angry or sad", "r u ok? like actualy",
    "like I said, it's fine", "i was like no way", "Seems like forever.",
    # compliments and reactions to the other's things
    "love the colours!", "Love your new haircut!!", "i love that", "love u", "love you, text me when you're home",
    "I love your dog", "omg I loved the film", "i love several news. go",
    # clauses and pronouns as objects
    "i like making it", "I like holding them", "honestly i like is awesome",
    # plans, wishes, hypotheticals, questions
    "I'll tell you when I'm in Boston", "I'm moving to Leeds next month.", "we're getting a puppy next week",
    "I want a dog so badly", "if I got a car I'd drive everywhere", "do you have a cat?",
    "I might join a choir", "I'm playing tennis tomorrow",
    # quitting something at a place of work, or leaving it for the evening
    "i quit the pub quiz", "we quit the pub early, it was dead",
    # where one is, whose things, someone else's
    "i'm in the B&B with sophie, it's ten minutes away", "we're at Jo's parents in Cromer",
    "my mum's dog is so old", "my best friend got a puppy", "my cousin has a new car",
    "lives in Leeds, she's a vet", "I can order a coffee and tell you my cat is blue",
    "hollis called me into his office", "at least u have ur own personal ambulance man",
])
def test_natural_chat_that_states_nothing(text):
    assert facts(text) == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    ("we adopted a kitten last week", [("assert", "Maya", "has_pet", "kitten", "2026-04-27", None)]),
    ("our golden retriever Miso is a menace", [("assert", "Maya", "has_pet", "golden retriever", None, None)]),
    ("my sister Bo hates dogs", [("assert", "Bo", "dislikes", "dogs", None, None)]),  # no pet of Maya's
    ("my old dog Rex is 12", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("I have two cats", [("assert", "Maya", "has_pet", "cats", None, None)]),
    ("our cat died last week", [("end", "Maya", "has_pet", "cat", None, "2026-04-27")]),
    ("also i bought a car!! fifi the fiesta", [("assert", "Maya", "owns", "car", None, None)]),
    ("I sold my car in March", [("end", "Maya", "owns", "car", None, "2026-03-01")]),
    ("my car broke down again", [("assert", "Maya", "owns", "car", None, None)]),
    ("I play guitar", [("assert", "Maya", "does", "guitar", None, None)]),
    ("I run most mornings", [("assert", "Maya", "does", "running", None, None)]),
    ("I've been doing pottery", [("assert", "Maya", "does", "pottery", None, None)]),
    ("I started pottery last month", [("assert", "Maya", "does", "pottery", "2026-04-01", None)]),
    ("I stopped running.", [("end", "Maya", "does", "running", None, None)]),
    ("lol. also i joined a running club. dont laugh", [("assert", "Maya", "member_of", "running club", None, None)]),
    ("but i signed up for a pottery class instead!", [("assert", "Maya", "does", "pottery", None, None)]),
    ("im learning spanish on an app", [("assert", "Maya", "does", "spanish", None, None)]),
    ("i cancelled my climbing gym membership", [("end", "Maya", "member_of", "climbing gym", None, None)]),
    ("I went to the Oban Games on Thursday with Isa", [
        ("assert", "Maya", "attended", "Oban Games", "2026-05-07", "2026-05-08"),
        ("assert", "Isa", "attended", "Oban Games", "2026-05-07", "2026-05-08")]),
    ("Hello from Skye!", [("assert", "Maya", "traveled_to", "Skye", None, None)]),
    ("ailsa is my girlfriend", [("assert", "Maya", "dating", "ailsa", None, None)]),
    ("tom and i moved in together last month", [("assert", "Maya", "dating", "tom", None, None)]),
    ("I have sold the car.", [("end", "Maya", "owns", "car", None, None)]),
    ("it cost more than my first car", []),
    ("its expensive and i have a dog now!!", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("im at theos parents in lunenburg", []),
    ("I work at the hospital", [("assert", "Maya", "works_at", "hospital", None, None)]),
    ("I'm at the hospital", []),
    ("first day at Google today!", [("assert", "Maya", "works_at", "Google", "2026-05-08", None)]),
    ("started going to yoga", [("assert", "Maya", "does", "yoga", None, None)]),
    ("did the London marathon", [("assert", "Maya", "attended", "London marathon", None, None)]),
    ("I did the dishes", []),
    ("we went to the quiz night", [("assert", "Maya", "attended", "quiz night", None, None)]),
    ("Thank you for coming up for my birthday darling.", [("assert", "Sam", "attended", "birthday", None, None)]),
    ("congrats on the new puppy!!", [("assert", "Sam", "has_pet", "puppy", None, None)]),
    ("congrats on the new job at Acme!", [("assert", "Sam", "works_at", "Acme", None, None)]),
    ("congrats on the job at Tom's", []),
    ("thanks for coming tomorrow", []),
    ("the party was wild apparently", []),
    ("i heard the concert was amazing", []),
    ("i have a car appointment", []),
    ("im on a team at work", []),
    ("call me later", []),
    ("call me Bex", [("assert", "Maya", "is_called", "Bex", None, None)]),
    ("i work with kids", []),
    ("i quit twitter", []),
    ("I'm at Starbucks", []),
    ("I'm still at Acme", [("assert", "Maya", "works_at", "Acme", None, None)]),
    ("my neighbours dog keeps barking", []),
    ("its a DOG. a greyhound!! i adopted her last saturday.", [
        ("assert", "Maya", "has_pet", "greyhound", "2026-05-02", None)]),
    ("I got her a present", []),
    # where the pet came from is not what it is (a 2026-12-05 held-out chat's, read after it moved to dev)
    ("lollo. cane fonnese, 3 months. i got him on sunday from a shepherd in orgosolo", []),
    ("its a greyhound! we got him from a rescue", [("assert", "Maya", "has_pet", "greyhound", None, None)]),
    # a reviewer's: an animal's word before a rescue, a shelter or a breeder says what the pet is
    ("got him from a labrador breeder in wales", [("assert", "Maya", "has_pet", "labrador", None, None)]),
    # a pet first told by its kind, then by its breed: the breed (not another animal's, not a question)
    ("i adopted a dog on wednesday!!! retired racing greyhound, her name is Mewa",
     [("assert", "Maya", "has_pet", "greyhound", "2026-05-06", None)]),
    ('I\'ve got a dog. A rescue. I went to the shelter "just to look" and came home with a lurcher.',
     [("assert", "Maya", "has_pet", "lurcher", None, None)]),
    ("i got a dog! a golden retriever", [("assert", "Maya", "has_pet", "golden retriever", None, None)]),
    ("I got a dog. my sister's beagle hates him", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("i got a dog. do you like labradors?", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("i got a dog and a hamster. and a poodle", [("assert", "Maya", "has_pet", "dog", None, None)]),
    # an attacker's: the breed is the pet's only where it opens its own clause, is of its kind, and is had
    ("we adopted a dog on saturday, she's a greyhound",
     [("assert", "Maya", "has_pet", "greyhound", "2026-05-02", None)]),
    ("got a dog on friday! our cat is a siamese", [("assert", "Maya", "has_pet", "dog", "2026-05-01", None),
                                                   ("assert", "Maya", "has_pet", "cat", None, None)]),
    ("got a dog. wanted a dachshund but they were all gone", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("got a dog. maybe we'll get a beagle next year", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("got a dog and took the greyhound bus home", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("got a dog! she hates the pug across the road", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("we got a dog!!! a german shepherd named Rex", [("assert", "Maya", "has_pet", "german shepherd", None, None)]),
    ("i adopted a cat, maine coon, huge boy", [("assert", "Maya", "has_pet", "maine coon", None, None)]),
    # a reviewer's: a breed said of all of them, or as part of another noun
    ("got a dog. labradors are the best", [("assert", "Maya", "has_pet", "dog", None, None)]),
    ("got a dog. greyhound racing is so cruel", [("assert", "Maya", "has_pet", "dog", None, None)]),
    # a trip made for an event: the event attended too (not a shop gone to for it, nor what was got for it)
    ("btw we drove to alba for the truffle fair yesterday",  # "alba": a word of Italian and Spanish too, no town
     [("assert", "Maya", "attended", "truffle fair", "2026-05-07", "2026-05-08"),  # a list knows, for review since
      ("assert", "Maya", "traveled_to", "alba", "2026-05-07", "2026-05-08")]),  # the thirty-ninth session
    ("i went back to turku for jari's retirement party on friday",
     [("assert", "Maya", "attended", "jari's retirement party", "2026-05-01", "2026-05-02")]),
    ("I went to the shop for the party tonight", []), ("went to tesco for the bbq stuff", []),
    ("went to town for the wedding outfit", []), ("did you go to rome for the wedding?", []),
    ("went to the party shop for the party", []), ("went to b&q for a bbq, the old one rusted", []),
    ("went to the bank for a fair price", []), ("went home for a shower", []),
    ("drove to alba for the truffle fair but it was cancelled 😭",
     [("assert", "Maya", "traveled_to", "alba", None, None)]),  # the drive was made (for review: a place typed so)
    # a reviewer's: the next sentence says it never happened
    ("went to Leeds for the festival. it was cancelled", [("assert", "Maya", "traveled_to", "Leeds", None, None)]),
    ("we went to the gig. but it got postponed lol", []),
    ("went to the concert. the band was cancelled from the lineup lol",
     [("assert", "Maya", "attended", "concert", None, None)]),
    ("if we went to rome for the wedding we'd be broke", []), ("Clive came for dessert", []),
    # a country, then the town in it: the town
    ("we were in Spain, in Málaga, once", [("assert", "Maya", "traveled_to", "Málaga", None, None)]),
    ("we were in Spain, in Lisbon's way", [("assert", "Maya", "traveled_to", "Spain", None, None)]),
    ("we were in Italy, in Hospital for 3 days", [("assert", "Maya", "traveled_to", "Italy", None, None)]),
    ("we were in Spain, near Valencia", [("assert", "Maya", "traveled_to", "Spain", None, None)]),
    ("we've been to France, to Rome, to Berlin", [("assert", "Maya", "traveled_to", "France", None, None)]),
    ("a cockapoo!! picked her up on saturday.", [("assert", "Maya", "has_pet", "cockapoo", "2026-05-02", None)]),
    ("picked her up from school", []),
    ("we left Paris this morning", []),
    ("my job at the bank is killing me", [("assert", "Maya", "works_at", "bank", None, None)]),
    ("I finally left my job at the bank.", [("end", "Maya", "works_at", None, None, None)]),
    ("I'm at Leeds Uni doing nursing", [("assert", "Maya", "studies_at", "Leeds Uni", None, None)]),
    ("im doing medicine at glasgow uni", [("assert", "Maya", "studies_at", "glasgow uni", None, None)]),
    ("doing a shift at Tesco", []),
    ("I've been running a lot", [("assert", "Maya", "does", "running", None, None)]),
    ("been running late all week", []),
    ("just landed in Rome", [("assert", "Maya", "traveled_to", "Rome", None, None)]),
    ("our new flat in Leeds is tiny", [("assert", "Maya", "lives_in", "Leeds", None, None)]),
    ("when we landed in Rome", []),
    ("ran 10k this morning", []),
    ("she got me a garmin as well", [("assert", "Maya", "owns", "garmin", None, None)]),
    ("I have bought a hat.", [("assert", "Maya", "owns", "hat", None, None)]),
    ("i have a phone call at 3", []),
    ("can you get me a coffee", []),
    ("i have the sofa to myself", []),
    ("Anna's started pottery", [("assert", "Anna", "does", "pottery", None, None)]),
    ("Tom's moved to Leeds", [("assert", "Tom", "lives_in", "Leeds", None, None)]),
    ("we're in Lisbon!!", [("assert", "Maya", "traveled_to", "Lisbon", None, None)]),
    ("I'm in Paris mode", []),
    ("pretend I'm in Spain", []),
    ("I have joined the bowls club. Isa too.", [("assert", "Maya", "member_of", "bowls club", None, None),
                                                ("assert", "Isa", "member_of", "bowls club", None, None)]),
    ("I went to Paris. Me too.", [("assert", "Maya", "traveled_to", "Paris", None, None)]),
    ("I love jazz. Tom too.", [("assert", "Maya", "likes", "jazz", None, None)]),
    ("oh and i bought a camera.", [("assert", "Maya", "owns", "camera", None, None)]),
    ("Also. Jess and I are done.", [("end", "Maya", "dating", "Jess", None, None)]),
    ("I'm done!", []),
    ("not really. me and ewan broke up", [("end", "Maya", "dating", "ewan", None, None)]),
    ("Callum and Aroha are engaged!", [("assert", "Callum", "dating", "Aroha", None, None)]),
    ("I'm engaged in a battle", []),
    ("we're done with dinner", []),
    ("I've also signed up for pottery", [("assert", "Maya", "does", "pottery", None, None)]),
    ("I have line dancing", [("assert", "Maya", "does", "line dancing", None, None)]),
    ("I have football on tv", []),
    ("I have a yoga mat", []),
    ("i have french homework", []),
    ("i have guitar at 5", [("assert", "Maya", "does", "guitar", None, None)]),
    ("i have started sourdough", [("assert", "Maya", "does", "sourdough", None, None)]),
    ("i have taken up salsa dancing", [("assert", "Maya", "does", "salsa dancing", None, None)]),  # h24: not
    # also "does taken up salsa dancing" ("have" an auxiliary, not "I have line dancing")
    ("Our old spaniel is going grey", [("assert", "Maya", "has_pet", "spaniel", None, None)]),
    ("i dreamt we got a puppy", []),
    ("also: pottery is going great.", [("assert", "Maya", "does", "pottery", None, None)]),
    ("your pottery is going great", []),
    ("Now I must go, choir practice at 11.", [("assert", "Maya", "member_of", "choir", None, None)]),
    ("Tom's band practice", []),
    ("went to Rome with Ryanair", [("assert", "Maya", "traveled_to", "Rome", None, None)]),
    ("I'm in Berlin next week", []),
    ("but now I'm in Busan", []),
    ("I'm back in London", []),
    ("DEV PROPOSED", [("assert", "Maya", "dating", "Dev", None, None)]),
    ("Tom proposed a toast", []),
    ("i do a bit of yoga", [("assert", "Maya", "does", "yoga", None, None)]),
    ("i just got back from newfoundland!", [("assert", "Maya", "traveled_to", "newfoundland", None, None)]),
    ("just got back from Alf's nativity", [
        ("assert", "Maya", "attended", "Alf's nativity", "2026-05-08", "2026-05-09")]),
    ("Lou's a nurse at the BRI, we matched a couple of weeks ago", [
        ("assert", "Lou", "works_at", "BRI", None, None)]),
    ("I have joined a computer class. On Wednesday mornings.", [
        ("assert", "Maya", "member_of", "computer class", None, None)]),
    ("theo and i moved in together!! last weekend", [("assert", "Maya", "dating", "theo", None, None)]),
    ("I got engaged to Sam last week", [("assert", "Maya", "dating", "Sam", None, None)]),
    ("ran the Leeds 10k", [("assert", "Maya", "attended", "Leeds 10k", None, None)]),
    ("im back climbing, finger is finally ok", [("assert", "Maya", "does", "climbing", None, None)]),
    ("left Tesco's with nothing", []),
    ("I stopped going to the gym", [("end", "Maya", "member_of", "gym", None, None)]),
    ("i have a cat allergy", []),
    ("joined a new team at work", []),
    ("i bought a house plant", []),
    ("we lost our old dog Rex in May", [("end", "Maya", "has_pet", "dog", None, "2026-05-01")]),
    ("so I've joined a choir instead", [("assert", "Maya", "member_of", "choir", None, None)]),
    ("I quit the gym in January", [("end", "Maya", "member_of", "gym", None, "2026-01-01")]),
    # a place of work named by its kind: quitting it ends the job there
    ("oh and i quit the bakery", [("end", "Maya", "works_at", "bakery", None, None)]),
    ("I quit the coffee shop on Friday", [("end", "Maya", "works_at", "coffee shop", None, "2026-05-01")]),
    ("I stopped working at the bakery", [("end", "Maya", "works_at", None, None, None)]),  # as before: the job ends
    ("i quit the old bakery last week", [("end", "Maya", "works_at", "bakery", None, "2026-04-27")]),
    ("I'm a tourist at the museum", []),  # one who goes there, no job
    ("i got a job at a brewery in boise", [("assert", "Maya", "works_at", "brewery", None, None)]),
    ("I got a job at some mining company there", [("assert", "Maya", "works_at", "mining company", None, None)]),
    # a sixth new user's: a job got at a name in lower case is the job; "got into" a lowercase thing is none
    ("i got a job at northcoders", [("assert", "Maya", "works_at", "northcoders", None, None)]),
    ("got a new job at northcoders!!", [("assert", "Maya", "works_at", "northcoders", None, None)]),
    ("i got a job at work lol", []), ("i got a job at last!!", []), ("got a job at once", []),  # a reviewer's
    ("i got a job at age 15", []),
    ("so now i kind of have a cat", []),  # h10: hedged, her flatmate's cat
    ("a sort of festival, I live in Leeds", [("assert", "Maya", "lives_in", "Leeds", None, None)]),  # a noun phrase
    ("that sort of stuff, i work at google", [("assert", "Maya", "works_at", "google", None, None)]),
    ("greetings from the Galway Arts Festival", [("assert", "Maya", "attended", "Galway Arts Festival", None, None)]),
    ("we went to the rodeo last sunday, it was awesome", [("assert", "Maya", "attended", "rodeo", "2026-05-03",
                                                           "2026-05-04")]),
    ("we went to Jess's wedding on Saturday",
     [("assert", "Maya", "attended", "Jess's wedding", "2026-05-02", "2026-05-03")]),
    ("the Coldplay concert was amazing", [("assert", "Maya", "attended", "Coldplay concert", None, None)]),
    ("tom and i broke up. last weekend.", [("end", "Maya", "dating", "tom", None, "2026-05-02")]),
    ("me and Lou called it a day", [("end", "Maya", "dating", "Lou", None, None)]),
    ("I love jazz", [("assert", "Maya", "likes", "jazz", None, None)]),
    ("i really like hiking", [("assert", "Maya", "likes", "hiking", None, None)]),
    ("im really into bouldering", [("assert", "Maya", "likes", "bouldering", None, None)]),
])
def test_everyday_facts_of_natural_chat(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
def test_a_pronoun_is_read_from_the_turn_before_or_not_at_all():
    asked = Turn(speaker="Sam", text="do you like jazz?")
    assert facts("I love it", asked) == [("assert", "Maya", "likes", "jazz", None, None)]
    assert facts("I love it") == []  # nothing to say what "it" is
    assert facts("I love it", Turn(speaker="Maya", text="do you like jazz?")) == []  # her own turn
    assert facts("I love it", Turn(speaker="Sam", text="look at this photo!")) == []


def asked(text: str) -> Turn:
    return Turn(speaker="Sam", text=text)


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # "he"/"she" is the one person the message or the turn before names
    ("his name's Omar, he's a teacher at Northfield Academy", None,
     [("assert", "Omar", "works_at", "Northfield Academy", None, None)]),
    ("Dina's great. she works at the Royal Mail now", None, [("assert", "Dina", "works_at", "Royal Mail", None, None)]),
    ("Ravi the plumber's a star. he properly bakes", None, [("assert", "Ravi", "does", "baking", None, None)]),
    ("she lives in Glasgow", "how's Priya?", [("assert", "Priya", "lives_in", "Glasgow", None, None)]),
    ("he paints most weekends", "what about Leo though?", [("assert", "Leo", "does", "painting", None, None)]),
    # a name opening the clause after a comma, with its verb
    ("the kids are fine, Noor's on the school committee", None,
     [("assert", "Noor", "member_of", "school committee", None, None)]),
    # a club for an activity: one does the activity too
    ("I joined a chess club in March", None, [("assert", "Maya", "member_of", "chess club", "2026-03-01", None)]),
    ("we've joined the local rowing club", None, [("assert", "Maya", "member_of", "rowing club", None, None)]),
    ("I joined a book club", None, [("assert", "Maya", "member_of", "book club", None, None)]),
    # what is not for one
    ("honestly camping isn't my thing", None, [("assert", "Maya", "dislikes", "camping", None, None)]),
    ("I've realised golf is just not for me", None, [("assert", "Maya", "dislikes", "golf", None, None)]),
    # "we" and the one person the turn before asked about
    ("we broke up on Saturday", "and Tom?", [("end", "Maya", "dating", "Tom", None, "2026-05-02")]),
    ("we broke up", "did Tom and Jake come?", [("end", "Maya", "dating", None, None, None)]),  # two could be meant
    ("we're seeing each other!", "how's Ewan?", [("assert", "Maya", "dating", "Ewan", None, None)]),
    ("we've been on three dates", "what about Jules?", [("assert", "Maya", "dating", "Jules", None, None)]),
    ("we've been out a few times", "how is Marco?", [("assert", "Maya", "dating", "Marco", None, None)]),
    # a plain word of English opening a sentence is no one "we" means (h66); a name that is also a word is
    ("Soup is a good sign. Then we married", None, []),
    ("Will is a good sign. Then we married", None, [("assert", "Maya", "married_to", "Will", None, None)]),
    ("Oscar is a good sign. Then we married", None, []),
    # nicknames: "calls me", "calls you", "calls him", quoted ones without "the"
    ("my dad still calls me \"the baby\"", None, [("assert", "Maya", "is_called", "baby", None, None)]),
    ("everyone at work calls you Sammy", None, [("assert", "Sam", "is_called", "Sammy", None, None)]),
    ("Oscar's a legend. the kids call him Big O", None, [("assert", "Oscar", "is_called", "Big O", None, None)]),
    ("the team's started calling me Boss", None, [("assert", "Maya", "is_called", "Boss", None, None)]),
    # where someone is now settled: "now", "still", "since", years
    ("And Siobhán is in Dublin still, with Seán", None, [("assert", "Siobhán", "lives_in", "Dublin", None, None)]),
    ("Paddy and Dana are in New York now", None, [("assert", "Paddy", "lives_in", "New York", None, None),
                                                  ("assert", "Dana", "lives_in", "New York", None, None)]),
    ("she's been in Oguaa 10 years", "how's Esi?", [("assert", "Esi", "lives_in", "Oguaa", None, None)]),
    ("done! I'm in Kingo now. it's tiny", None, [("assert", "Maya", "lives_in", "Kingo", None, None)]),
    ("I joined the Men's Shed in Golden Square", None, [("assert", "Maya", "member_of", "Men's Shed", None, None)]),
    ("she's doing a postdoc at the University of Galway", "how's Eva?",
     [("assert", "Eva", "works_at", "University of Galway", None, None)]),
    ("we went to the Easter Festival parade", None, [("assert", "Maya", "attended", "Easter Festival parade", None,
                                                      None)]),
])
def test_people_named_and_context(text, previous, expected):
    assert facts(text, asked(previous) if previous else None) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous"), [
    ("Tom and Ana came over. he works at Google", None),  # two could be meant
    ("my sister came over. she works at Google", "how's Tom?"),  # "she" may be the sister
    ("she works at Google", None), ("she works at Google", "how was Cromer?"),
    ("we've been out four times", None),
    ("i think golf isn't for me", None), ("it's not for me", None), ("that's not my thing", None),
    ("don't call me Bexy", None), ("you can call me Sammy", None), ("he calls him lazy", "how's Tom?"),
    ("the kids call him Big O", None),  # who "him" is, nobody said
    ("Priya on my team took me for lunch", None), ("our group chat is dead", None),
    ("sorry, Tom's coming too?", None),
    # h13, h14, b13, b14: no nickname told by a denial, a manner, a phone call, a word for anyone, a plan
    ("yeah Flaherty. nobody calls him Ciarán in the kitchen", None), ("she calls me crying", "how's Ivo?"),
    ("I'm calling her RIGHT NOW", None), ('Josh calls me "mate" about 40 times a minute', None),
    ("they're going to teach her to call me Grandad Walrus", None),
    ("and did Mirela call you Dorel in front of everyone 😂", None),  # asked, with no question mark
    ("I'm in the garden shed, come round", None), ("Tom's in the shed now", None),  # no Men's Shed
    ("it is in Budapest now", None), ("she's staying at her mom's in evanston for now", None),
])
def test_people_and_context_that_state_nothing(text, previous):
    assert facts(text, asked(previous) if previous else None) == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # selling: a thing known by its name, or "it" the message or the turn before names
    ("I sold the Vespa last week", None, [("end", "Maya", "owns", "Vespa", None, "2026-04-27")]),
    ("the kayak took up half the garage so i sold it", None, [("end", "Maya", "owns", "kayak", None, None)]),
    ("sold it on saturday", "what did you end up doing with the old telly?",
     [("end", "Maya", "owns", "telly", None, "2026-05-02")]),
    ("sold it lol", "what did u do with the trampoline", [("end", "Maya", "owns", "trampoline", None, None)]),
    ("sold it", None, []), ("sold it", "how's work?", []),
    ("sold it", "did you keep the bike or the car?", []),  # two things could be meant
    ("we sold the Hendersons our sofa", None, []),
    ("sold it", "is the car still on ebay?", [("end", "Maya", "owns", "car", None, None)]),
    # someone else's thing in the turn before, or asked of someone else; won over, nothing owned
    ("sold it", "my mum bought a new car", []), ("sold it lol", "his van is a wreck", []),
    ("sold it", "what did Tom do with his piano?", []), ("sold it", "what did you do with my piano?", []),
    ("I sold the Post Office on the idea", None, []),
])
def test_what_is_sold(text, previous, expected):
    assert facts(text, asked(previous) if previous else None) == expected


@pytest.mark.engine_free
def test_an_extractor_without_the_new_keywords_is_still_an_extractor():
    class Old:
        name = "old"

        def extract(self, text, *, reference_time, speaker="user"):
            return []

    assert not takes_context(Old().extract, "other", "previous")
    assert takes_context(RuleExtractor().extract, "other", "previous")
    assert takes_context(RuleExtractor().extract_many, "context")
    assert takes_context(lambda text, **kw: [], "other", "previous")


class Recording:
    """Remembers what it was told about each message."""

    name = "recording"

    def __init__(self):
        self.told = []

    def extract(self, text, *, reference_time, speaker="user", other=None, previous=None):
        self.told.append((text, speaker, other, previous and (previous.speaker, previous.text)))
        return []


class Old:
    name = "old"

    def __init__(self):
        self.seen = []

    def extract(self, text, *, reference_time, speaker="user"):
        self.seen.append(text)
        return [ExtractedFact(subject=speaker, predicate="likes", object="tea", quote=text)] if "tea" in text else []


def _chat(tmp_path, lines, name="chat.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _line(n, actor, content, role="user"):
    return {"id": f"c-{n}", "chat_time": f"2024-02-03T18:0{n}:00Z", "role": role, "actor": actor,
            "content": content}


def test_ingest_learns_the_participants_and_passes_the_context(store, tmp_path):
    path = _chat(tmp_path, [_line(1, "Maya", "do you like jazz?"), _line(2, "Sam", "I love it"),
                            _line(3, "bot", "noted", role="assistant"), _line(4, "Maya", "same")])
    messages = read_messages(path)
    assert messages.participants == ("Maya", "Sam")
    extractor = Recording()
    ingest(store, messages, extractor, approve=True)
    assert extractor.told == [
        ("do you like jazz?", "Maya", "Sam", None),
        ("I love it", "Sam", "Maya", ("Maya", "do you like jazz?")),
        ("same", "Maya", "Sam", ("assistant", "noted")),  # an assistant's reply is the assistant's, whatever its actor
    ]


def test_the_rules_resolve_it_from_the_turn_before_through_ingest(store, tmp_path):
    path = _chat(tmp_path, [_line(1, "Maya", "do you like jazz?"), _line(2, "Sam", "I love it")])
    ingest(store, read_messages(path), approve=True)
    (pending,) = store.proposals()  # a taste in a two-person chat waits for review, even approved
    assert (pending.subject, pending.predicate, pending.object) == ("Sam", "likes", "jazz")
    store.approve([pending.id])
    assert [(v.subject, v.predicate, v.object) for v in store.beliefs()] == [("Sam", "likes", "jazz")]


def test_in_a_two_person_chat_tastes_and_possessions_wait_for_review(store, tmp_path):
    path = _chat(tmp_path, [_line(1, "Maya", "love your jacket!! I love jazz. and I have a bike. I moved to Leeds."),
                            _line(2, "Sam", "haha thanks")])
    summary = ingest(store, read_messages(path), approve=True)
    assert (summary.approved, summary.pending, summary.unsure) == (1, 2, 2)
    assert [(v.predicate, v.object) for v in store.beliefs()] == [("lives_in", "Leeds")]
    assert sorted((p.predicate, p.state) for p in store.proposals(None)) == [
        ("likes", "pending"), ("lives_in", "approved"), ("owns", "pending")]
    facts = RuleExtractor().extract("I love jazz. I bought a bike.", reference_time=REF, speaker="Maya")
    assert [f.sure for f in facts] == [True, True]  # told to an assistant (no other participant)
    assert [f.sure for f in RuleExtractor().extract("I love jazz.", reference_time=REF, speaker="Maya",
                                                     other="Sam")] == [False]


def test_participants_field_option_and_an_old_extractor(store, tmp_path):
    lines = [_line(1, "Maya", "I like tea"), _line(2, "Maya", "hello")]
    one_actor = _chat(tmp_path, lines)
    assert read_messages(one_actor).participants is None
    assert read_messages(one_actor, participants="Maya, Sam").participants == ("Maya", "Sam")
    document = tmp_path / "doc.json"
    document.write_text(json.dumps({"user_id": "Maya", "participants": ["Maya", "Sam"], "messages": lines}))
    assert read_messages(document).participants == ("Maya", "Sam")
    old = Old()
    summary = ingest(store, read_messages(document), old, approve=True)
    assert old.seen == ["I like tea", "hello"] and summary.approved == 1


@pytest.mark.parametrize("bad", [["Maya"], ["Maya", "maya"], "Maya,", ["Maya", 3]])
def test_bad_participants_are_refused(tmp_path, bad):
    from graphmem.errors import ImportFailed

    document = tmp_path / "doc.json"
    document.write_text(json.dumps({"participants": bad, "messages": [_line(1, "Maya", "hi")]}))
    with pytest.raises(ImportFailed, match="participants"):
        read_messages(document)


# --- scoring natural conversations ------------------------------------------------------------------

def _gold(obj, predicate="has_pet", **extra):
    return GoldFact(op="assert", subject="Maya", predicate=predicate, object=obj, valid_from=None,
                    valid_to=None, **extra)


def _found(obj, predicate="has_pet", subject="maya"):
    return ExtractedFact(subject=subject, predicate=predicate, object=obj, quote="q")


@pytest.mark.engine_free
@pytest.mark.parametrize(("found", "labelled", "similar"), [
    ("retriever", "golden retriever", True), ("the Golden Retrievers", "golden retriever", True),
    ("my dog", "dog", True), ("Jess's wedding", "wedding", True), ("painting", "paintings", True),
    ("cats", "cat", True),
    ("cat", "dog", False), ("", "dog", False), ("the", "dog", False),
])
def test_similar_objects(found, labelled, similar):
    assert facts_match(_found(found), _gold(labelled), strict=False, objects="similar") is similar
    assert facts_match(_found("dog"), _gold("dog"), strict=False) is True
    assert facts_match(_found("retriever"), _gold("golden retriever"), strict=False) is False  # exact
    assert facts_match(_found("dog", subject="Sam"), _gold("dog"), strict=False, objects="similar") is False


@pytest.mark.engine_free
def test_a_conversation_set_carries_its_context_and_is_scored_with_it(tmp_path):
    _chat(tmp_path, [_line(1, "Maya", "do you like jazz?"), _line(2, "Sam", "I love it"),
                     _line(3, "Maya", "we adopted a kitten")], name="c.jsonl")
    (tmp_path / "c.facts.jsonl").write_text("\n".join(json.dumps(line) for line in [
        {"id": "c-1", "facts": []},
        {"id": "c-2", "facts": [{"op": "assert", "subject": "Sam", "predicate": "likes", "object": "jazz",
                                 "valid_from": None, "valid_to": None}]},
        {"id": "c-3", "facts": [{"op": "assert", "subject": "Maya", "predicate": "has_pet", "object": "cat",
                                 "valid_from": None, "valid_to": None}]},
    ]) + "\n")
    cases = read_conversation_set(tmp_path / "c.jsonl")
    assert [(c.speaker, c.other, c.previous and c.previous.speaker) for c in cases] == [
        ("Maya", "Sam", None), ("Sam", "Maya", "Maya"), ("Maya", "Sam", "Sam")]
    assert isinstance(cases[0], ExtractionCase)
    score = score_extraction(cases, RuleExtractor(), objects="similar")
    assert (score.loose["likes"].right, score.loose["has_pet"].wrong, score.loose["has_pet"].missed) == (1, 1, 1)


@pytest.mark.engine_free
def test_a_pet_named_before_ends_when_it_dies():
    """A pet named once ("tibby is a tech cat now", said by either) ends when its owner says it
    died; the other's pet dying is not the speaker's."""
    extractor = RuleExtractor()

    def said(speaker: str, text: str) -> list[tuple]:
        other = "Sam" if speaker == "Maya" else "Maya"
        return [(f.op, f.subject, f.predicate, f.object, f.valid_to and f.valid_to.date().isoformat())
                for f in extractor.extract(text, reference_time=REF, speaker=speaker, other=other)]

    assert said("Sam", "tibby is a tech cat now") == []
    assert said("Maya", "Tibby died on Tuesday.") == [("end", "Maya", "has_pet", "cat", "2026-05-05")]
    assert said("Maya", "our dog Rex is so naughty") == [("assert", "Maya", "has_pet", "dog", None)]
    assert said("Sam", "Rex died") == []
    assert said("Maya", "Tom died") == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "previous", "expected"), [
    # a visitor's verdict on a known place, or an answer to "how was <place or event>?"
    ("lisbon was unreal", None, [("assert", "Maya", "traveled_to", "lisbon", None, None)]),
    ("oh and Rome was SO hot. never again in july", None, [("assert", "Maya", "traveled_to", "Rome", None, None)]),
    ("freezing but gorgeous", "how was Oslo?", [("assert", "Maya", "traveled_to", "Oslo", None, None)]),
    ("loud!! my ears are still ringing", "how was the gig", [("assert", "Maya", "attended", "gig", None, None)]),
    ("London was heaving today", None, []), ("Priya was great", None, []), ("leeds was a laugh", None, []),
    ("not yet, we fly friday", "how was Oslo?", []), ("did you see my photos?", "how was Oslo?", []),
    ("long", "how was your day?", []), ("nice", "how was her birthday party?", []),
    ("the netherlands was amazing", None, [("assert", "Maya", "traveled_to", "netherlands", None, None)]),
    ("so good", "how was the Algarve in the end?", [("assert", "Maya", "traveled_to", "Algarve", None, None)]),
    # a place's name that is as often a word or someone's name, a team, someone else's trip, a film
    ("the turkey was so good", None, []), ("reading was so good", None, []), ("Nice was lovely", None, []),
    ("Georgia was amazing, she sang all night", None, []), ("amazing", "how was the turkey?", []),
    ("so good", "how was Jordan?", []), ("Liverpool were immense", None, []), ("England were great", None, []),
    ("Paris was amazing apparently", None, []), ("Rome was perfect for them", None, []),
    ("Lisbon was cold in the film", None, []), ("Spain was so good to me", None, []),
])
def test_trips_and_events_told_by_how_they_went(text, previous, expected):
    assert facts(text, asked(previous) if previous else None) == expected


@pytest.mark.engine_free
def test_how_was_it_asked_by_the_speaker_herself_states_nothing():
    assert facts("amazing", Turn(speaker="Maya", text="how was Oslo?")) == []


@pytest.mark.engine_free
def test_how_a_trip_went_is_read_in_time_linear_in_a_hostile_message():
    """Long runs of spaces or fillers: a lazy group before runs of optional spaces took minutes
    ("how was x", 3,000 spaces, "y": a minute; 50,000 "ok and": seconds)."""
    from graphmem.extract._chat import told_trip

    assert told_trip("amazing", "how was x" + " " * 3000 + "y") == []
    assert told_trip("ok and " * 7000 + "berlin was good", None) == [("traveled_to", "berlin")]
    assert told_trip("so " * 16000, "how was" + " " * 50000) == []
    assert told_trip("berlin was good" + "!" * 50000 + "xx", None) == [("traveled_to", "berlin")]
    assert told_trip("ok and " * 7000 + "berlin was", None) == []


@pytest.mark.engine_free
def test_a_hostile_message_is_read_in_time_about_linear_in_its_length():
    """50,000 characters of one run-on sentence, a run of spaces inside a clause, or "sold it"
    said thousands of times: each verb looked back to its sentence's start and each "sold it" read the
    whole message again (minutes each); a sentence over LONGEST_SENTENCE characters is not read, the
    spaces before a joining word are matched from where they begin, a message's possessions are read once."""
    from graphmem.extract._rules import LONGEST_SENTENCE

    assert facts("i quit the bakery " * 2800) == []
    assert facts("i quit the bakery" + " " * 50_000 + "x") == []
    assert len("i quit the bakery " * 60) > LONGEST_SENTENCE and facts("i quit the bakery " * 60) == []
    assert facts("my van kept breaking down so I sold it. " + "I sold it. " * 4500) == [
        ("end", "Maya", "owns", "van", None, None)]
    assert facts("we moved to Leeds,   but i quit the bakery") == [
        ("assert", "Maya", "lives_in", "Leeds", None, None), ("end", "Maya", "works_at", "bakery", None, None)]
    # 50,000 quote marks: a verdict on a place ("berlin was SO good") was tried on them (minutes, quadratic)
    assert facts("'" * 50_000) == []
    # 20,000 "!." before a word: the sentence splitter tried the run from each of its stops, giving back one
    # stop at a time (quadratic: 80 s for these 40,000 characters, found by a reviewer's attack)
    assert facts("i joined a football team" + "!." * 20_000 + "Atlas Stars") == []
    # an open quotation mark before 25,000 words: the quoted-speech scan took seconds per thousand words (cubic)
    assert facts('"I ' + "a " * 25_000) == []
    assert facts("retired. " + "31 years at polsteam. " * 2_000) == [
        ("end", "Maya", "works_at", "polsteam", None, None)]
    # relation words thousands of times in one sentence: each looked back to the clause's start for a
    # hedge or a name (quadratic: 2,000 "my roommate" took ~10 s, 8,000 minutes); now 200 characters back
    for text, found in (("my roommate " * 2_000, [("Maya's roommate", "roommate_of", "Maya")]),
                        ("Tom's wife Ann " * 2_000, [("Ann", "wife_of", "Tom"), ("Tom", "married_to", "Ann")])):
        assert [(f.subject, f.predicate, f.object) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other="Sam")] == found
    # a name said 16,600 times: each time, whether a place word came before it was looked for from the message's
    # start (quadratic: 20 s, a reviewer's); now 200 characters back
    assert RuleExtractor().extract("Jo is great. " + "Jo " * 16_600 + "she moved to Leeds", reference_time=REF,
                                   speaker="Maya", other="Sam") == []
    # 3,000 trips in one message: each fact was compared with every one kept before it, twice (quadratic: 7 s, a
    # reviewer's); now through sets of their keys
    trips = RuleExtractor().extract("".join(f"went to see Kemi {n}. " for n in range(3_000)), reference_time=REF,
                                    speaker="Maya", other="Sam")
    assert len(trips) == 3_000 and len({f.object for f in trips}) == 3_000
    # (the thirty-third session: which of "he" and "she" a message says was read again for every sentence, and
    # whether it greets from a place for every trip: "I sold it." 4,500 times took 8 s, the 3,000 trips 11 s; now
    # once a message, 0.5 s and 1.2 s)
    # 20,000 "Mr. ": each stop looked for the word before it from the sentence's start (quadratic, ~40 s)
    assert RuleExtractor().extract("Mr. " * 20_000, reference_time=REF, speaker="Maya", other="Sam") is not None


@pytest.mark.engine_free
def test_a_sentence_offering_more_verb_phrases_than_chat_ever_does_is_not_read(monkeypatch):
    """Each verb phrase a sentence offers is matched against the whole sentence: 320 "my" before "flat in
    Leeds", twenty times (19.5 KB), took 18-20 CPU-s (found by a reviewer, the twelfth session). A sentence
    offering more than MOST_PHRASES is not read; every labelled chat here offers 17 at most."""
    from graphmem.extract import _rules

    tried = []
    match = _rules.RuleExtractor._match
    monkeypatch.setattr(_rules.RuleExtractor, "_match", lambda self, *a: tried.append(1) or match(self, *a))
    assert facts(("my " * 320 + "flat in Leeds. ") * 20) == [] and tried == []
    assert facts(("we went to " * 90 + "Leeds. ") * 20) == [] and tried == []
    # at the limit, a sentence is still read, and what it says is found
    sentence = "we went to Leeds and " * (_rules.MOST_PHRASES // 2)
    assert facts(sentence) == [("assert", "Maya", "traveled_to", "Leeds", None, None)] and tried


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # where someone came from is no trip there; back from one is
    ("your Uncle Ike came from Nnewi too", []),
    ("returned from Crete yesterday", [("assert", "Maya", "traveled_to", "Crete", "2026-05-07", "2026-05-08")]),
    # "calling me" followed by no name
    ("lol the electric people are calling me on a saturday", []),
    # someone's relative met: the relative, not the someone
    ("i finally met Efua's sister", [("assert", "Maya", "met", "Efua's sister", None, None)]),
    # an event named by a relative's name: the name, without the relation word
    ("we were at my niece Orla's wedding", [("assert", "Maya", "attended", "Orla's wedding", None, None)]),
    # a sentence with no subject, after one that opens with someone else: perhaps theirs, so nothing
    ("Tom left btw. drove to Calgary last week", []),
    ("work was mad. went to Rome after", [("assert", "Maya", "traveled_to", "Rome", None, None)]),
    ("Tom is still going. still doing the swimming though", [("assert", "Maya", "does", "swimming", None, None)]),
])
def test_chat_slips_read_from_fresh_chats(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # a club joined by its own name, ending in its members' word: no employer (a new user's, for review as one)
    ("I joined Meanwood Valley Runners.", [("assert", "Maya", "member_of", "Meanwood Valley Runners", None, None)]),
    ("joined Leeds City Harriers today!", [("assert", "Maya", "member_of", "Leeds City Harriers", "2026-05-08",
                                            None)]),
    ("I joined Deliveroo Riders lol", [("assert", "Maya", "works_at", "Deliveroo Riders", None, None)]),
    # a reviewer's: a football club's letters, or a job said with it, are an employer's for review, as before
    ("I just joined Otley AFC, sunday league", [("assert", "Maya", "works_at", "Otley AFC", None, None)]),
    ("I joined Leeds Harriers as head coach", [("assert", "Maya", "works_at", "Leeds Harriers", None, None)]),
    ("I joined Blackburn Rovers as a physio", [("assert", "Maya", "works_at", "Blackburn Rovers", None, None)]),
    # "U", "Ur": you, in a text, not someone named U; a name beginning so is a name (a reviewer's "Ya Ting")
    ("U GOT A CAT", []), ("U moved to Leeds??", []),
    ("My sister Ya Ting moved to Leeds", [("assert", "Ya Ting", "lives_in", "Leeds", None, None)]),
    ("Ya and I went to Paris", [("assert", "Maya", "traveled_to", "Paris", None, None),
                                ("assert", "Ya", "traveled_to", "Paris", None, None)]),
])
def test_clubs_by_their_names_and_you_as_u(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
def test_an_object_ends_before_a_trailing_adverb():
    found = RuleExtractor().extract("its the wine and the gossip mostly", reference_time=REF, speaker="Maya")
    assert "gossip mostly" not in {f.object for f in found}


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # a working life ended, and where it was spent
    ("retired in march. 31 years at polsteam is enough", [("end", "Maya", "works_at", "polsteam", None, "2026-03-01")]),
    ("I retired in April, 38 years in UHG is plenty", [("end", "Maya", "works_at", "UHG", None, "2026-04-01")]),
    ("she retired in 2019 after 30 years at Acme", []),
    ("retired! 30 years in Leeds", [("end", "Maya", "works_at", None, None, None)]),  # a place is no employer
    # greetings from a trip, and a trip home
    ("Hola from Lanzarote!!!", [("assert", "Maya", "traveled_to", "Lanzarote", None, None)]),
    ("i went home to osaka for new year", [("assert", "Maya", "traveled_to", "osaka", None, None)]),
])
def test_retirements_greetings_and_trips_home(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
def test_someone_else_in_a_place_undated_waits_for_review():
    """b7, b8: "Amaka is in Leeds" was where Amaka lives; "Western is in London", a university. Of the
    speaker ("we're in Lisbon!!") or dated ("Tom is in Paris this week") it is a trip, as before."""
    def sure(text: str) -> list[tuple[str, str, bool]]:
        return [(f.subject, f.object, f.sure) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other="Sam") if f.predicate == "traveled_to"]

    assert sure("Amaka is in Leeds.") == [("Amaka", "Leeds", False)]
    assert sure("we're in Lisbon!!") == [("Maya", "Lisbon", True)]
    assert sure("Tom is in Paris this week") == [("Tom", "Paris", True)]


@pytest.mark.engine_free
def test_where_someone_is_now_is_a_home_for_review_and_a_stay_is_none():
    """h13, h14, b13, b14: "Siobhán is in Dublin still", "I'm in Kingo now" told where people live; but
    "now" and "still" are said of trips as often (a reviewer's finds), and a home is one place at a
    time, so a wrong one would end the right one: proposed for review. A stay of years is sure."""
    def homes(text: str, previous: Turn | None = None) -> list[tuple[str, str, bool]]:
        return [(f.subject, f.object, f.sure) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other="Sam", previous=previous) if f.predicate == "lives_in"]

    assert homes("And Siobhán is in Dublin still, with Seán") == [("Siobhán", "Dublin", False)]
    assert homes("done! I'm in Kingo now. it's tiny") == [("Maya", "Kingo", False)]
    assert homes("she's been in Oguaa 10 years", asked("how's Esi?")) == [("Esi", "Oguaa", True)]
    assert homes("we've been in Leeds for a few years") == [("Maya", "Leeds", True)]
    for stay in ("we're in Rome now!! back Sunday", "I'm in Paris now for the conference", "I'm in Lisbon now until "
                 "Sunday", "I'm in Berlin still, the flight got cancelled", "I'm in Berlin since Monday",
                 "I'm in Sydney now, for a week", "Tom's been in Prison 10 years", "Tom just texted: I'm in Leeds now",
                 "it is in Budapest now", "she's staying at her mom's in evanston for now"):
        assert homes(stay) == [], stay


@pytest.mark.engine_free
def test_a_subject_left_out_in_news_of_someone_else_waits_for_review():
    """h13: "Got a job at WestJet, some analyst thing. He starts in February." is his job, maybe; "Got a job at
    Google! She's so proud" is the speaker's, maybe (a reviewer's find): either way for review, not dropped."""
    def sure(text: str) -> list[tuple[str, str, bool]]:
        return [(f.predicate, f.object, f.sure) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other="Sam") if relation_of(f.predicate) is None]

    assert sure("Got a job at WestJet, some analyst thing. He starts in February.") == [("works_at", "WestJet", False)]
    assert sure("Got a job at Google! She's so proud") == [("works_at", "Google", False)]
    assert sure("Got a job at Google! I start Monday, she's so proud") == [("works_at", "Google", True)]
    assert sure("Joined the gym, he's a great trainer") == [("member_of", "gym", False)]


@pytest.mark.engine_free
def test_a_trip_to_a_name_no_gazetteer_knows_waits_for_review():
    """d6, h4, d8: "we went to Supercrawl", "to Osheaga", "to the MCG" were a festival and a ground, not
    trips; the rules cannot tell them from a town they do not know, so those wait for review in a chat
    between two people. Told to an assistant, or to a known place, a trip is written as before."""
    def sure(text: str, other: str | None = "Sam") -> list[tuple[str, bool]]:
        return [(f.object, f.sure) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Maya", other=other) if f.predicate == "traveled_to"]

    assert sure("And we went to Supercrawl last night!!") == [("Supercrawl", False)]
    assert sure("we went to Lisbon last week") == [("Lisbon", True)]
    assert sure("I went to New York City in May") == [("New York City", True)]
    assert sure("we went to Salt Lake City") == [("Salt Lake City", True)]
    assert sure("we went to Rome and Florence") == [("Rome and Florence", True)]
    assert sure("And we went to Supercrawl last night!!", other=None) == [("Supercrawl", True)]


def _chat_facts(lines: list[tuple[str, str]]) -> list[tuple]:
    """Each message's facts, read in order by one extractor, as ingest reads a chat."""
    speakers = {who for who, _ in lines}
    context = [(next(iter(speakers - {who}), None), Turn(speaker=lines[i - 1][0], text=lines[i - 1][1]) if i else None)
               for i, (who, _) in enumerate(lines)]
    results = RuleExtractor().extract_many([(text, REF, who) for who, text in lines], context=context)
    return [(f.subject, f.predicate, f.object) for result in results for f in result.facts
            if relation_of(f.predicate) is None]


@pytest.mark.engine_free
def test_she_carries_through_turns_that_name_no_one():
    """b7: "Esi?" - "yes. she's funny" - "she works at UCC": Esi, two turns back; not when someone
    else is put where a name goes in between ("lupe is moving")."""
    asked = [("Kojo", "Esi?"), ("Yaw", "yes. she's funny, she kept talking"), ("Kojo", "she works at UCC now")]
    assert ("Esi", "works_at", "UCC") in _chat_facts(asked)
    other = [("Kojo", "Esi?"), ("Yaw", "yes. and lupe is moving, she's sad"), ("Kojo", "she works at UCC now")]
    assert not [f for f in _chat_facts(other) if f[1] == "works_at"]


@pytest.mark.engine_free
def test_a_name_written_capitalised_once_is_a_name_in_lower_case_later():
    """"kwame" is no name the nickname data knows; once the chat wrote "Kwame" inside a sentence,
    "how's kwame?" names him, and "he" in the answer is him."""
    lines = [("Ama", "we had lunch with Kwame on sunday"), ("Ben", "nice. how's kwame?"),
             ("Ama", "good, he started at Google last week")]
    assert ("kwame", "works_at", "Google") in _chat_facts(lines)  # as the turn wrote the name
    unseen = [("Ama", "we had lunch on sunday"), ("Ben", "nice. how's kwame?"), ("Ama", "good, he started at Google")]
    assert not [f for f in _chat_facts(unseen) if f[1] == "works_at"]


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # someone's words in quotes are theirs; a nickname in quotes is still read
    ('"I love my cat" 😂😂😂 Of course', []),
    ('she said "I moved to Leeds" lol. I moved to York in May',
     [("assert", "Maya", "lives_in", "York", "2026-05-01", None)]),
    # wild animals around, no pets
    ("Hahaha we have many birds.", []),
    # "Big skies.": an adjective that opens a sentence is nobody
    ("You'd love it. Big skies. No buses", []),
])
def test_quoted_words_crowds_and_adjectives_state_nothing(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
def test_a_name_set_off_before_he_is_someone_named():
    """d11: "one brother, Mathieu, he is 24. he lives in Bordeaux" answers "Camille has brothers?": he
    is Mathieu, not Camille; two people are named, so "he" is no one surely."""
    said = RuleExtractor().extract("one brother, Mathieu, he is 24. he lives in Bordeaux", reference_time=REF,
                                   speaker="Sylvie", other="Cora",
                                   previous=Turn(speaker="Cora", text="And you, Camille has brothers?"))
    assert not [f for f in said if f.subject == "Camille"]


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # the other participant addressed by name opens the message: not a subject
    ("Sam, Katka moved to Brno this week.", [("assert", "Katka", "lives_in", "Brno", "2026-05-04", None)]),
    # "X is 67 and married to Ivan": X's, not the speaker's
    ("Danka is 67 and married to Ivan, so no", [("assert", "Danka", "married_to", "Ivan", None, None)]),
    # no subject, in the past, after a sentence about "he": maybe his, so nothing
    ("He still works for the ESB in his head. Retired 12 years", []),
    ("I was tired and moved to Leeds in May", [("assert", "Maya", "lives_in", "Leeds", "2026-05-01", None)]),
])
def test_addressed_coordinated_and_after_he(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
@pytest.mark.parametrize("text, expected", [
    # a saint's name in the possessive is a hospital, a church, a school; someone else's is their home
    ("I work at St Mary's", [("assert", "Maya", "works_at", "St Mary's", None, None)]),
    ("we're at Jo's", []),
    # a question tag after a statement leaves the statement standing; a question stays a question
    ("I'm a nurse at St. Luke's in BGC, did Paolo tell you?",
     [("assert", "Maya", "works_at", "St. Luke's", None, None)]),
    ("I moved to Leeds, you know?", [("assert", "Maya", "lives_in", "Leeds", None, None)]),
    ("did you move to Leeds?", []),
    ("you moved to Leeds, right?", []),
    # walking as a pastime; Scots "fae" for "from"
    ("I do walking now, with Mochi around the village", [("assert", "Maya", "does", "walking", None, None)]),
    ("back fae Benidorm. still alive", [("assert", "Maya", "traveled_to", "Benidorm", None, None)]),
])
def test_saints_places_and_question_tags(text, expected):
    assert facts(text) == expected


@pytest.mark.engine_free
def test_quotes_stay_verbatim_and_a_topic_ends_with_its_sitting():
    """A fact's quote is the message's own words, though quoted speech and the one addressed are
    left out of reading; "she" of a new sitting is nobody carried from the last."""
    found = RuleExtractor().extract('Sam, she said "I love my job" and I moved to Leeds last year', reference_time=REF,
                                    speaker="Maya", other="Sam")
    assert [(f.predicate, f.quote) for f in found] == [
        ("lives_in", 'Sam, she said "I love my job" and I moved to Leeds last year')]
    extractor = RuleExtractor()
    talk = [("Ama", "how's Esi?"), ("Ben", "she's great, she got promoted"),
            ("Ama", "guess who called. she's back in town"), ("Ben", "omg she works at Google now")]
    times = [REF, REF, REF + timedelta(days=3), REF + timedelta(days=3)]
    results = extractor.extract_many([(text, at, who) for (who, text), at in zip(talk, times)], context=[
        ("Ben", None), ("Ama", Turn(speaker="Ama", text=talk[0][1])), ("Ben", Turn(speaker="Ben", text=talk[1][1])),
        ("Ama", Turn(speaker="Ama", text=talk[2][1]))])
    assert not [f for f in results[3].facts if f.predicate == "works_at"]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a group first called by its noun, then by its own name: the membership is of the name
    ("and i joined a surf group! Las Olas, all women", "Las Olas"),
    ("i joined a running club lol, Triana Runners, and there's a guy, Kuba", "Triana Runners"),
    ("i joined a bouldering gym on monday 😅 its called Blok, near the shipyard", "Blok"),
    ("I joined a choir called Voces", "Voces"),
    ("and... I left the running group 😔 Envigado Runners. I told the coach", "Envigado Runners"),
    # after an emoji, a reaction as often as a name: a name only where a group's word ends it
    ("I left the book club 😤 Too Much Drama.", "book club"), ("i joined a band 🎸 Jamie Smith on drums", "band"),
    ("I joined a band 🎸 The Rolling Stones.", "band"), ("I joined a choir ‼ Voces Unidas Choir", "Voces Unidas Choir"),
    ("I've joined the swim group, they're called the Blackrock Bluetits", "Blackrock Bluetits"),
    # what stands beside the noun is a person, a place, a day, a preposition, a doubt: the noun stays
    ("I joined a choir. Anna says it's great", "choir"), ("i joined a gym, Sarah, you'd love it", "gym"),
    ("I joined a choir. Tuesday.", "choir"), ("I joined a book club. London is lovely", "book club"),
    ("i joined a running club and there's a guy called Kuba", "running club"),
    ("I've joined a line dancing group. At the Legion on Upper James", "line dancing group"),
    ("i joined a kayaking club, its called Bergen Havpadling or something", "kayaking club"),
    ("I joined a choir. OMG.", "choir"), ("I joined a church group. Mrs Folake Bankole runs it", "church group"),
    # a reviewer's: one word alone beside the noun is anything; "it's called" names what was said last
    ("I joined a gym. Sore", "gym"), ("I joined a gym. Me!", "gym"), ("I joined a surf group. Bondi!", "surf group"),
    ("I joined a running club! Every Tuesday, it's great", "running club"), ("I joined a gym. Happy Monday!", "gym"),
    ("i joined a running club. Kuba and I run together", "running club"),
    ("I joined a running club and got a puppy, it's called Biscuit", "running club"),
    ("I joined a choir. the song we're learning? it's called Hallelujah", "choir"),
    # filler that once made the reading try every split of it (a minute for 106 characters)
    ("i joined a surf group" + " lol  " * 14 + "1", "surf group"), ("I joined a choir " + "x" * 24 + " 🥰", "choir"),
])
def test_a_group_named_after_its_noun(text, expected):
    assert [f[3] for f in facts(text) if f[2] == "member_of"] == [expected]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "sure"), [
    # the message names the group in a way the rules do not read: the noun waits for review
    ("i joined a futsal team!! some of the guys play wednesdays. the team is called fc naniwa. very original", False),
    ("oh and i joined a football team. guys from the village. the team is Atlas Stars but we are not stars", False),
    ('I joined a women\'s climbing group, wednesdays, "Klifurkonur". half of them are nurses', False),
    ("I joined a walking group in February, Caminhantes da Foz, we walk the coast every saturday", False),
    ("and i joined the football club here, Grådyb FC, the old boys team", False),
    # nothing more is said of its name, or what is said is a day, a person, a place or a doubt
    ("ok my news. i joined a rowing club", True), ("I joined a gospel choir. Anna says it's great", True),
    ("i joined a running club, Tuesday nights, 5k then the pub", True),
    ("I joined a book club in Lyon, Paris next", True),
    ("i joined a kayaking club 🛶 its called Bergen Havpadling or something", True),
    ("i joined a running club, Sarah!", True),
    # an attacker's: a quote elsewhere, "it's called" of something else, another group's name, a nationality
    ('i joined a running club and the coach literally said "no walking" on the first night 😂', True),
    ("i joined a gospel choir. we're singing “Ave Maria” at the christmas concert", True),
    ("signed up to a cycling club. they all use this app, it's called Strava, everyone's on it", True),
    ("i joined a gospel choir. my mums choir is called the Sunshine Singers and she's FURIOUS", True),
    ("i joined a rugby team!! the team is Irish, i'm the only english one lol", True),
])
def test_a_group_named_in_a_way_not_read_waits_for_review(text, sure):
    found = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
             if f.predicate == "member_of"]
    assert [f.sure for f in found] == [sure], found


@pytest.mark.engine_free
def test_a_breakup_with_no_one_named_ends_the_partner_told_before():
    extractor = RuleExtractor()
    at = datetime(2026, 5, 4, 12, tzinfo=UTC)

    def said(text: str, speaker: str = "Ines") -> list[tuple]:
        return [(f.op, f.subject, f.predicate, f.object) for f in extractor.extract(
            text, reference_time=at, speaker=speaker, other="Bo" if speaker != "Bo" else "Ines")
            if f.predicate == "dating"]

    assert said("so we broke up. last weekend") == [("end", "Ines", "dating", None)]  # nobody told yet
    assert said("my boyfriend Øyvind is a fisherman") == [("assert", "Ines", "dating", "Øyvind")]
    assert said("we broke up lol", speaker="Bo") == [("end", "Bo", "dating", None)]  # another speaker's
    assert said("ugh. so we broke up. last weekend 💔") == [("end", "Ines", "dating", "Øyvind")]
    assert said("we broke up again") == [("end", "Ines", "dating", None)]  # ended once: nobody left


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # names written with letters beyond ASCII, capitalised or not
    ("matías and i broke up", [("end", "Maya", "dating", "matías", None, None)]),
    ("Øyvind and I broke up", [("end", "Maya", "dating", "Øyvind", None, None)]),
    ("Élodie got a job at Airbus", [("assert", "Élodie", "works_at", "Airbus", None, None)]),
    ("E\u0301lodie got a job at Airbus", [("assert", "Élodie", "works_at", "Airbus", None, None)]),  # decomposed
])
def test_names_beyond_ascii(text, expected):
    assert [f for f in facts(text) if f[2] != "ex_of"] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "name", "sure"), [
    # a name many use is written; one person's name for someone waits for review
    ("everyone here calls me Jay", "Jay", True), ("they call me tiny", "tiny", True),
    ("and now the horn section calls me Bussi", "Bussi", True), ("guys on the CB call me Seoul Train",
                                                                   "Seoul Train", True),
    ('he calls me "Mrs H" still. twelve years!', "Mrs H", False),
    ('my boss is hélène. she calls me "la petite"', "la petite", False),
    ("Marta is calling you Viking now", "Viking", False),
    ("everyone calls me Jay but my mum calls me Jayjay", "Jayjay", False),
    ("my mum calls me Jayjay but everyone calls me Jay", "Jay", True),
    ("please just call me Jay 🙂", "Jay", True), ("Marcus used to call me Red", "Red", False),
])
def test_a_nickname_one_person_uses_waits_for_review(text, name, sure):
    found = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
             if f.predicate == "is_called" and f.object == name]
    assert [(f.object, f.sure) for f in found] == [(name, sure)]
    told_to_an_assistant = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya")
                            if f.predicate == "is_called" and f.object == name]
    assert [f.sure for f in told_to_an_assistant] == ([True] if " me " in text else [])


@pytest.mark.engine_free
@pytest.mark.parametrize(("plan", "then", "expected"), [
    # the move said to come, then a first message from there: the home and the trip, both for review
    ("i'm moving to valencia in september!!", "greetings from valencia!!! [photo]",
     [("lives_in", "valencia", False), ("traveled_to", "valencia", False)]),
    ("we found a house in mérida! 3 rooms and a mango tree", "we're in merida!! surrounded by boxes",
     [("lives_in", "merida", False), ("traveled_to", "merida", False)]),
    ("ok my news: i decided. valencia. moving in january 🎉", "hello from valencia 🌴",
     [("lives_in", "valencia", False), ("traveled_to", "valencia", False)]),
    # a trip told otherwise, a visit, another place, no plan, someone else's plan or one not made: a trip, no
    # home; one told only by a greeting from there waits for review all the same unless the message tells a visit
    # (twelfth session: on dev, greetings from a place written as trips were right 9 times, the move there 4)
    ("I've been offered a job in London", "last sunday, i went to London and we talked",
     [("traveled_to", "London", True)]),
    ("i'm moving to valencia in september!!", "greetings from valencia! here for three days to look at flats",
     [("traveled_to", "valencia", True)]),
    ("i'm moving to valencia in september!!", "greetings from Lisbon!!", [("traveled_to", "Lisbon", False)]),
    ("how are you?", "greetings from valencia!!!", [("traveled_to", "valencia", False)]),
    ("Tom is moving to Valencia in May", "greetings from valencia!!!", [("traveled_to", "valencia", False)]),
    ("Ana got a job in Sydney!", "greetings from Sydney!", [("traveled_to", "Sydney", False)]),
    ("I've been offered a job in Sydney but i turned it down", "greetings from Sydney!",
     [("traveled_to", "Sydney", False)]),
    ("should i move to valencia?", "greetings from valencia!!!", [("traveled_to", "valencia", False)]),
    ("Ana said: i'm moving to valencia in september", "greetings from valencia!!!",
     [("traveled_to", "valencia", False)]),
])
def test_a_first_message_from_where_the_speaker_said_they_were_moving_may_be_the_move(plan, then, expected):
    extractor = RuleExtractor()
    at = datetime(2026, 5, 4, 12, tzinfo=UTC)
    extractor.extract(plan, reference_time=at, speaker="Rafa", other="Tomasz")
    extractor.extract("nice!!", reference_time=at, speaker="Tomasz", other="Rafa")
    found = extractor.extract(then, reference_time=at + timedelta(days=120), speaker="Rafa", other="Tomasz")
    assert [(f.predicate, f.object, f.sure) for f in found if f.predicate in ("lives_in", "traveled_to")] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("between", "later"), [
    ("the move is off, we're staying in madrid", 30),  # called off
    ("lol", 400),  # a year and more after the plan: a trip again
])
def test_a_move_called_off_or_long_past_is_no_longer_waited_for(between, later):
    extractor = RuleExtractor()
    at = datetime(2026, 5, 4, 12, tzinfo=UTC)
    extractor.extract("i'm moving to valencia in september!!", reference_time=at, speaker="Rafa", other="Tomasz")
    extractor.extract(between, reference_time=at + timedelta(days=10), speaker="Rafa", other="Tomasz")
    found = extractor.extract("greetings from valencia!!!", reference_time=at + timedelta(days=later),
                              speaker="Rafa", other="Tomasz")
    assert [(f.predicate, f.sure) for f in found] == [("traveled_to", False)]  # a trip (a greeting: for review)


@pytest.mark.engine_free
def test_reading_a_move_planned_is_linear():
    """"a"*n once took seconds at 12 KB (a plan's place tried at every letter of a long word); no time limit
    here: a regression shows in the suite's time."""
    from graphmem.extract._chat import arrived, move_planned

    for text in ("a" * 50_000, "’" * 50_000, "a-" * 25_000, "a" * 25_000 + ", " + "b" * 25_000):
        assert move_planned(text) is None and not arrived(text, text)


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "sure"), [
    # signing up for a class is a plan until the message says it has begun
    ("and i signed up for a pottery class. wheel throwing, 8 weeks, wednesday nights", False),
    ("also i did something brave: signed up for german classes! tuesday and thursday evenings", False),
    ("I've also signed up for pottery on Thursday mornings. It's started already and I'm terrible.", True),
    ("i do pottery every thursday", True),  # no sign-up: as before
    # the class itself, where its hobby's word is none the lists know (a held-out chat's, read once it was dev)
    ("I signed up for a kintsugi class! every other saturday from march", False),
    ("I signed up for a kintsugi class, loving it so far", True),
    ("signed up for the running club", True),  # a club: signing up is joining
    # a reviewer's: begun as ordinary words say it, or not yet
    ("signed up for a jiu jitsu class, went on monday", True),
    ("signed up for a trapeze class, 2 weeks in and i'm covered in bruises", True),
    ("signed up for a life drawing class, haven't started yet", False),
])
def test_a_class_signed_up_for_is_a_plan_until_it_begins(text, sure):
    for other in ("Sam", None):  # in a chat between two people and told to an assistant alike
        found = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other=other)
                 if f.predicate in ("does", "member_of")]
        assert found and all(f.sure is sure for f in found)


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a vehicle by its make and model, in lower case as often as not
    ("bought a white fiat doblo. 190 000 km, smells like dog", [("assert", "fiat doblo", True)]),
    ("sold the clio yesterday btw. a student bought her", [("end", "clio", True)]),
    ("I bought a used Mercedes Sprinter instead, much bigger", [("assert", "Mercedes Sprinter", True)]),
    ("i sold the ducati", [("end", "ducati", True)]),
    # its description as the whole answer, the speaker telling they got it
    ("a Toyota Vitz, silver, 2014. very small. I picked it up on thursday", [("assert", "Toyota Vitz", True)]),
    ("2019 peterbilt 579. black. picked her up friday in dallas", [("assert", "peterbilt 579", True)]),
    ("a Toyota Vitz, silver, 2014. hertz gave us it as a rental, we got it from the airport", []),
    # after its kind the kind stays (the annotators recorded it twice as often)
    ("I sold my car! the old Clio. I take the tram now", [("end", "car", True)]),
    # no vehicle: an offer from a maker, a question, a description of one not got, a dealer
    ("I got the Audi offer on friday", []), ("is it a toyota?", []),
    ("a Toyota Vitz, silver, 2014. should i get it?", []), ("i went to a toyota dealer", []),
    # from the fourteenth session's attack: a joke got, a person, a shirt, the buyer, someone else's, a pet
    ("Toyota Corolla. I got it!! first try on the quiz lol", []), ("bought harley a new collar", []),
    ("bought a ferrari t-shirt for dad", []), ("Peugeot 208, blue. that's the one my boss got", []),
    ("BMW. my dad's. i got it for the weekend", []), ("bought a ram. for the farm. the animal.", []),
    ("Harley, 3 years old, lab mix. we got her from the shelter on friday", []),
    # from the second attack: a day, a filler or a reason after the make; a game, a dream; a person picked up, a
    # car got for someone else, a hypothetical
    ("bought a Ford Fiesta Monday", [("assert", "Ford Fiesta", True)]), ("bought a honda cause it was cheap", []),
    ("bought a lamborghini in gta lol", []), ("bought a ferrari. in my dreams", []),
    ("i picked her up from the station. Toyota Hilux, white, 2018.", []),
    ("Peugeot 208, red. not mine lol, i picked it up for my boss", []),
    ("Volvo V70, 2008. if i bought it would you help me fix it", []),
])
def test_a_vehicle_by_make_and_model(text, expected):
    assert [(f.op, f.object, f.sure) for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya",
                                                                    other="Sam") if f.predicate == "owns"] == expected


@pytest.mark.engine_free
def test_a_thing_sold_by_fewer_words_than_it_was_bought_by_is_the_one_bought():
    """A new user's trial: "bought a ford fiesta today", then "sold the fiesta today" proposed to end `owns
    fiesta`, which the store did not hold; it ends the Ford Fiesta told, by its told name, where one fits."""
    def said(*lines: str) -> list[tuple]:
        extractor = RuleExtractor()
        return [(f.op, f.object, f.sure) for line in lines for f in extractor.extract(
            line, reference_time=REF, speaker="Sam", other="Jo") if f.predicate == "owns"]

    assert said("bought a ford fiesta today", "sold the fiesta today") == [
        ("assert", "ford fiesta", True), ("end", "ford fiesta", True)]
    assert said("bought a ford fiesta today", "bought a blue fiesta today", "sold the fiesta today")[-1] == (
        "end", "fiesta", True)  # one told as said: that one
    assert said("sold the fiesta today") == [("end", "fiesta", True)]
    assert said("bought a Ford Fiesta", "sold the ford fiesta", "sold the fiesta")[-1] == ("end", "fiesta", True)
    # a reviewer's: sold once, in another case, it is no longer there to end again


@pytest.mark.engine_free
def test_a_start_told_with_no_employer_is_at_the_job_got():
    """"I took the job at Hilltop Estate. start 1 July", then "started tuesday": works at Hilltop Estate from that
    Tuesday; not without a job got, nor one turned down, asked about or supposed, nor after a job told by its name."""
    def told(talk: list[tuple[str, str]]) -> list[tuple]:
        extractor, at, found, before = RuleExtractor(), REF, [], None
        for who, text in talk:
            at += timedelta(days=20)
            found += [(f.subject, f.object, f.op, f.valid_from and f.valid_from.date().isoformat())
                      for f in extractor.extract(text, reference_time=at, speaker=who,
                                                 other="Sam" if who == "Maya" else "Maya", previous=before)
                      if f.predicate == "works_at"]
            before = Turn(speaker=who, text=text)
        return found

    begun = told([("Maya", "yeah, big one. I took the job at Hilltop Estate. head roaster. start 1 July"),
                  ("Maya", "my last day at Blue Peak was friday"), ("Maya", "started on the 3rd. the roaster is old")])
    assert begun[-1] == ("Maya", "Hilltop Estate", "assert", "2026-07-03")  # the old job's end leaves the plan
    assert told([("Maya", "ok europe. i have news. i got it. Instituto Butantan offered me the job"),
                 ("Maya", "first day was friday!!! I met my team")])[-1][:3] == ("Maya", "Instituto Butantan", "assert")
    # an attacker's: a job quit, refused in other words, a start of something else, a person or a relative as employer
    for talk in ([("Maya", "I got the job at Google!! start in april"), ("Maya", "I quit Google, toxic place"),
                  ("Maya", "first day went great, he loved his teacher")],
                 [("Maya", "Google offered me the job"), ("Maya", "I said no"), ("Maya", "started monday")],
                 [("Maya", "I got the job at Google"), ("Maya", "Acme made a counteroffer so I'm staying"),
                  ("Maya", "started monday")],
                 [("Maya", "I got the job at Google"), ("Maya", "first week done at the gym")],
                 [("Maya", "I got the job at Google"), ("Maya", "I started on the 1st at Amazon")],
                 [("Maya", "Javier offered me the job!! 😭"), ("Maya", "started monday")],
                 [("Maya", "The Manager offered me the job"), ("Maya", "started monday")],
                 [("Sam", "what are you doing with the kids?"), ("Maya", "to Grandma!!! I start on monday"),
                  ("Maya", "first day was friday")]):
        last = told(talk)[len(told(talk[:-1])):]  # what the last message wrote
        assert not [f for f in last if f[1] in ("Google", "Javier", "The Manager", "Grandma")], talk
    assert told([("Sam", "To Cable Andino?"), ("Maya", "to Cable Andino!!! I start on 1 november"),
                 ("Maya", "and monday i started!!")])[-1][:3] == ("Maya", "Cable Andino", "assert")
    assert told([("Maya", "started monday. it's grand so far")]) == []
    assert told([("Maya", "I was offered the job at Acme"), ("Maya", "I turned it down, the pay was bad"),
                 ("Maya", "started monday")]) == []
    assert told([("Maya", "if i got the job at Acme i would cry"), ("Maya", "did you get the job at Acme?"),
                 ("Maya", "started monday")]) == []
    assert told([("Sam", "I got the job at Acme!!"), ("Maya", "started monday")]) == [
        ("Sam", "Acme", "assert", None)]  # the other's job
    assert [f for f in told([("Maya", "I got the job at Acme!"), ("Maya", "started running again"),
                             ("Maya", "she started monday"), ("Maya", "first day of the holidays lol")])
            if f[2] == "assert"] == [("Maya", "Acme", "assert", None)]


@pytest.mark.engine_free
def test_a_move_told_with_no_place_is_to_the_place_planned():
    """"i'm moving to Delfshaven in june", then "moved in yesterday": the home is the place planned, from the day
    the words give; not without a plan, nor asked, nor someone else's move."""
    def told(talk: list[tuple[str, str]]) -> list[tuple]:
        extractor, at, found, before = RuleExtractor(), REF, [], None
        for who, text in talk:
            at += timedelta(days=20)
            found += [(f.subject, f.object, f.valid_from and f.valid_from.date().isoformat(), f.sure)
                      for f in extractor.extract(text, reference_time=at, speaker=who,
                                                 other="Sam" if who == "Maya" else "Maya", previous=before)
                      if f.predicate == "lives_in"]
            before = Turn(speaker=who, text=text)
        return found

    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Maya", "got it. moved in yesterday. boxes")]) == [
        ("Maya", "Delfshaven", "2026-06-16", True)]
    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Maya", "all moved. 3 trips with the van")]) == [
        ("Maya", "Delfshaven", None, True)]
    assert told([("Maya", "moved in yesterday. boxes everywhere")]) == []
    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Sam", "have you moved yet?"),
                 ("Maya", "she moved in last week, my sister"), ("Maya", "i moved the sofa lol")]) == []
    # from the fourteenth session's attack: moving other things, other senses, other people, other times
    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Maya", "i moved a meeting so i can call you"),
                 ("Maya", "Moved by that film tbh"), ("Maya", "Jake just moved in next door"),
                 ("Maya", "we moved twice as a kid"), ("Maya", "i moved in 2019 from york"),
                 ("Maya", "we moved in. jk still packing"), ("Maya", "i moved teams at work")]) == []
    # from the second attack: another place, a feeling, a game's turn, an office, a hotel, a date moved
    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Maya", "we moved!!! to bristol 😂 long story"),
                 ("Maya", "we moved!! but not to delfshaven, bradford was cheaper"),
                 ("Maya", "moved!!! 😭 that video of the dog"), ("Maya", "ok moved, your turn"),
                 ("Maya", "all moved. office is nice, new desk by the window"),
                 ("Maya", "we moved yesterday. to a hotel, the flat flooded"),
                 ("Maya", "update. moved. to august. landlord delayed")]) == []
    assert told([("Maya", "i'm moving to Delfshaven in june!!"), ("Sam", "did u move the car?"),
                 ("Maya", "yes moved. on the 1st")]) == []
    # a new user's: no home's word, the place planned named
    assert told([("Maya", "so I found a place in Actur with a little garden"), ("Maya", "I move on the 1st"),
                 ("Maya", "Moved!!! I'm officially in Actur")]) == [("Maya", "Actur", None, True)]
    assert told([("Maya", "so I found a place in Actur with a little garden"),
                 ("Maya", "moved!!! 😭 that video of the dog in Actur. jk not yet")]) == []
    assert told([("Maya", "WE GOT ONE"), ("Maya", "2 bed in Ancoats, 8th floor, view of the old mills"),
                 ("Maya", "keys on the 17th april, moving on the 18th"),
                 ("Maya", "Moved!!! everything is in boxes")]) == [("Maya", "Ancoats", None, True)]
    # the home the message names is where the move was to, planned or not; not a home of someone else's, an old
    # one, one for a stay, nor one of two
    assert told([("Maya", "i'm moving to Delfshaven in june!!"),
                 ("Maya", "we moved last saturday. Mila's parents found us a flat in Kapana, the old quarter")]) == [
        ("Maya", "Kapana", "2026-06-13", True)]
    assert told([("Maya", "i moved! my own place. a little studio apartment in Leslieville. moved on the 2nd")]) == [
        ("Maya", "Leslieville", "2026-05-02", True)]
    # a new user's: the new home opening a sentence, without "a" or "my"; not the new neighbours, nor after a meeting
    assert told([("Maya", "we moved! new place in Roundhay")]) == [("Maya", "Roundhay", None, True)]
    assert told([("Maya", "moved yesterday. new flat in Headingley is tiny but mine")]) == [
        ("Maya", "Headingley", "2026-05-27", True)]
    assert told([("Maya", "we moved! new neighbours in Roundhay are loud"),
                 ("Maya", "moved the meeting. new place in Roundhay is the venue")]) == []
    # a reviewer's: the home sold, left, someone else's, on the market, looked at, wished for; and the plan kept
    assert told([("Maya", line) for line in (
        "moved on saturday, finally. my parents still have their house in Leeds tho",
        "moved last saturday. we sold the house in Leeds", "moved last saturday. we were in a flat in Leeds before",
        "moved last saturday. miss the flat in Leeds already", "we finally moved! leaving the house in Leeds was hard",
        "moved last saturday. my brother still has a flat in Leeds", "moved last saturday. his flat in Leeds is empty",
        "moved last saturday. the house in Leeds is on the market", "moved. the house in Leeds goes to my sister",
        "moved last saturday. looking at a flat in Kapana for next year",
        "moved last saturday. a flat in Kapana would have been nicer")]) == []
    assert told([("Maya", "we are moving to York next month!"),
                 ("Maya", "moved last saturday! we sold the house in Leeds to a lovely couple")]) == [
        ("Maya", "York", "2026-06-13", True)]
    assert told([("Maya", "moved in yesterday! my parents' house in Leeds is so quiet now, they said"),
                 ("Maya", "we moved last saturday. my old flat in Leeds is empty"),
                 ("Maya", "moved on the 3rd. we rent a flat in Porto for the week first"),
                 ("Maya", "moved on the 3rd. a flat in Porto, and a house in Braga for the summer"),
                 ("Maya", "we moved?? a flat in Porto??"), ("Maya", "moved in yesterday. a flat in kapana")]) == []
    # the thirty-first session: a home moved into, named by its place; not someone else's, a style, a stay, one left
    # since, a new flat with no place, nor a place said after the move (a reviewer's: "London, you will be missed")
    assert told([("Maya", "Well, we've done it. Moved into the Strathdale unit on the 3rd. boxes")]) == [
        ("Maya", "Strathdale", "2026-05-03", True)]
    assert told([("Maya", line) for line in (
        "my sister moved into the Leeds flat", "Tom and Ana moved into the Leeds flat", "we moved into the blue house",
        "moved into the new flat on wednesday!! so tired", "should we move into the Leeds flat?",
        "we moved into the nice house on the corner", "We moved into the Edwardian house last week",
        "we moved into the Paris apartment for a month, back home in August",
        "we moved into the Leeds flat in 2019 and moved out last year", "got the keys to the Tenerife apartment",
        "we moved on Saturday. London, you will be missed.", "Moved in yesterday! Netflix, pizza, bed.",
        "my sister just moved into the new flat! Shettleston.")]) == []
    # a place said after the move, then what the home is like (h28's, which the labels hold; "London, you will be
    # missed" tells no home)
    assert told([("Maya", "moved on the 1st! Zaisan, 9th floor")]) == [("Maya", "Zaisan", "2026-05-01", True)]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a team's name is nobody's nickname; a sport's practice is not the town it shares a name with
    ('i joined the team from the hospital, we\'re called "the quizzy rascals". we\'re terrible', []),
    ("just got home from derby practice, i'm covered in bruises", []),
    ("just got back from Derby, it was great", [("assert", "Maya", "traveled_to", "Derby", None, None)]),
])
def test_a_name_that_is_a_teams_or_a_sports(text, expected):
    assert [f for f in facts(text) if f[2] in ("is_called", "traveled_to")] == expected


@pytest.mark.engine_free
def test_one_fact_where_a_message_tells_it_once_more_fully():
    """The turn before named the harvest party; "the party was good" is that party once, not it and "party";
    tastes are not occasions ("i love jazz and acid jazz" is two)."""
    said = facts("sorry. the party was good, I danced too much", previous=Turn(
        speaker="Sam", text="how was the harvest party??"))
    assert [f[3] for f in said if f[2] == "attended"] == ["harvest party"]
    assert sorted(f[3] for f in facts("i love jazz and acid jazz") if f[2] == "likes") == ["acid jazz", "jazz"]


@pytest.mark.engine_free
def test_an_event_told_by_when_it_was_in_a_later_sentence_or_after_ones_own_turn():
    """"the wedding yesterday destroyed me" in a message's third sentence, after the speaker's own turn: attended;
    not when the sentence says it did not happen, nor someone's hearsay."""
    mine = Turn(speaker="Maya", text="classic. the amount of dads i've wheeled out")
    assert [f[3] for f in facts("sips I'm alive. barely. the wedding yesterday destroyed me", previous=mine)
            if f[2] == "attended"] == ["wedding"]
    assert [f for f in facts("ugh. long week. the wedding was cancelled", previous=mine) if f[2] == "attended"] == []
    assert [f for f in facts("ok. so. the party was wild apparently", previous=mine) if f[2] == "attended"] == []
    # from the second attack: to come, not gone, someone else's, watched
    for text in ("omg. the concert on saturday!! cant wait",
                 "nope. the wedding yesterday was so good but we couldn't go",
                 "ok. the gig last night was amazing. jake went", "did u see? the game last night was insane"):
        assert [f for f in facts(text) if f[2] == "attended"] == [], text
    watched = Turn(speaker="Maya", text="we watched the final at home")
    assert [f for f in facts("the game last night was insane", previous=watched) if f[2] == "attended"] == []


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a language before a noun describes it: no language learnt
    ("exactly. heaps of french engineers, I'm learning french swear words", []),
    ("we're doing norwegian folk songs and i understand like 40% of the words", []),
    ("I'm learning french", ["french"]), ("i'm learning spanish at night school", ["spanish"]),
])
def test_a_language_before_a_noun_is_no_language_learnt(text, expected):
    assert [f[3] for f in facts(text) if f[2] == "does"] == expected



@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # hobbies known by name, and the verbs' other senses
    ("i stopped batik. too slow for me", [("end", "batik")]), ("And I've given up croquet.", [("end", "croquet")]),
    ("i started swimming in the mornings", [("assert", "swimming")]), ("stopped diving into my savings", []),
    ("i started rambling again sorry", []), ("started wrestling with my taxes", []),
])
def test_hobbies_by_name_and_their_verbs_other_senses(text, expected):
    assert [(f[0], f[3]) for f in facts(text) if f[2] == "does"] == expected


@pytest.mark.engine_free
def test_a_name_that_is_ones_own_is_no_other_name():
    """"hi i'm orla" by Orla records nothing; by a speaker the chat calls "user", it is the name they go by."""
    def called(text: str, speaker: str) -> list[str | None]:
        return [f.object for f in RuleExtractor().extract(text, reference_time=REF, speaker=speaker, other="Sam")
                if f.predicate == "is_called"]

    assert called("hello I'm orla I have a cat 😂", "Orla") == []
    assert called("everyone calls me Órla now", "Orla") == []
    assert called("hi i'm Orla", "user") == ["Orla"]
    assert called("everyone calls me Orly", "Orla") == ["Orly"]


@pytest.mark.engine_free
def test_a_person_the_speaker_names_after_a_relation_word_may_be_whom_he_means():
    """"My friend Chief Ogunleye is …. He has 4000 birds": "he" could be the friend, so not Kelechi, whom the
    turn before named (nothing is said of anyone); with no one else named, "he" is Kelechi."""
    before = Turn(speaker="Tunde", text="Sunday (my driver) is asking for raise again. Kelechi is asking too.")

    def pets(text: str) -> list[tuple[str, str | None]]:
        return [(f.subject, f.object) for f in RuleExtractor().extract(
            text, reference_time=REF, speaker="Tunde", other="Kemi", previous=before) if f.predicate == "has_pet"]

    assert pets("My friend Chief Ogunleye is telling me to go into poultry. He has 4000 birds in Epe.") == []
    assert pets("My friend Tunji is so happy. He has a new puppy") == []
    assert pets("He has a new puppy lol") == [("Kelechi", "puppy")]


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "doubt"), [
    ("i have a dog!", "told by its kind's word alone"),
    ("i love jazz", "a taste or a thing had"),
    ("we broke up.", "an end that names nothing"),
    ("greetings from olomouc!", "a trip told only by a greeting"),
    ("and i signed up for a pottery class. wheel throwing, 8 weeks, wednesday nights", "signed up for a class"),
])
def test_a_fact_left_for_review_says_why(text, doubt):
    """What waits for review carries its doubt in a reviewer's words (the pending proposal's reason); what is
    written carries none, and a model is never asked for either (neither is in the schema)."""
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
    assert found and all(not f.sure and f.doubt and f.doubt.startswith(doubt) for f in found), found
    [sure] = RuleExtractor().extract("I moved to Leeds last week", reference_time=REF, speaker="Maya", other="Sam")
    assert sure.sure and sure.doubt is None
    assert not {"sure", "doubt"} & set(ExtractedFact.model_json_schema()["properties"])


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # a new user's chat: the job's start told in the next sentence is when it begins (a plan while to come)
    ("i got a job at Monzo!!!! start in april", [("works_at", "Monzo", "2027-04-01", False)]),  # said in May
    ("got the job at Monzo. first day is june 2nd", [("works_at", "Monzo", "2026-06-02", False)]),
    ("i got a job at Monzo. start 9th january", [("works_at", "Monzo", "2027-01-09", False)]),  # next year's
    ("i got a job at Monzo. start dancing now", [("works_at", "Monzo", None, True)]),  # no time: as before
    # a new user's family chat: a sentence of the role between, and a day of the week alone (said on a Friday)
    ("guess what... i got the job at Kenepuru!! medical records admin. start 2 march 🎉",
     [("works_at", "Kenepuru", "2027-03-02", False)]),
    ("i got the job at Kenepuru!! starting monday", [("works_at", "Kenepuru", "2026-05-11", False)]),
    ("i got the job at Kenepuru. start on wednesday", [("works_at", "Kenepuru", "2026-05-13", False)]),
    ("i got the job at Kenepuru!! I start this monday", [("works_at", "Kenepuru", "2026-05-11", False)]),
    # a reviewer's: what comes between is another thing's start, or more than a role
    ("i got the job at Tesco!! and my diet too haha. starting monday", [("works_at", "Tesco", None, True)]),
    ("I got the job at Tesco! Sam's new course is great. starting monday", [("works_at", "Tesco", None, True)]),
    ("i got the job at Tesco. Lily got into Otago. start 2 march", [("works_at", "Tesco", None, True)]),
    ("got the job at Tesco!! cried. laughed. cried again. start in april", [("works_at", "Tesco", None, True)]),
    ("got a job at Tesco. start in the autumn", [("works_at", "Tesco", "2026-09-01", False)]),
    # a reviewer's: a job held has shifts that start, and someone else's job is not the speaker's start
    ("i work at Tesco. starting nights next week", [("works_at", "Tesco", None, True)]),
    ("Ben got a job at Asda. I start in may", [("works_at", "Asda", None, True)]),
    # a new user's: a first day wished luck is the other person's, not the speaker's
    ("good luck today nads!! first day at arup 💪", []),
    ("first day at octopus!! good luck kay 🐙", []),
    ("first day at Arup today. good luck to me lol", [("works_at", "Arup", "2026-05-08", True)]),
    ("started at Arup today!! good luck to you too with the move", [("works_at", "Arup", "2026-05-08", True)]),
    # one trip told twice in a message is one fact, the dated one
    ("back from whitby. we went to Whitby last weekend and it rained the entire time",
     [("traveled_to", "Whitby", "2026-05-02", True)]),
    ("back from Kraków! went to krakow last week", [("traveled_to", "Kraków", "2026-04-27", True)]),  # as written
    # a reviewer's: another time at the same place is another trip
    ("went to Rome. such a vibe. we went to rome last year too tbh",
     [("traveled_to", "Rome", None, True), ("traveled_to", "rome", "2025-01-01", True)]),
])
def test_a_start_told_after_its_job_and_a_trip_told_twice(text, expected):
    found = RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
    assert [(f.predicate, f.object, f.valid_from.date().isoformat() if f.valid_from else None, f.sure)
            for f in found] == expected


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "expected"), [
    # an employer named after "the" with nouns after it: a place's bank is the bank; a firm's site is the firm
    ("i work at the Leeds food bank", [("Maya", "works_at", "Leeds food bank", True)]),
    ("i work at the Amazon warehouse", [("Maya", "works_at", "Amazon", True)]),
    ("i work at the Hilton front desk", [("Maya", "works_at", "Hilton", True)]),
    ("i work at the Guardian part-time", [("Maya", "works_at", "Guardian", True)]),
    ("i work at the Lagos office of Deloitte", []),  # a place's office: the firm is elsewhere
    ("oh yes, i joined the Wayanad bird atlas last month", []),  # joined a thing of Wayanad's, no employer
    ("joined the Kerala police force", []),
    # a named day one went to is an event, for review (as often a venue: "Happy Days")
    ("we went to the National Wine Day in Chișinău", [("Maya", "attended", "National Wine Day", False)]),
    ("went to Happy Days last night, the burgers", [("Maya", "traveled_to", "Happy Days", False)]),
    # a question with no question mark after a comma or a colon is left out, up to the next mark
    ("i told her about Fatima. 3 questions: does she pray, does she cook, when do i meet her", []),
    ("lol ok, do u want pizza, btw i got the job at Ocado!!", [("Maya", "works_at", "Ocado", True)]),
    ("hey, did you eat, i just moved to Leeds btw", [("Maya", "lives_in", "Leeds", True)]),
    # a people's word before people is no one met; a name that is also a language's is
    ("i met the Japanese people from our old online group, Kenji and Sachiko", []),
    ("met Danish at the gym, he says hi", [("Maya", "met", "Danish", True)]),
    # a relative's name typed in lower case is the subject of its verb, when it can be a name
    ("also my sister elisa moved to munich", [("elisa", "lives_in", "munich", True)]),
    ("here my brother sizwe moved to cape town on the 1st", [("sizwe", "lives_in", "cape town", True)]),
    ("my brother tunde moved to lagos", [("tunde", "lives_in", "lagos", True)]),  # a letter more than "tune"
    ("my cousin clement joined a choir", [("clement", "member_of", "choir", True)]),  # a choir joined is written (h68)
    ("my mum alredy lives in leeds", []),  # chat spellings are no names: "alredy", "stil", "tho", "obvs"
    ("my brother stil lives in leeds", []),
    ("my sister tho lives in leeds", []),
    ("my brother obvs works at google", []),
    # a third new user's
    ("im a nurse at southmead not a vampire", [("Maya", "works_at", "southmead", True)]),
    ("and i got the job at the RUH, i start on the 22nd", [("Maya", "works_at", "RUH", False)]),  # a plan: review
])
def test_the_twenty_sixth_session_s_readings(text, expected):
    found = [f for f in RuleExtractor().extract(text, reference_time=REF, speaker="Maya", other="Sam")
             if relation_of(f.predicate) is None and f.predicate != ALIAS]
    assert [(f.subject, f.predicate, f.object, f.sure) for f in found] == expected


@pytest.mark.engine_free
def test_a_new_users_chat_from_a_father_and_his_daughter():
    """The thirty-first session's new user: a baby's name is not the last one named's, a doctor and a machine are no
    trip, a training run is no race, and signing up at a club joins it."""
    assert facts("Josie, Stuart has just rung. Kirsty had a baby girl at 3.20 this morning, 7lb 4oz. Both well. "
                 "They are calling her Isla. I am a grandfather again! Dad", speaker="Malcolm") == []
    assert facts("Went to the GP. Nothing to worry about.") == facts("I went to the ATM") == []
    assert facts("I went to the US")[0][2:4] == ("traveled_to", "US")
    assert facts("did my first 10k training run this morning!!") == []
    assert facts("I ran the Leeds 10k on sunday")[0][2:4] == ("attended", "Leeds 10k")
    assert facts("I have signed up at Hollins Park Bowls Club.") == [
        ("assert", "Maya", "member_of", "Hollins Park Bowls Club", None, None)]
    # someone met, named in lower case where the words say a name; not a word ("a girl called cheese")
    assert facts("i met a guy called kieran at the party") == [("assert", "Maya", "met", "Kieran", None, None)]
    assert facts("and i met farid's whole family. like 60 aunties") == [
        ("assert", "Maya", "met", "Farid's family", None, None)]
    assert facts("i met a girl called cheese lol") == facts("met the neighbour's kids") == []
    # a trip to someone's in a place: "went to Elena's parents in Ungheni" (not one's own office or flat)
    assert facts("we went to Elena's parents in Ungheni. her mother made eggs") == [
        ("assert", "Maya", "traveled_to", "Ungheni", None, None)]
    assert facts("I went to my office in Leeds") == facts("went back to my parents in Galway") == []
    # a reviewer's: an emoji inside a sentence ends nothing ("my brother 🙄 moved to Leeds" is his move); a name
    # written with a capital, a title or one's own "hubby" is no lower-case name met
    assert not any(f[1] == "Maya" and f[2] == "lives_in" for f in facts("my brother 🙄 moved to Leeds last week"))
    assert not any(f[1] == "Maya" for f in facts("Tom 😂 got a job at Google"))
    assert facts("I met a woman named Maria Lopez at work") == [("assert", "Maya", "met", "Maria Lopez", None, None)]
    assert facts("met a guy called Mr Smith")[0][3] == "Mr Smith"
    assert facts("met hubby's whole family") == facts("met bf's parents finally") == []
    assert facts("went to the DR for a week")[0][2:4] == ("traveled_to", "DR")
    # a second new user's: "Ma" alone is no one each speaker shares; "Mine" is nobody; a reviewer's: "my MA thesis" is
    # no mother, and names that begin with a family word stay names ("Ma Li", "Nani Silva", "my uncle Chacha")
    assert facts("Ma lives in Bombay.") == facts("Mine is in London lol") == facts("my MA thesis is due in June") == []
    assert facts("Ma Li lives in Beijing") == [("assert", "Ma Li", "lives_in", "Beijing", None, None)]
    assert facts("I met Ma Li at work") == [("assert", "Maya", "met", "Ma Li", None, None)]
    assert facts("my uncle Chacha lives in Jaipur") == [("assert", "Chacha", "lives_in", "Jaipur", None, None)]
    # from dev's wrongs: being somewhere said as the time of something else, or counted down to, is no trip now
    assert facts("Priya is driving from Muscat to babysit them while I'm in kampala") == []
    assert facts("ok. 7 weeks and im in são paulo with the snakes") == []
    assert facts("im in Lisbon!!")[0][2:4] == ("traveled_to", "Lisbon")


@pytest.mark.engine_free
def test_a_family_group_chat_s_modal_openings_and_greetings():
    """The thirty-sixth session's new user (a family's WhatsApp group): "Should have stayed in the Mercy" made
    someone called "Should" who went to the Mercy, "Should have got the Honda" one who owns it, and "Happy new year to
    all my chickens xx" gave Mam chickens."""
    assert facts("Should have stayed in the Mercy", speaker="Podge") == []
    assert facts("Should have got the Honda", speaker="Podge") == []
    assert facts("Could have told me lol") == facts("Would go to Lisbon if I could") == []
    assert facts("Happy new year to all my chickens xx", speaker="Mam") == []
    assert facts("love to all of my babies") == facts("Good morning to all my chickens") == []
    assert [f[2:4] for f in facts("all my cats are asleep")] == [("has_pet", "cats")]  # not said to anyone
    # a reviewer's: the contracted and slang forms, and "to all my" where no greeting opens the sentence
    for said in ("Shouldn't have stayed in the Mercy", "Shouldn’t have stayed in the Mercy", "Shoulda got the Honda",
                 "Couldnt have picked a worse day, went to Cork", "Needn't have bought the Honda"):
        assert facts(said, speaker="Podge") == [], said
    assert [f[1:4] for f in facts("Will moved to Leeds")] == [("Will", "lives_in", "Leeds")]  # a name still
    assert [f[2:4] for f in facts("I fed the scraps to all my chickens", speaker="Mam")] == [("has_pet", "chickens")]
    # "We're in Boston this year, Aoife's family's turn" (Christmas to come, where he lives) was a trip of a year
    assert facts("We're in Boston this year, Aoife's family's turn", speaker="Ciarán") == []
    assert [f[2:4] for f in facts("I'm in Paris this month for work")] == [("traveled_to", "Paris")]


@pytest.mark.engine_free
def test_performing_at_an_event_travelling_by_a_means_and_a_thing_under_way_since_yesterday():
    """The forty-first session's readings from dev (h89 and earlier): playing, singing or dancing at an event is
    being there ("we played at a festival in Braslav last weekend", d14's "We sang at the 9 o'clock service",
    h37's garden party); "i go by train" (h73) is how one travels, no name; "my mother has been cooking since
    yesterday" (h82) and "been painting since this morning" are things under way, no pastime begun."""
    assert [f[2:5] for f in facts("we played at a festival in Braslav last weekend! by the lakes")] == [
        ("attended", "festival", "2026-05-02")]
    assert [f[2:4] for f in facts("we played at the parish garden party last sunday")] == [
        ("attended", "parish garden party")]
    assert facts("we played at the pub, it was packed") == facts("i danced at the club til 4") == []
    assert facts("interview on wednesday. in mostar. i go by train") == facts("i go by bus usually") == []
    assert facts("i go by feel with the spices") == []
    assert [f[2:4] for f in facts("i go by Kate now, nobody calls me Katherine")] == [("is_called", "Kate")]
    assert not any(f[2] == "does" for f in facts("my mother has been cooking since yesterday. there is fufu"))
    assert facts("ive been painting since this morning lol") == []
    assert [f[2:5] for f in facts("I have been running since March, 3 times a week")] == [
        ("does", "running", "2026-03-01")]
    assert [f[2:5] for f in facts("started pottery yesterday!!")] == [("does", "pottery", "2026-05-07")]
    # h86: being somewhere to come is no trip; the house's work is no pastime (d9's swimming is)
    assert facts("November! I'll be in London for that baby if I have to swim") == []
    assert facts("might be in Leeds for work") == []
    assert [f[2:4] for f in facts("I'm in London for the wedding!!")] == [("traveled_to", "London")]
    assert facts("Graham's doing the cooking, which means toast") == []
    assert facts("I do the cooking and he does the washing up") == []
    assert [f[2:4] for f in facts("still doing the swimming though!")] == [("does", "swimming")]


@pytest.mark.engine_free
def test_a_diary_s_firm_with_co_a_gran_visited_a_bike_missed_and_a_flat_got():
    """A twenty-sixth new user's diary: "Brindle & Co. Derek was…" made the employer "Brindle & Co. Derek"; "Visited
    Nana Jean." a trip to her; "now I miss my bike lol", after it was sold, the bike owned again; "GOT THE FLAT."
    (rented) a flat owned."""
    assert [f[2:4] for f in facts("Handed in my notice at Brindle & Co. Derek was surprisingly nice about it.")] == [
        ("works_at", "Brindle & Co")]
    assert [f[:4] for f in facts("Last day at Brindle & Co. Handed back my pass.")] == [
        ("end", "Maya", "works_at", "Brindle & Co")]
    assert [f[2:4] for f in facts("I work at Smith & Co. Ltd now")] == [("works_at", "Smith & Co. Ltd")]
    assert facts("Visited Nana Jean. She's cross that she's not allowed to dig.") == []
    assert facts("visited Auntie Grace") == []
    assert [f[2:4] for f in facts("visited Leeds last weekend")] == [("traveled_to", "Leeds")]
    assert facts("Bikes everywhere, now I miss my bike lol") == facts("i really miss my cat") == []
    assert [f[2:4] for f in facts("my bike got a puncture")] == [("owns", "bike")]
    assert facts("GOT THE FLAT. Moving on the 25th.") == facts("we got the house!! moving in may") == []
    assert [f[2:4] for f in facts("we bought a house in Leeds!")] == [("owns", "house")]


@pytest.mark.engine_free
def test_a_job_begun_at_a_place_in_lower_case_then_its_day():
    """Dev's "and i started at spokes on wednesday" (d5), "started at the port authority on sunday" (h18), "started at
    maison delorme on the 12th" (h24): a place in lower case, then the day it was begun, is a job begun there (9 of the
    dev chats' 10; not a time, a gym, a school: "started at 9 on monday", "the gym", "universiti malaya")."""
    assert [f[2:5] for f in facts("and i started at spokes on wednesday. big davie made me clean chains all day")] == [
        ("works_at", "spokes", "2026-05-06")]
    assert [f[2:4] for f in facts("started at the port authority on sunday. everyone is an engineer")] == [
        ("works_at", "port authority")]
    assert [f[2:4] for f in facts("i already do. and i started at maison delorme on the 12th.")] == [
        ("works_at", "maison delorme")]
    assert [f[2:5] for f in facts("Started at swissport today!!")] == [("works_at", "swissport", "2026-05-08")]  # a
    # new user's: the verb with its capital; a reviewer's: a meal, an hour, a time of day is no place of work
    for said in ("Started at lunch today", "Started at six today", "Started at ten on monday", "Started at the start "
                 "today", "Started at half time today", "started at sunrise today"):
        assert not any(f[2] == "works_at" for f in facts(said)), said
    for said in ("started at 9 on monday lol", "i started at the gym on monday", "the party started at midnight on "
                 "saturday", "we started at the top on sunday and walked down", "started at the academy on the 13th"):
        assert not any(f[2] == "works_at" for f in facts(said)), said


@pytest.mark.engine_free
@pytest.mark.parametrize(("zone", "said", "start"), [
    ("America/New_York", datetime(2026, 10, 28, 12, tzinfo=UTC), datetime(2026, 11, 2, 5, tzinfo=UTC)),
    ("Europe/London", datetime(2026, 3, 25, 12, tzinfo=UTC), datetime(2026, 3, 29, 23, tzinfo=UTC)),
])
def test_a_weekday_to_start_on_is_a_local_midnight_across_a_change_of_the_clocks(zone, said, start):
    """A reviewer's: "start monday", a week on from the Monday gone, was taken a week on in UTC: an hour off."""
    found = RuleExtractor(tz=zone).extract("i got the job at Tesco!! start monday", reference_time=said,
                                           speaker="Maya", other="Sam")
    assert [(f.object, f.valid_from) for f in found] == [("Tesco", start)]


@pytest.mark.engine_free
def test_a_vehicle_described_by_its_engine_after_a_comma_then_bought():
    """A dev chat's (h88): "and a new truck. Ford Maverick, hybrid, blue. bought it on Thursday." (the engine after a
    comma, as after a space: "Toyota Yaris hybrid, 2022"); the engine alone describes no vehicle."""
    assert [f[2:5] for f in facts("and a new truck. Ford Maverick, hybrid, blue. bought it on Thursday.")] == [
        ("owns", "Ford Maverick", "2026-05-07")]
    assert [f[2:5] for f in facts("Toyota Yaris hybrid, 2022. bought it yesterday")] == [
        ("owns", "Toyota Yaris", "2026-05-07")]
    assert facts("Toyota Yaris, electric. bought it yesterday") == []


@pytest.mark.engine_free
def test_more_kinds_of_event_are_events():
    """Dev's misses: a congress, a competition, a braai, a mela, a bonspiel, awards and mass are events one attends (on
    dev, 10 more right and none wrong when they were added)."""
    assert [f[2:4] for f in facts("went to midnight mass with mum")] == [("attended", "midnight mass")]
    assert [f[2:4] for f in facts("and yesterday i finally went to the boi mela, the big book fair")][:1] == [
        ("attended", "boi mela")]
    assert [f[2:4] for f in facts("we went to a farewell braai on saturday")] == [("attended", "farewell braai")]


@pytest.mark.engine_free
def test_a_move_told_with_where_the_speaker_is_now():
    """Dev's "We are in Qamsar! We moved on Tuesday 🏡" (h72) and "greetings from Otaru! We moved last Wednesday" (d20):
    a move told with where the message says the speaker is, in a chat between two people, is a home there (not "we
    moved our stuff into storage", nor "hi from Paris! we moved to a bigger room": no home moved, a visit)."""
    assert [f[2:5] for f in facts("We are in Qamsar! We moved on Tuesday 🏡")] == [
        ("lives_in", "Qamsar", "2026-05-05")]
    assert [f[2:4] for f in facts("Gwyn-san, greetings from Otaru! We moved last Wednesday. The flat is small")] == [
        ("lives_in", "Otaru")]
    read = RuleExtractor().extract("hi from Paris! we moved to a bigger room", reference_time=REF, speaker="Maya",
                                   other="Sam")
    assert not any(f.predicate == "lives_in" and f.sure for f in read)


@pytest.mark.engine_free
def test_a_reviewer_s_near_variants_of_the_forty_first_session_s_readings():
    """A reviewer of the forty-first session's change: "Gran Canaria" lost to the kin word "gran"; "Visited Nana Jean in
    Leeds" lost Leeds; "since" for "because" dropped a start; "Co. Down" cut to "Co"; "Smith & Co. Solicitors" cut;
    "a home security camera" no longer owned; "played at weddings for years" one wedding; "i go by bicycle" a name."""
    assert [f[2:4] for f in facts("we went to Gran Canaria last week")] == [("traveled_to", "Gran Canaria")]
    assert [f[2:4] for f in facts("Visited Nana Jean in Leeds last weekend")] == [("traveled_to", "Leeds")]
    assert [f[2:4] for f in facts("I visited Aunt Mary in Boston")] == [("traveled_to", "Boston")]
    assert [f[2:4] for f in facts("took up running yesterday since the gym's closed")] == [("does", "running")]
    assert [f[2:4] for f in facts("started pottery yesterday, been hooked ever since")] == [("does", "pottery")]
    assert [f[2:4] for f in facts("I live in Co. Down")] == [("lives_in", "Co. Down")]
    assert [f[2:4] for f in facts("I work at Smith & Co. Solicitors now")] == [("works_at", "Smith & Co. Solicitors")]
    assert [f[2:4] for f in facts("got a home security camera")] == [("owns", "home security camera")]
    assert facts("we played at weddings for years") == facts("I've played at the festival every year since 2015") == []
    assert facts("i go by bicycle") == facts("go by Jess's place on your way") == []
    # a second reviewer's: "a flat tyre" is no flat; a kin word of another language; "Sam's wedding" an event; a school,
    # a beach no job; a check is no statement; the speaker's whereabouts no home unless a place
    assert facts("I got a flat tyre") == []
    assert [f[2:4] for f in facts("Visited Tante Anna in Berlin")] == [("traveled_to", "Berlin")]
    assert [f[2:4] for f in facts("we played at Sam's wedding last night")] == [("attended", "Sam's wedding")]
    assert facts("i started at universiti malaya last week") == facts("i started at the beach on sunday") == []
    assert facts("I live in Berlin, is that right?") == facts("I live in Berlin, do I?") == []
    assert not any(f[2] == "lives_in" for f in facts("We moved on Tuesday. We're in Shock"))


@pytest.mark.engine_free
def test_a_long_message_of_kin_names_visited_is_read_in_linear_time():
    """A reviewer's: "Visited Nana Jean. " two thousand times took 10.7 s (0.5 s before the kin rule): each sentence
    read the whole message again to see whether it was typed in lower case. Counted, not timed: the message is read
    for capitals once."""
    from unittest import mock

    import graphmem.extract._rules as rules

    with mock.patch.object(rules, "_uncapitalised", wraps=rules._uncapitalised) as read:
        RuleExtractor().extract("Visited Nana Jean. " * 200, reference_time=REF, speaker="Maya", other="Sam")
    assert read.call_count <= 1


@pytest.mark.engine_free
def test_something_told_then_a_question_and_a_relative_named_after_is():
    """A twenty-eighth new user's memories from another assistant: "My mother is Maureen." lost the name (Dara's
    mother, nameless; "My partner is Ciaran." still does, a name the name data lacks); "I hate mushrooms, what can I
    use instead in a risotto?" gave nothing (the question took the sentence's fact with it). Not "my mum is Irish",
    "my dad is Catholic", "do you think I should move to Leeds, what do you think?"."""
    from graphmem.extract import RuleExtractor as Rules

    def said(text: str) -> list[tuple]:
        return [(f.subject, f.predicate, f.object) for f in Rules().extract(text, reference_time=REF, speaker="Dara",
                                                                            other="Sam")]

    assert ("Ciaran", "partner_of", "Dara") not in said("My partner is Ciaran.")  # (a name no name data knows: a
    # second reviewer's "My dad is Hindu", "My husband is Kiwi" were names when any word not of English was)
    for text in ("My dad is Hindu.", "My husband is Kiwi.", "my mum is Grace-ful", "My partner is Vegan."):
        assert not any(f[1].endswith("_of") and not f[0].startswith("Dara") for f in said(text)), text
    assert ("Maureen", "mother_of", "Dara") in said("My mother is Maureen.")
    assert ("Helen Byrne", "boss_of", "Dara") in said("My manager is Helen Byrne.")
    for text in ("my mum is Irish", "my dad is Catholic", "my boss is Dutch.", "my mum is Kenyan", "my sister is Free"):
        assert not any(f[0] not in ("Dara", f"Dara's {f[1].removesuffix('_of')}") and f[1].endswith("_of")
                       for f in said(text)), text
    assert [f[2:4] for f in facts("I play guitar, can you suggest some easy songs?")] == [("does", "guitar")]
    assert [f[2:4] for f in facts("I hate mushrooms, what can I use instead in a risotto?")] == [
        ("dislikes", "mushrooms")]
    assert facts("do you think I should move to Leeds, what do you think?") == []
    assert facts("if I moved to Leeds, would you visit?") == []


def _talk(talk: list[tuple[str, str]]) -> list[tuple]:
    """Each message's facts, in order, read by one extractor a day apart: (op, subject, predicate, object, sure)."""
    extractor, at, found, before = RuleExtractor(), REF, [], None
    for who, text in talk:
        at += timedelta(days=1)
        found.append([(f.op, f.subject, f.predicate, f.object, f.sure) for f in extractor.extract(
            text, reference_time=at, speaker=who, other="Sam" if who == "Maya" else "Maya", previous=before)])
        before = Turn(speaker=who, text=text)
    return found


@pytest.mark.engine_free
def test_a_car_sold_ends_the_one_car_told_by_its_model():
    """A thirtieth new user's: "I bought a car. 2013 Fiat Uno, white", then "I sold my car today": the end of `owns
    car` was refused and the Fiat Uno stayed owned. Not where a van or a motorbike is owned too (a dev chat's "i
    bought a van!! … Mazda Bongo", then "sold my motorbike"), nor a motorbike sold for a car owned."""
    said = _talk([("Maya", "I bought a car. 2013 Fiat Uno, white"), ("Sam", "congrats!"),
                  ("Maya", "I sold my car today")])
    assert said[0] == [("assert", "Maya", "owns", "Fiat Uno", True)]
    assert said[2] == [("end", "Maya", "owns", "Fiat Uno", False)]  # for review: the words do not say which car
    for other in ("sold my old car today, so sad", "I sold my car stereo today", "sold my car's tyres"):
        said = _talk([("Maya", "I bought a car. 2013 Fiat Uno, white"), ("Maya", other)])  # a reviewer's
        assert all(f[3] != "Fiat Uno" for f in said[1]), other
    said = _talk([("Maya", "i bought a van!!"), ("Maya", "Mazda Bongo, 2049. i picked it up on friday"),
                  ("Maya", "other news, i sold my car")])
    assert [f[3] for f in said[2]] == ["car"]
    said = _talk([("Maya", "I bought a car. 2013 Fiat Uno, white"), ("Maya", "I sold my motorbike today")])
    assert [f[3] for f in said[1]] == ["motorbike"]


@pytest.mark.engine_free
def test_a_correction_waits_for_review_and_a_return_is_no_trip():
    """A thirtieth new user's: "i was wrong, I live in Fisherton not Funes lol", three minutes after "I live in Funes
    now!", was written as a move (a home of three minutes: what it corrects is to be retracted); "Zainab flew back
    to London." a trip (where she lives: as "went back to", one returns home as often as on a trip)."""
    said = _talk([("Maya", "the new flat is great, I live in Funes now!"), ("Sam", "Funes? isnt it Fisherton?"),
                  ("Maya", "i was wrong, I live in Fisherton not Funes lol")])
    assert said[0] == [("assert", "Maya", "lives_in", "Funes", True)]
    assert said[2] == [("assert", "Maya", "lives_in", "Fisherton", False)]
    assert _talk([("Maya", "i was wrong. I live in Fisherton not Funes")])[0] == [
        ("assert", "Maya", "lives_in", "Fisherton", False)]  # the sentence before (a reviewer's)
    for wait in ("I started at Tesco today, there was no wait at the bus stop", "I was wrong to worry, I got the job "
                 "at Tesco!"):  # a reviewer's: words of a correction that correct nothing
        assert all(f[4] for f in _talk([("Maya", wait)])[0]), wait
    for back in ("Zainab flew back to London. the house is so quiet", "my brother drove back to Leeds yesterday"):
        assert not any(f[2] == "traveled_to" for f in facts(back)), back
    assert [f[2:4] for f in facts("we flew to Baghdad on 8 August")] == [("traveled_to", "Baghdad")]
