"""Chat-like messages for the benchmarks: many two-person conversations spread over months.

Deterministic from a seed. Each conversation is between two of the generator's people; it has
sessions a few days apart, each a run of turns minutes apart. A message is one to three
sentences of everyday talk (plans, compliments, small talk, work, pets, trips, food), about 8 to
40 words, with a long tail of rare words (names of bands, dishes, streets) and, in about one
message in eight, a time phrase ("yesterday", "last week", "in March"). Most messages support no
fact: they are what a memory has to search, not what it concluded.

:func:`with_messages` writes a copy of a generator log with the messages added as episodes
(each with the EPISODE write that records it, as ``Store.add_episode`` does), so a store of any
size loads in one ``Store.import_log``.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from pathlib import Path

from graphmem.core.times import UTC, iso

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
OPENERS = ("", "", "", "Hey!", "Hi {other}!", "Oh nice,", "Haha", "Wow,", "Honestly", "Yeah", "So", "Omg",
           "Sounds good!", "That's awesome!", "Aww", "Ugh", "Lol", "Right?", "Oh no,", "Nice!")
SENTENCES = (
    "I went {activity} with my {relation} {past}.",
    "Did you ever finish that {thing}?",
    "We're thinking about a trip to {place} {future}.",
    "The {thing} I got {past} is {adj}.",
    "I've been so busy with {work} lately, barely had time for {activity}.",
    "My {pet} knocked over the {thing} again lol",
    "Have you tried the new {food} place near {place}?",
    "I can't believe it's already {month}!",
    "I just started reading {title}, it's {adj} so far.",
    "My {relation} called me {past}, we talked for hours about {topic}.",
    "Let me know if you want to grab {food} {future}.",
    "I'm so proud of you for {achievement}!",
    "Work has been {adj}, my boss wants the {project} done by {day}.",
    "I signed up for a {activity} class at the {venue}.",
    "Thanks! I really appreciate it.",
    "Good luck with the {event}!",
    "Take care, talk soon!",
    "How was the {event}?",
    "It was {adj}, the {thing} was the best part.",
    "We saw {band} play at the {venue} {past}, they were {adj}.",
    "I'm trying to get back into {activity}, it helps me relax.",
    "Did {relation2} like the {thing} you made?",
    "Not really, I was too tired after {work}.",
    "That sounds {adj}! Send me pictures.",
    "I love the colours in that photo!",
    "Maybe we could go {activity} together {future}?",
    "I had {food} at {street} {past}, totally worth it.",
    "The weather in {place} has been {adj} all week.",
    "My {pet} {petname} turned {number} {past}!",
    "I finally fixed the {thing} in the {room}.",
    "Are you still thinking about moving to {place}?",
    "I'm not sure yet, it depends on the {project}.",
    "I keep meaning to call {relation2} but time just flies.",
    "We should plan something for {relation2}'s birthday.",
    "Just got back from {activity}, I'm exhausted haha",
    "What are you up to this weekend?",
    "Nothing much, probably {activity} and some {food}.",
    "I met someone from {place} at the {event}, small world!",
    "The {project} at work is finally over, what a relief.",
    "I think you'd really like {title}.",
)
SLOTS = {
    "activity": ("hiking", "running", "painting", "swimming", "cycling", "baking", "gardening", "climbing",
                 "camping", "fishing", "dancing", "yoga", "pottery", "skating", "kayaking", "photography",
                 "knitting", "surfing", "bowling", "chess", "volunteering", "skiing", "woodworking", "singing"),
    "relation": ("sister", "brother", "mom", "dad", "cousin", "aunt", "uncle", "grandma", "partner", "roommate",
                 "neighbor", "coworker", "best friend", "son", "daughter", "husband", "wife"),
    "relation2": ("your sister", "your brother", "your mom", "your dad", "your kids", "your partner", "Grandpa",
                  "your neighbor", "the team"),
    "thing": ("puzzle", "sweater", "bookshelf", "painting", "garden bed", "guitar", "bike", "camera", "cake",
              "scarf", "treehouse", "quilt", "vase", "kite", "lamp", "model train", "playlist", "podcast",
              "novel", "sculpture", "birdhouse", "telescope", "recipe", "mural"),
    "adj": ("amazing", "great", "awful", "exhausting", "fun", "weird", "beautiful", "hectic", "relaxing",
            "intense", "lovely", "boring", "wild", "perfect", "rough", "sweet", "crazy", "peaceful"),
    "work": ("the new job", "the move", "school", "the deadline", "my thesis", "the kids", "the renovation",
             "night shifts", "the audit", "the launch", "training", "exams"),
    "pet": ("dog", "cat", "puppy", "kitten", "parrot", "rabbit", "hamster", "turtle"),
    "food": ("sushi", "pizza", "tacos", "ramen", "pho", "curry", "burgers", "dumplings", "pasta", "bbq",
             "brunch", "ice cream", "falafel", "paella", "dim sum", "bagels", "coffee"),
    "topic": ("the wedding", "old times", "politics", "the holidays", "her new job", "the garden", "music",
              "the trip", "money", "the house", "college", "the kids", "football", "the election"),
    "achievement": ("finishing the marathon", "getting the job", "graduating", "passing the exam",
                    "starting your own business", "sticking with it", "the promotion", "running the 10k"),
    "project": ("report", "migration", "presentation", "budget", "website", "proposal", "inventory", "campaign"),
    "day": DAYS,
    "venue": ("community center", "library", "park", "studio", "rec center", "church", "museum", "arena",
              "brewery", "old theater"),
    "event": ("concert", "wedding", "interview", "party", "game", "marathon", "recital", "conference",
              "festival", "exhibition", "reunion", "fundraiser", "workshop", "parade"),
    "room": ("kitchen", "bathroom", "garage", "attic", "basement", "bedroom", "porch"),
    "number": ("two", "three", "five", "seven", "ten", "twelve"),
}
PAST = ("", "", "", "", "", "", "", "yesterday", "last week", "last weekend", "two days ago", "this morning",
        "last month", "on {day}", "in {month}", "last {day}", "a few weeks ago", "three days ago")
FUTURE = ("", "", "", "", "tomorrow", "next week", "next weekend", "next month", "on {day}", "this summer",
          "in {month}", "next {day}")
_SYLLABLES = ("ka", "lo", "mi", "ra", "ven", "tor", "zu", "bel", "dro", "sha", "kin", "mar", "pel", "qui",
              "sto", "vex", "an", "or", "ul", "ix", "ne", "ba", "gri", "fa", "lum", "tre", "sol", "wi")


def _rare(rnd: random.Random) -> str:
    """A made-up proper name: the long tail of a chat's vocabulary."""
    return "".join(rnd.choice(_SYLLABLES) for _ in range(rnd.randint(2, 3))).capitalize()


