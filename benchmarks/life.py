"""A deterministic, life-like memory: people moving, changing jobs, travelling, liking things.

Built as a scenario (the format of ``graphmem/scenarios/*.json``, replayed with
:func:`graphmem.scenario.play`): each step a dated chat message and the writes it supports.
Used to look at pages at a realistic scale and to measure them (``benchmarks/pages.py``);
``python -m benchmarks.life --writes 500 -o life.json`` writes one out.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta
from pathlib import Path

FIRST = ["Ana", "Ben", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kai",
         "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor",
         "Wen", "Xavier", "Yara", "Zoe", "Aiko", "Bruno", "Carmen", "Dev", "Elif", "Felix", "Gia",
         "Hugo", "Ivan", "Jade", "Karim", "Lin", "Mila", "Noah"]
LAST = ["Okafor", "Silva", "Novak", "Haddad", "Kim", "Moreau", "Rossi", "Jensen", "Tanaka", "Costa"]
CITIES = ["Berlin", "Prague", "Lisbon", "Munich", "Paris", "Vienna", "Warsaw", "Oslo", "Madrid",
          "Rome", "Kyoto", "Seoul", "Toronto", "Austin", "Nairobi", "Shanghai", "Beijing"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella Labs", "Hooli", "Stark Works", "Wayne Foundation",
        "Tyrell", "Cyberdyne", "Soylent", "Vandelay Industries", "Oscorp"]
THINGS = ["apples", "jazz", "chess", "hiking", "sushi", "climbing", "opera", "football", "tea",
          "coffee", "poetry", "sailing", "cycling", "board games", "techno", "gardening"]


def _people(count: int) -> list[str]:
    return [f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}" for i in range(count)]


def life(writes: int = 500, people: int = 40, seed: int = 5, start: str = "2021-01-04") -> dict:
    """A scenario of about ``writes`` fact writes over about five years."""
    rng = random.Random(seed)
    names = _people(people)
    at = datetime.fromisoformat(start + "T09:00:00+00:00")
    step = timedelta(days=5 * 365 / max(writes, 1))
    home = {p: rng.choice(CITIES) for p in names}
    job = {p: rng.choice(ORGS) for p in names}
    likes = {p: set() for p in names}
    steps: list[dict] = []
    made = 0

    def day(moment: datetime) -> str:
        return moment.date().isoformat()

    def add(text: str, actor: str, *writes_: dict) -> None:
        nonlocal made
        steps.append({"at": at.isoformat().replace("+00:00", "Z"),
                      "say": {"kind": "chat", "actor": actor, "text": text}, "then": list(writes_)})
        made += len(writes_)

    for person in names:  # what is known at the start
        add(f"{person} lives in {home[person]} and works at {job[person]}.", person,
            {"add": [person, "lives_in", home[person]], "from": day(at - timedelta(days=rng.randint(200, 3000)))},
            {"add": [person, "works_at", job[person]], "from": day(at - timedelta(days=rng.randint(100, 2000)))})
        at += step / 4
    while made < writes:
        at += step * rng.uniform(0.5, 1.5)
        person = rng.choice(names)
        roll = rng.random()
        if roll < 0.16:
            city = rng.choice([c for c in CITIES if c != home[person]])
            home[person] = city
            add(f"I moved to {city}.", person, {"add": [person, "lives_in", city]})
        elif roll < 0.28:
            org = rng.choice([o for o in ORGS if o != job[person]])
            job[person] = org
            add(f"I started at {org} this week.", person, {"add": [person, "works_at", org]})
        elif roll < 0.50:
            city = rng.choice(CITIES)
            begin = at - timedelta(days=rng.randint(3, 60))
            add(f"I was in {city} for a few days.", person,
                {"add": [person, "traveled_to", city], "from": day(begin),
                 "to": day(begin + timedelta(days=rng.randint(2, 12)))})
        elif roll < 0.64:
            other = rng.choice([p for p in names if p != person])
            add(f"I know {other} from work.", person, {"add": [person, "knows", other]})
        elif roll < 0.78:
            thing = rng.choice(THINGS)
            if thing in likes[person] and rng.random() < 0.6:
                likes[person].discard(thing)
                add(f"I don't like {thing} anymore.", person, {"end": [person, "likes", thing]})
            else:
                likes[person].add(thing)
                add(f"I like {thing}.", person, {"add": [person, "likes", thing]})
        elif roll < 0.84:
            other = rng.choice([p for p in names if p != person])
            add(f"I met {other} today.", person,
                {"add": [person, "met", other], "from": day(at), "to": day(at + timedelta(days=1))})
        elif roll < 0.89:
            city = rng.choice([c for c in CITIES if c != home[person]])
            begin = at - timedelta(days=rng.randint(60, 400))
            add(f"From {day(begin)} I spent two weeks in {city}.", person,
                {"segment": [person, "lives_in", city], "from": day(begin), "to": day(begin + timedelta(days=14))})
        elif roll < 0.93:
            other = rng.choice([p for p in names if p != person])
            add(f"I married {other}.", person, {"add": [person, "married_to", other]})
        elif roll < 0.97:
            status = rng.choice(["busy", "on leave", "travelling", "available"])
            add(f"I am {status}.", person, {"add": [person, "status", status]})
        else:
            wrong = home[person]
            right = rng.choice([c for c in CITIES if c != wrong])
            home[person] = right
            add(f"Sorry, I live in {right}, not {wrong}.", person,
                {"correct": [person, "lives_in", wrong], "object": right, "reason": "misheard city"})
    return {"about": f"A life-like memory: {people} people, about {writes} writes over five years.",
            "predicates": {}, "steps": steps}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.life", description=__doc__)
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument("--people", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    args.output.write_text(json.dumps(life(args.writes, args.people, args.seed), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def replay(store, scenario: dict, clock) -> int:
    """Play a scenario like :func:`graphmem.scenario.play`, also taking ``retract`` writes
    (which the bundled life scenario uses); returns the number of writes."""
    from graphmem.scenario import play

    count = 0
    for name, kind in scenario.get("predicates", {}).items():
        store.declare(name, kind)
    for step in scenario["steps"]:
        plain = [w for w in step.get("then", []) if "retract" not in w]
        play(store, {"steps": [{**step, "then": plain}]}, clock)
        episode = None
        for write in step.get("then", []):
            if "retract" in write:
                episode = episode or store.episodes()[-1].id
                s, p, o = write["retract"]
                wrong = next(v for v in store.beliefs(valid_at="all")
                             if (v.subject, v.predicate, v.object) == (s, p, o))
                store.retract(wrong.id, reason=write["reason"], episode=episode)
        count += len(step.get("then", []))
    return count
