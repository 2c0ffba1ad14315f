"""Realistic chat files for measuring ingest: several users talking about their lives.

Each user has a life (a city, an employer, a partner, things liked) that changes as the
conversation goes on, and says so the many ways the rules extractor reads: moves and new jobs
said with synonyms, relative times ("last month", "last weekend"), endings of what they said
before ("I left Globex", "not into chess any more"), trips and meetings with their time phrase,
facts about named others ("my sister Rosa just started at Hooli"), and chat with no fact in it
(questions, hedges, thanks). About one ending in 40 is of something never said before (the gate
finds nothing to end: the write falls back to one fact at a time, as real conversations do).
Every user message gets an assistant reply; chat times are at minute resolution, so a message
and its reply often share one, and now and then two users speak in the same minute. A few
sessions are written to the file late (out of chat-time order), as merged exports are.

``python -m benchmarks.conversations --messages 10000 -o chat.jsonl`` writes one out.
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta
from pathlib import Path

USERS = ["Ana", "Ben", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiro", "Ines", "Jonas",
         "Kai", "Lena"]
CITIES = ["Berlin", "Prague", "Lisbon", "Munich", "Paris", "Vienna", "Warsaw", "Oslo", "Madrid",
          "Rome", "Kyoto", "Seoul", "Toronto", "Austin", "Nairobi", "Shanghai", "Dublin", "Porto"]
ORGS = ["Acme", "Globex", "Initech", "Umbrella Labs", "Hooli", "Stark Works", "Tyrell",
        "Cyberdyne", "Soylent", "Vandelay Industries", "Oscorp", "Wayne Foundation"]
THINGS = ["jazz", "chess", "hiking", "sushi", "climbing", "opera", "football", "tea", "coffee",
          "poetry", "sailing", "cycling", "board games", "techno", "gardening", "yoga", "ramen"]
FRIENDS = ["Priya", "Omar", "Marco", "Sofia", "Liam", "Rosa", "Tariq", "Mila", "Hugo", "Nia"]
RELATIVES = ["sister", "brother", "cousin", "friend"]

MOVED = ["I moved to {new}.", "We relocated to {new} last month.", "I'm living in {new} these days.",
         "Just moved into a new place in {new}, still surrounded by boxes.",
         "I moved from {old} to {new} last year.", "I'm based in {new} now."]
JOINED = ["I started at {new} last week.", "I got a job at {new}.", "I work at {new} now.",
          "I switched from {old} to {new}.", "I've been working at {new} since {year}."]
LEFT = ["I left {old}.", "I quit my job at {old}.", "I don't work at {old} anymore."]
LIKED = ["I love {thing}.", "I'm really into {thing} lately.", "I'm a big fan of {thing}.",
         "I enjoy {thing} on weekends."]
UNLIKED = ["I don't like {thing} anymore.", "I'm not into {thing} any more.",
           "Not a fan of {thing} anymore."]
DISLIKED = ["I can't stand {thing}.", "I hate {thing}."]
TRIPS = ["I flew to {city} last weekend.", "I spent a week in {city} in March.",
         "Just got back from {city}.", "I visited {city} over the holidays."]
MET = ["I had lunch with {friend} yesterday.", "I ran into {friend} two weeks ago."]
DATING = ["I started dating {friend}.", "We broke up."]
OTHERS = ["My {relative} {friend} just started at {org}.",
          "My friend {friend}, who lives in {city}, is coming over."]
CHAT = ["How are you today?", "Can you help me plan dinner for six?", "Thanks, that helps!",
        "What's a good book to read on a train?", "I might move to {city}.",
        "Should I quit my job?", "I'll visit {city} someday.", "Remind me what we said about budgets.",
        "Any tips for sleeping better?", "That's funny.", "Ok, let's continue tomorrow."]
REPLIES = ["Noted.", "That sounds exciting!", "Thanks for telling me.", "Got it, I'll remember that.",
           "Here are a few ideas: start small, keep it simple, and check in next week.",
           "Sure. Let me know how it goes.", "I'm sorry to hear that.", "Good luck with it!"]


class _Life:
    """What one user has said about themselves so far."""

    def __init__(self, rng: random.Random):
        self.city = rng.choice(CITIES)
        self.org: str | None = rng.choice(ORGS)
        self.likes: set[str] = set()
        self.partner: str | None = None


def _say(rng: random.Random, life: _Life, at: datetime) -> str:
    """One user message, updating ``life`` with what it states."""
    roll = rng.random()
    if roll < 0.12:
        old, life.city = life.city, rng.choice([c for c in CITIES if c != life.city])
        return rng.choice(MOVED).format(old=old, new=life.city)
    if roll < 0.21:
        old, life.org = life.org, rng.choice([o for o in ORGS if o != life.org])
        template = rng.choice(JOINED)
        if old is None and "{old}" in template:
            template = JOINED[0]
        return template.format(old=old, new=life.org, year=at.year - rng.randint(0, 2))
    if roll < 0.25 and life.org:
        old, life.org = life.org, None
        return rng.choice(LEFT).format(old=old)
    if roll < 0.40:
        thing = rng.choice(THINGS)
        life.likes.add(thing)
        return rng.choice(LIKED).format(thing=thing)
    if roll < 0.48:
        never = rng.random() < 0.1  # something never said: nothing to end
        pool = sorted(set(THINGS) - life.likes) if never or not life.likes else sorted(life.likes)
        thing = rng.choice(pool)
        life.likes.discard(thing)
        return rng.choice(UNLIKED).format(thing=thing)
    if roll < 0.51:
        return rng.choice(DISLIKED).format(thing=rng.choice(THINGS))
    if roll < 0.61:
        return rng.choice(TRIPS).format(city=rng.choice(CITIES))
    if roll < 0.67:
        return rng.choice(MET).format(friend=rng.choice(FRIENDS))
    if roll < 0.71:
        if life.partner is None:
            life.partner = rng.choice(FRIENDS)
            return DATING[0].format(friend=life.partner)
        life.partner = None
        return DATING[1]
    if roll < 0.77:
        return rng.choice(OTHERS).format(relative=rng.choice(RELATIVES), friend=rng.choice(FRIENDS),
                                         org=rng.choice(ORGS), city=rng.choice(CITIES))
    return rng.choice(CHAT).format(city=rng.choice(CITIES))


def conversation(messages: int = 10_000, users: int = 8, seed: int = 16,
                 start: str = "2023-01-02T08:00:00") -> list[dict]:
    """About ``messages`` chat messages (user and assistant) of ``users`` people, as file lines."""
    rng = random.Random(seed)
    people = USERS[:users]
    lives = {p: _Life(rng) for p in people}
    at = datetime.fromisoformat(start)
    sessions: list[list[dict]] = []
    made = 0
    while made < messages:
        person = rng.choice(people)
        session = []
        minute = at
        for _ in range(rng.randint(1, 6)):
            said = _say(rng, lives[person], minute)
            reply_at = minute if rng.random() < 0.7 else minute + timedelta(minutes=1)
            session.append({"id": f"m{made}", "role": "user", "actor": person, "content": said,
                            "chat_time": minute.isoformat() + "Z"})
            session.append({"id": f"m{made + 1}", "role": "assistant", "content": rng.choice(REPLIES),
                            "chat_time": reply_at.isoformat() + "Z"})
            made += 2
            minute = reply_at + timedelta(minutes=rng.randint(0, 3))
        sessions.append(session)
        if rng.random() > 0.1:  # most sessions are hours apart; some overlap to the minute
            at += timedelta(hours=rng.randint(1, 30))
    lines = []
    late = []
    for session in sessions:
        (late if rng.random() < 0.02 else lines).append(session)
    return [line for session in lines + late for line in session][:messages]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=8)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args()
    write(args.out, conversation(args.messages, args.users, args.seed))


if __name__ == "__main__":
    main()