class Chat:
    """Makes message texts; ``places`` and ``people`` come from the fact log (so some messages
    mention what facts are about)."""

    def __init__(self, seed: int, places: list[str]):
        self.rnd = random.Random(seed)
        self.places = places
        rnd = random.Random(seed + 1)
        self.bands = [f"The {_rare(rnd)}s" for _ in range(3000)]
        self.titles = [f"{_rare(rnd)} {_rare(rnd)}" for _ in range(5000)]
        self.streets = [f"{_rare(rnd)} Street" for _ in range(3000)]
        self.petnames = [_rare(rnd) for _ in range(3000)]

    def _fill(self, template: str, other: str) -> str:
        rnd = self.rnd
        values = {name: rnd.choice(options) for name, options in SLOTS.items() if "{" + name + "}" in template}
        values["past"] = rnd.choice(PAST).format(day=rnd.choice(DAYS), month=rnd.choice(MONTHS))
        values["future"] = rnd.choice(FUTURE).format(day=rnd.choice(DAYS), month=rnd.choice(MONTHS))
        values["month"] = rnd.choice(MONTHS)
        values["place"] = rnd.choice(self.places)
        values["band"] = self.bands[int(len(self.bands) * rnd.random() ** 2)]
        values["title"] = self.titles[int(len(self.titles) * rnd.random() ** 2)]
        values["street"] = self.streets[int(len(self.streets) * rnd.random() ** 2)]
        values["petname"] = self.petnames[int(len(self.petnames) * rnd.random() ** 2)]
        values["other"] = other.split()[0] if not other.startswith("Person") else other
        return " ".join(template.format(**values).split()).replace(" .", ".").replace(" ,", ",").replace(" !", "!")

    def message(self, other: str) -> str:
        rnd = self.rnd
        count = rnd.choices((1, 2, 3), (5, 4, 2))[0]
        opener = self._fill(rnd.choice(OPENERS), other)
        parts = [opener] if opener else []
        parts.extend(self._fill(rnd.choice(SENTENCES), other) for _ in range(count))
        return " ".join(parts)


def conversations(count: int, people: list[str], places: list[str], start: datetime, end: datetime,
                  seed: int = 7, pairs: int = 200):
    """``count`` messages as (speaker, text, said), in no particular order: ``pairs`` conversations
    between people, sessions spread evenly from ``start`` to ``end``."""
    rnd = random.Random(seed)
    chat = Chat(seed, places)
    chosen = rnd.sample(people, min(len(people), 2 * pairs))
    couples = [(chosen[2 * i], chosen[2 * i + 1]) for i in range(len(chosen) // 2)]
    per_pair = count // len(couples)
    span = (end - start).total_seconds()
    made = 0
    for i, (a, b) in enumerate(couples):
        wanted = per_pair if i < len(couples) - 1 else count - made
        sessions = max(1, wanted // 30)
        sizes = [wanted // sessions + (1 if s < wanted % sessions else 0) for s in range(sessions)]
        for s, size in enumerate(sizes):
            at = start + timedelta(seconds=span * (s + rnd.random() * 0.9) / sessions)
            at = at.replace(hour=rnd.randint(8, 21), minute=rnd.randint(0, 59), second=0, microsecond=0)
            speaker = rnd.choice((a, b))
            for _ in range(size):
                other = b if speaker == a else a
                yield speaker, chat.message(other), at
                made += 1
                at += timedelta(seconds=rnd.randint(10, 600))
                if rnd.random() < 0.75:
                    speaker = other


def with_messages(log: Path, out: Path, count: int, seed: int = 7, pairs: int = 200) -> dict:
    """Write ``out``: the generator log ``log`` with ``count`` chat messages added as episodes
    (each received seconds after it was said, recorded by an EPISODE write). Returns counts."""
    head, meta, rest = [], {}, []
    decisions_at: set[str] = set()
    people, places = set(), set()
    with log.open(encoding="utf-8") as lines:
        for line in lines:
            kind = line[10:line.index('"', 10)] if line.startswith('{"type": "') else ""
            if kind == "meta":
                record = json.loads(line)
                meta[record["key"]] = record["value"]
            elif kind == "graphmem":
                head.append(line)
            else:
                if kind == "decision":
                    decisions_at.add(json.loads(line)["at"])
                elif kind == "entity":
                    name = json.loads(line)["name"]
                    if name.startswith("Person "):
                        people.add(name)
                    elif name.startswith("City "):
                        places.add(name)
                rest.append(line)
    first = min(decisions_at)
    start = datetime.fromisoformat(first.replace("Z", "+00:00"))
    end = datetime.fromisoformat(meta["last_write"].replace("Z", "+00:00"))
    ep, d = int(meta.get("seq:ep", "0")), int(meta.get("seq:d", "0"))
    messages = sorted(conversations(count, sorted(people), sorted(places), start, end, seed, pairs),
                      key=lambda m: m[2])
    rnd = random.Random(seed + 2)
    added_episodes, added_decisions = [], []
    latest = end
    taken = set(decisions_at)
    for speaker, text, said in messages:
        received = said + timedelta(seconds=rnd.randint(1, 30), microseconds=rnd.randint(0, 999_999))
        while iso(received) in taken:
            received += timedelta(microseconds=1)
        stamp = iso(received)
        taken.add(stamp)
        ep, d = ep + 1, d + 1
        added_episodes.append(json.dumps({"type": "episode", "id": f"ep{ep}", "kind": "chat", "text": text,
                                          "actor": speaker, "reference_time": iso(said),
                                          "received_at": stamp}) + "\n")
        added_decisions.append(json.dumps({"type": "decision", "id": f"d{d}", "op": "EPISODE", "at": stamp,
                                           "created": [], "closed": [], "episode": f"ep{ep}", "reason": None,
                                           "proposal": None}) + "\n")
        latest = max(latest, received)
    meta.update({"seq:ep": str(ep), "seq:d": str(d), "last_write": iso(latest)})
    tmp = out.with_name(out.name + ".partial")
    with tmp.open("w", encoding="utf-8") as f:
        f.writelines(head)
        for key, value in sorted(meta.items()):
            f.write(json.dumps({"type": "meta", "key": key, "value": value}) + "\n")
        f.writelines(rest)
        f.writelines(added_episodes)
        f.writelines(added_decisions)
    tmp.replace(out)
    return {"messages": len(added_episodes), "speakers": len({m[0] for m in messages}),
            "first_said": iso(messages[0][2]), "last_said": iso(messages[-1][2]),
            "mean_words": round(sum(len(m[1].split()) for m in messages) / len(messages), 1)}


if __name__ == "__main__":  # a look at what it makes
    for speaker, text, said in list(conversations(20, ["Person 1", "Person 2"], ["City 3"],
                                                  datetime(2020, 1, 1, tzinfo=UTC), datetime(2020, 6, 1, tzinfo=UTC),
                                                  pairs=1)):
        print(said.date(), speaker, ":", text)
