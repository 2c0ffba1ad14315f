"""Write graphmem/scenarios/life.json: five years of one person's memory, told in chat messages.

Maya (the scenario's ``owner``: "I" and "my" in questions about it mean her), a product manager
in Berlin, talks to her assistant from January 2021 to December 2025
about her life and about the forty-odd people in it: moves, new jobs, studies, relationships,
hobbies taken up and dropped, trips, and the odd mistake corrected or rumour withdrawn. Every
message is a natural sentence and carries the writes it supports (with the valid period the
sentence states); the store replays them at the messages' own times.

Run from the repository root: ``python scripts/life_scenario.py`` (a test checks that the
bundled file is exactly what this script writes).
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "graphmem" / "scenarios" / "life.json"

PREDICATES = {
    "dating": "one", "works_as": "one", "plays": "many", "has_pet": "many",
    "sibling_of": "many", "parent_of": "many",
}

MESSAGES: list[tuple[str, str, list[dict], dict]] = []


def say(day: str, text: str, *writes: dict, kind: str = "chat", actor: str = "Maya") -> None:
    """One message on ``day`` (YYYY-MM-DD, or with a time) and the writes it supports."""
    MESSAGES.append((day, text, list(writes), {"kind": kind, "actor": actor}))


def add(s: str, p: str, o: str, frm: str | None = None, to: str | None = None) -> dict:
    write: dict = {"add": [s, p, o]}
    if frm:
        write["from"] = frm
    if to:
        write["to"] = to
    return write


def end(s: str, p: str, o: str | None = None, at: str | None = None) -> dict:
    write: dict = {"end": [s, p] + ([o] if o else [])}
    if at:
        write["at"] = at
    return write


def correct(s: str, p: str, wrong: str, right: str, reason: str) -> dict:
    return {"correct": [s, p, wrong], "object": right, "reason": reason}


def retract(s: str, p: str, o: str, reason: str) -> dict:
    return {"retract": [s, p, o], "reason": reason}


def segment(s: str, p: str, o: str, frm: str, to: str) -> dict:
    return {"segment": [s, p, o], "from": frm, "to": to}


# -- Maya ------------------------------------------------------------------------------------------

say("2021-01-04", "Quick intro so you know me: I'm Maya, I've lived in Berlin since 2016 and I've been a "
    "product manager at Zalando since April 2019.",
    add("Maya", "lives_in", "Berlin", "2016-01-01"), add("Maya", "works_at", "Zalando", "2019-04-01"),
    add("Maya", "works_as", "product manager", "2019-04-01"))
say("2021-01-06", "Daniel and I have been together since 2019 and live together in Friedrichshain. He's a "
    "nurse at the Charité.",
    add("Maya", "dating", "Daniel", "2019-01-01"), add("Daniel", "lives_in", "Berlin"),
    add("Daniel", "works_at", "Charité"), add("Daniel", "works_as", "nurse"))
say("2021-01-20", "I go bouldering twice a week; climbing is honestly my favourite thing.",
    add("Maya", "likes", "climbing"))
say("2021-02-11", "Put on some Coltrane tonight. I love jazz, especially on rainy evenings.",
    add("Maya", "likes", "jazz"))
say("2021-03-02", "I've been practising the piano again every morning before work.",
    add("Maya", "plays", "piano"))
say("2021-05-14", "Sushi night with Priya again. I could eat sushi every day.",
    add("Maya", "likes", "sushi"))
say("2021-09-19", "Back from a week in Lisbon visiting Ana. The light there is unreal.",
    add("Maya", "traveled_to", "Lisbon", "2021-09-11", "2021-09-18"))
say("2022-03-08", "Signed up for a pottery course on Tuesdays and I'm hooked already.",
    add("Maya", "likes", "pottery"))
say("2022-05-20", "I handed in my notice at Zalando today. My last day is the end of May.",
    end("Maya", "works_at", "Zalando", "2022-06-01"))
say("2022-06-02", "First day as head of product at Plantwise, a small startup in Kreuzberg that makes apps "
    "for urban gardeners.",
    add("Maya", "works_at", "Plantwise", "2022-06-01"), add("Maya", "works_as", "head of product", "2022-06-01"))
say("2022-08-21", "Daniel and I got married yesterday!! A tiny ceremony at the registry office and a big "
    "party after.",
    add("Maya", "married_to", "Daniel", "2022-08-20"), end("Maya", "dating", "Daniel", "2022-08-20"))
say("2022-11-14", "Just landed from New York. Five days of meetings with investors and I'm exhausted.",
    add("Maya", "traveled_to", "New York", "2022-11-08", "2022-11-13"))
say("2023-03-19", "We adopted a cat! She's a little grey tabby and we named her Miso.",
    add("Maya", "has_pet", "Miso", "2023-03-18"))
say("2023-04-17", "Home from Japan: two weeks in Kyoto with Daniel, temples every day, and Yuki, a friend of "
    "Ivan's, showed us around.",
    add("Maya", "traveled_to", "Kyoto", "2023-04-02", "2023-04-16"),
    add("Daniel", "traveled_to", "Kyoto", "2023-04-02", "2023-04-16"),
    add("Maya", "met", "Yuki", "2023-04-10", "2023-04-11"))
say("2023-06-25", "Honestly, I've given up on the piano. I haven't played in months and I don't miss it.",
    end("Maya", "plays", "piano"))
say("2023-10-15", "Great conference in Lisbon this week. I met Elif there, a designer at Trendyol in Istanbul "
    "who takes amazing photos; we talked for hours.",
    add("Maya", "traveled_to", "Lisbon", "2023-10-10", "2023-10-14"),
    add("Maya", "met", "Elif", "2023-10-12", "2023-10-13"), add("Elif", "lives_in", "Istanbul"),
    add("Elif", "works_at", "Trendyol"), add("Elif", "likes", "photography"))
say("2024-02-28", "Big decision: Daniel got a job offer in Hamburg, so we're moving there at the start of April.",
    add("Maya", "lives_in", "Hamburg", "2024-04-01"), add("Daniel", "lives_in", "Hamburg", "2024-04-01"))
say("2024-04-16", "New job, new city: I started at Otto yesterday as product director.",
    add("Maya", "works_at", "Otto", "2024-04-15"), add("Maya", "works_as", "product director", "2024-04-15"))
say("2024-05-12", "Met our neighbour Kai today. He plays the cello in the NDR Elbphilharmonie Orchestra.",
    add("Maya", "met", "Kai", "2024-05-11", "2024-05-12"), add("Kai", "lives_in", "Hamburg"),
    add("Kai", "plays", "cello"), add("Kai", "works_at", "NDR Elbphilharmonie Orchestra"),
    add("Kai", "works_as", "cellist"))
say("2024-07-07", "Kai took me sailing on the Alster and now I want a boat. Sailing is wonderful.",
    add("Maya", "likes", "sailing"), add("Kai", "likes", "sailing"))
say("2025-02-18", "Iceland was magical: a week in Reykjavik, and the northern lights on the last night.",
    add("Maya", "traveled_to", "Reykjavik", "2025-02-09", "2025-02-16"))
say("2025-08-03", "After that food poisoning I really can't face sushi anymore.",
    end("Maya", "likes", "sushi"))
say("2025-11-30", "News: we're moving back to Berlin on March 1st! Daniel got his old job at the Charité back.",
    add("Maya", "lives_in", "Berlin", "2026-03-01"), add("Daniel", "lives_in", "Berlin", "2026-03-01"),
    add("Daniel", "works_at", "Charité", "2026-03-01"))

# -- Daniel ----------------------------------------------------------------------------------------

say("2021-07-04", "Daniel dragged me to another Union Berlin match. He's obsessed with that football club.",
    add("Daniel", "likes", "Union Berlin"))
say("2021-10-10", "Daniel has been teaching himself the guitar from YouTube videos.",
    add("Daniel", "plays", "guitar"))
say("2024-05-03", "Daniel started at the UKE this week, on the cardiology ward.",
    add("Daniel", "works_at", "UKE", "2024-04-29"))
say("2024-10-05", "Daniel has started running with Lena's training plan, and he actually enjoys it.",
    add("Daniel", "likes", "running"))

# -- Lena, Jan and Noah ----------------------------------------------------------------------------

say("2021-01-09", "My sister Lena called from Munich. She's still an engineer at BMW and still complaining "
    "about her commute.",
    add("Lena", "sibling_of", "Maya"), add("Lena", "lives_in", "Munich"), add("Lena", "works_at", "BMW"),
    add("Lena", "works_as", "engineer"))
say("2021-06-13", "Lena married Jan yesterday at Lake Starnberg. I cried through the whole speech.",
    add("Lena", "married_to", "Jan", "2021-06-12"))
say("2021-06-14", "Jan is lovely. He works at BMW too, that's how they met, and he cycles to work all year round.",
    add("Jan", "works_at", "BMW"), add("Jan", "lives_in", "Munich"), add("Jan", "likes", "cycling"))
say("2021-08-22", "Lena is training for her first half marathon. She runs every single morning.",
    add("Lena", "likes", "running"))
say("2022-02-21", "I'm an aunt! Lena had a baby boy yesterday: Noah, 3.4 kg, everyone healthy.",
    add("Lena", "parent_of", "Noah", "2022-02-20"))
say("2023-05-09", "Lena and Jan are moving to Toulouse in July: both of them got jobs at Airbus. Lena starts "
    "in mid-July and Jan in September.",
    add("Lena", "lives_in", "Toulouse", "2023-07-01"), add("Jan", "lives_in", "Toulouse", "2023-07-01"),
    add("Lena", "works_at", "Airbus", "2023-07-17"), add("Jan", "works_at", "Airbus", "2023-09-01"))
say("2025-05-26", "Lena, Jan and Noah just got back from a week on Corsica.",
    add("Lena", "traveled_to", "Corsica", "2025-05-17", "2025-05-25"),
    add("Jan", "traveled_to", "Corsica", "2025-05-17", "2025-05-25"))
say("2025-09-02", "Noah has lived in Toulouse since he was one and already speaks better French than his parents.",
    add("Noah", "lives_in", "Toulouse", "2023-07-01"))

# -- Jonas and Mia ---------------------------------------------------------------------------------

say("2021-01-12", "My little brother Jonas is in his third year of computer science at TU Berlin.",
    add("Jonas", "sibling_of", "Maya"), add("Jonas", "studies_at", "TU Berlin", "2018-10-01"),
    add("Jonas", "lives_in", "Berlin"))
say("2021-04-03", "Jonas spent the whole night at Berghain again. He lives for techno.",
    add("Jonas", "likes", "techno"))
say("2022-07-16", "Jonas handed in his thesis and graduated from TU Berlin! Proud big sister here.",
    add("Jonas", "graduated_from", "TU Berlin", "2022-07-15"), end("Jonas", "studies_at", "TU Berlin", "2022-07-15"))
say("2022-09-02", "Jonas started as a software engineer at Siemens yesterday.",
    add("Jonas", "works_at", "Siemens", "2022-09-01"), add("Jonas", "works_as", "software engineer", "2022-09-01"))
say("2023-02-14", "Jonas is seeing someone: Mia, a nurse who works with Daniel at the Charité.",
    add("Jonas", "dating", "Mia", "2023-02-01"), add("Mia", "works_at", "Charité"), add("Mia", "works_as", "nurse"))
say("2023-03-11", "Mia came to dinner. She's from Leipzig, lives in Neukölln now and dances salsa.",
    add("Mia", "lives_in", "Berlin"), add("Mia", "likes", "salsa"))
say("2023-08-22", "Jonas and Mia went to Copenhagen for a long weekend.",
    add("Jonas", "traveled_to", "Copenhagen", "2023-08-17", "2023-08-21"),
    add("Mia", "traveled_to", "Copenhagen", "2023-08-17", "2023-08-21"))
say("2024-01-07", "Jonas is back in Berlin: Siemens sent him to Munich from October until just before Christmas.",
    segment("Jonas", "lives_in", "Munich", "2023-10-01", "2023-12-20"))
say("2024-05-19", "Jonas and Mia broke up. He's gutted but says it was mutual.",
    end("Jonas", "dating", "Mia", "2024-05-15"))
say("2024-12-02", "Jonas got a job at Dynatrace in Vienna! He moves right after New Year.",
    add("Jonas", "lives_in", "Vienna", "2025-01-06"), add("Jonas", "works_at", "Dynatrace", "2025-01-13"))
say("2025-04-20", "Jonas says Vienna is great but he misses the clubs. He's got really into bouldering there.",
    add("Jonas", "likes", "climbing"))

# -- Ruth, Peter and Hilde -------------------------------------------------------------------------

say("2021-01-16", "Called Mum and Dad in Cologne. Mum is still working at the Cologne City Library and Dad is "
    "busy with his chess club.",
    add("Ruth", "parent_of", "Maya"), add("Peter", "parent_of", "Maya"), add("Ruth", "lives_in", "Cologne"),
    add("Peter", "lives_in", "Cologne"), add("Ruth", "works_at", "Cologne City Library"),
    add("Peter", "likes", "chess"))
say("2021-01-17", "Mum and Dad have been married since April 1983, which blows my mind.",
    add("Ruth", "married_to", "Peter", "1983-04-16"))
say("2021-02-07", "My grandmother Hilde still lives on her own in Bremen at 89 and does the crossword every "
    "morning.",
    add("Hilde", "parent_of", "Ruth"), add("Hilde", "lives_in", "Bremen"), add("Hilde", "likes", "crosswords"))
say("2021-05-02", "Mum's garden is in full bloom; gardening is her therapy.",
    add("Ruth", "likes", "gardening"))
say("2021-12-20", "Mum knitted me another scarf. She knits in front of the TV every evening.",
    add("Ruth", "likes", "knitting"))
say("2022-04-29", "Mum and Dad are back from a week in Vienna. They took the train both ways because Dad hates "
    "flying.",
    add("Ruth", "traveled_to", "Vienna", "2022-04-20", "2022-04-27"),
    add("Peter", "traveled_to", "Vienna", "2022-04-20", "2022-04-27"), add("Peter", "dislikes", "flying"))
say("2023-07-01", "Mum retired yesterday after 31 years at the library! Cake and tears.",
    end("Ruth", "works_at", "Cologne City Library", "2023-06-30"))
say("2023-09-03", "Dad has discovered birdwatching. He sent me forty photos of one heron.",
    add("Peter", "likes", "birdwatching"))
say("2024-05-26", "My parents just spent two weeks on Crete, and Dad says he doesn't mind flying anymore.",
    add("Ruth", "traveled_to", "Crete", "2024-05-10", "2024-05-24"),
    add("Peter", "traveled_to", "Crete", "2024-05-10", "2024-05-24"), end("Peter", "dislikes", "flying", "2024-05-10"))
say("2024-09-16", "Mum visited us in Hamburg this weekend and loved the harbour.",
    add("Ruth", "visited", "Hamburg", "2024-09-13", "2024-09-16"))
say("2024-11-03", "Oma Hilde moved into a care home in Cologne last week, close to Mum.",
    add("Hilde", "lives_in", "Cologne", "2024-10-28"))

# -- Priya and Omar --------------------------------------------------------------------------------

say("2021-01-05", "My best friend Priya lives in London and works at Deliveroo as a UX designer.",
    add("Priya", "lives_in", "London"), add("Priya", "works_at", "Deliveroo"), add("Priya", "works_as", "UX designer"))
say("2021-01-23", "Priya is the one who got me into bouldering, by the way; she's climbing 7a now.",
    add("Priya", "likes", "climbing"))
say("2021-06-20", "Priya joined a tennis club in Hackney and plays every Sunday.",
    add("Priya", "plays", "tennis"))
say("2022-07-30", "Priya is moving to Berlin!!! She'll be here from September.",
    add("Priya", "lives_in", "Berlin", "2022-09-01"))
say("2022-10-04", "Priya started her new job at Zalando on Monday.",
    add("Priya", "works_at", "Zalando", "2022-10-03"))
say("2022-10-21", "Correction: Priya's new job is at N26, not Zalando. I mixed them up because she interviewed "
    "at both.",
    correct("Priya", "works_at", "Zalando", "N26", "mixed up the two companies she interviewed with"))
say("2023-03-26", "Priya met someone at a friend's wedding in Amsterdam: Omar. They've been texting non-stop.",
    add("Priya", "met", "Omar", "2023-03-18", "2023-03-19"), add("Priya", "dating", "Omar", "2023-03-18"))
say("2023-03-27", "Omar lives in Amsterdam and works at Booking.com. He cycles everywhere, very Dutch of him.",
    add("Omar", "lives_in", "Amsterdam"), add("Omar", "works_at", "Booking.com"), add("Omar", "likes", "cycling"))
say("2023-09-04", "Omar moved to Berlin to be with Priya.",
    add("Omar", "lives_in", "Berlin", "2023-09-01"))
say("2023-10-09", "Omar started at Delivery Hero last week.",
    add("Omar", "works_at", "Delivery Hero", "2023-10-02"))
say("2024-01-07 21:00", "Priya is back from three weeks in Mumbai visiting her grandparents.",
    add("Priya", "traveled_to", "Mumbai", "2023-12-15", "2024-01-05"))
say("2024-12-26", "Omar proposed to Priya on Christmas Eve! The wedding will be in June.")
say("2025-06-16", "Priya and Omar got married on Saturday. Best wedding ever; I danced until 4am.",
    add("Priya", "married_to", "Omar", "2025-06-14"), end("Priya", "dating", "Omar", "2025-06-14"))
say("2025-09-10", "Priya has stopped climbing since her shoulder injury; she does pilates instead now.",
    end("Priya", "likes", "climbing"), add("Priya", "likes", "pilates"))

# -- Tom, Nina and Leo -----------------------------------------------------------------------------

say("2021-03-05", "Tom, my friend from uni, has lived in Leeds since 2018 and writes for the Yorkshire Post.",
    add("Tom", "lives_in", "Leeds", "2018-01-01"), add("Tom", "works_at", "Yorkshire Post"),
    add("Tom", "works_as", "journalist"))
say("2021-04-18", "Tom is dating Nina! They met when she was in Leeds for a story.",
    add("Tom", "dating", "Nina", "2021-04-01"))
say("2021-04-19", "Nina lives in Berlin and is a reporter at the Berliner Zeitung, so they're long distance "
    "for now.",
    add("Nina", "lives_in", "Berlin"), add("Nina", "works_at", "Berliner Zeitung"), add("Nina", "works_as", "reporter"))
say("2021-07-25", "Tom ran the Leeds half marathon; he's a running addict now.",
    add("Tom", "likes", "running"))
say("2021-11-12", "Tom's new obsession is craft beer. He keeps a spreadsheet of breweries.",
    add("Tom", "likes", "craft beer"))
say("2022-05-08", "Tom and Nina have split up. The distance was too much.",
    end("Tom", "dating", "Nina", "2022-05-01"))
say("2022-09-18", "Nina does yoga every morning now; she says it saved her sanity after the breakup.",
    add("Nina", "likes", "yoga"))
say("2023-01-22", "Tom got a job at the BBC and is moving to Manchester next week.",
    add("Tom", "works_at", "BBC", "2023-02-01"), add("Tom", "lives_in", "Manchester", "2023-02-01"))
say("2021-09-05", "Felix's old flatmate Leo lives in Zurich and does research on glaciers at ETH Zurich.",
    add("Leo", "lives_in", "Zurich"), add("Leo", "works_at", "ETH Zurich"), add("Leo", "works_as", "researcher"))
say("2022-02-06", "Leo goes skiing every weekend in winter, lucky him.",
    add("Leo", "likes", "skiing"))
say("2023-05-20", "Heard a rumour that Nina is dating Leo.",
    add("Nina", "dating", "Leo", "2023-05-01"))
say("2023-06-11", "Ignore what I said about Nina and Leo: it was just gossip, they're only friends.",
    retract("Nina", "dating", "Leo", "only gossip: they are friends"))
say("2024-03-16", "Tom spent two weeks in Mexico City and came back with a suitcase full of mezcal.",
    add("Tom", "traveled_to", "Mexico City", "2024-02-29", "2024-03-14"))
say("2024-05-30", "Nina is leaving the Berliner Zeitung to go freelance, and she's moving to Leipzig in June "
    "because the rent is cheaper.",
    end("Nina", "works_at", "Berliner Zeitung", "2024-05-31"), add("Nina", "lives_in", "Leipzig", "2024-06-01"))
say("2024-08-18", "Leo is leaving ETH for a job at Roche and moving to Basel in September.",
    add("Leo", "works_at", "Roche", "2024-09-01"), add("Leo", "lives_in", "Basel", "2024-09-01"))
say("2024-11-20", "Nina has a new hobby: she restores vintage clothes and sells them online.",
    add("Nina", "likes", "vintage clothes"))
say("2025-03-09", "Tom has been seeing Chloe since New Year; they met at a press event in Paris.",
    add("Tom", "dating", "Chloe", "2025-01-01"))

# -- Ana -------------------------------------------------------------------------------------------

say("2021-02-15", "Ana sent me pictures of the waves at Ericeira. She lives in Lisbon and surfs before work "
    "every day.",
    add("Ana", "lives_in", "Lisbon"), add("Ana", "likes", "surfing"))
say("2021-02-16", "Ana works at Farfetch, in their Lisbon office, doing marketing.",
    add("Ana", "works_at", "Farfetch"), add("Ana", "works_as", "marketing manager"))
say("2022-01-09", "Ana adopted a rescue dog called Pimenta. Tiny, black and absolutely mad.",
    add("Ana", "has_pet", "Pimenta"))
say("2023-01-10", "Ana is back from a month in São Paulo with her family.",
    add("Ana", "traveled_to", "São Paulo", "2022-12-10", "2023-01-08"))
say("2023-05-07", "Ana quit Farfetch and opened her own café in Alfama: Cafe Luna!",
    add("Ana", "works_at", "Cafe Luna", "2023-05-01"), add("Ana", "works_as", "café owner", "2023-05-01"))
say("2025-07-14", "Ana says she's had enough of the surfing crowds; she's into sea kayaking now.",
    end("Ana", "likes", "surfing"), add("Ana", "likes", "sea kayaking"))

# -- Ivan ------------------------------------------------------------------------------------------

say("2021-03-20", "Ivan, Daniel's friend from school, has lived in Prague since 2020 and works at Avast.",
    add("Ivan", "lives_in", "Prague", "2020-01-01"), add("Ivan", "works_at", "Avast"))
say("2021-05-30", "Ivan plays ice hockey in an amateur league in Prague.",
    add("Ivan", "plays", "ice hockey"))
say("2021-12-05", "Ivan beat Dad at chess over a video call. Ivan is a serious chess player.",
    add("Ivan", "likes", "chess"))
say("2022-04-11", "Ivan switched jobs: he's at JetBrains now, working on their IDEs.",
    add("Ivan", "works_at", "JetBrains", "2022-04-01"))
say("2022-12-01", "Ivan knows Yuki from a JetBrains conference in Tokyo; he says she's great.",
    add("Ivan", "knows", "Yuki"))
say("2025-03-18", "Ivan moved to Berlin on the 15th, JetBrains let him transfer. He's living in Prenzlauer Berg.",
    add("Ivan", "lives_in", "Berlin", "2025-03-15"))
say("2025-10-02", "Ivan visited us in Hamburg for the weekend.",
    add("Ivan", "visited", "Hamburg", "2025-09-26", "2025-09-29"))

# -- Lin -------------------------------------------------------------------------------------------

say("2021-04-07", "Lin, my flatmate from my exchange year, lives in Shanghai and works at Alibaba.",
    add("Lin", "lives_in", "Shanghai"), add("Lin", "works_at", "Alibaba"))
say("2021-08-15", "Lin's street photography got featured in a magazine. Photography is her whole life.",
    add("Lin", "likes", "photography"))
say("2022-10-30", "Lin spent a long weekend in Hangzhou taking pictures of the West Lake.",
    add("Lin", "traveled_to", "Hangzhou", "2022-10-21", "2022-10-24"))
say("2023-07-16", "Lin accepted an offer from Grab in Singapore; she moves in August.",
    add("Lin", "lives_in", "Singapore", "2023-08-01"), add("Lin", "works_at", "Grab", "2023-08-14"))
say("2024-08-25", "Lin enrolled in a part-time MBA at NUS, on top of her job. Brave.",
    add("Lin", "studies_at", "NUS", "2024-08-12"))
say("2025-04-06", "Lin spent a week in Bali, diving every day.",
    add("Lin", "traveled_to", "Bali", "2025-03-28", "2025-04-04"), add("Lin", "likes", "diving"))

# -- Sofia and Marco -------------------------------------------------------------------------------

say("2021-05-09", "Sofia, my architect friend in Barcelona, works at RCR Arquitectes and dances salsa three "
    "nights a week.",
    add("Sofia", "lives_in", "Barcelona"), add("Sofia", "works_as", "architect"),
    add("Sofia", "works_at", "RCR Arquitectes"), add("Sofia", "likes", "salsa"))
say("2021-05-10", "Sofia says she can't stand the cold, which is why she'll never visit me in Berlin in winter.",
    add("Sofia", "dislikes", "cold weather"))
say("2022-06-19", "Sofia's boyfriend Marco lives in Milan and works at Pirelli as a data analyst. They've been "
    "together since last October.",
    add("Sofia", "dating", "Marco", "2021-10-01"), add("Marco", "lives_in", "Milan"),
    add("Marco", "works_at", "Pirelli"), add("Marco", "works_as", "data analyst"))
say("2022-08-07", "Marco is a fantastic cook; his risotto is legendary.",
    add("Marco", "likes", "cooking"))
say("2023-05-14", "Marco moved to Barcelona to live with Sofia.",
    add("Marco", "lives_in", "Barcelona", "2023-05-01"))
say("2023-06-18", "Marco landed a job at Glovo in Barcelona.",
    add("Marco", "works_at", "Glovo", "2023-06-12"))
say("2023-09-17", "Sofia and Marco got married yesterday in Sitges!",
    add("Sofia", "married_to", "Marco", "2023-09-16"), end("Sofia", "dating", "Marco", "2023-09-16"))
say("2024-01-21", "Sofia left RCR and started her own studio, Estudi Vidal.",
    add("Sofia", "works_at", "Estudi Vidal", "2024-01-08"))
say("2025-01-12", "Marco plays five-a-side football with the Glovo team every Thursday.",
    add("Marco", "plays", "football"))

# -- Chloe and Hugo --------------------------------------------------------------------------------

say("2021-06-06", "Chloe is in her final year of international relations at Sciences Po in Paris.",
    add("Chloe", "lives_in", "Paris"), add("Chloe", "studies_at", "Sciences Po"))
say("2021-10-24", "Chloe took me to the opera at the Palais Garnier. She adores opera.",
    add("Chloe", "likes", "opera"))
say("2022-02-27", "Hugo, Chloe's brother, lives in Lyon and works at Sanofi.",
    add("Hugo", "sibling_of", "Chloe"), add("Hugo", "lives_in", "Lyon"), add("Hugo", "works_at", "Sanofi"))
say("2022-03-01", "Hugo loves wine but hates cheese, which makes him the worst Frenchman alive.",
    add("Hugo", "likes", "wine"), add("Hugo", "dislikes", "cheese"))
say("2022-06-30", "Chloe graduated from Sciences Po!",
    add("Chloe", "graduated_from", "Sciences Po", "2022-06-28"),
    end("Chloe", "studies_at", "Sciences Po", "2022-06-28"))
say("2022-09-12", "Chloe got a job at UNESCO in Paris.",
    add("Chloe", "works_at", "UNESCO", "2022-09-05"))
say("2024-02-25", "Chloe is back from a three-week UNESCO mission in Dakar.",
    add("Chloe", "traveled_to", "Dakar", "2024-02-02", "2024-02-23"))
say("2024-06-23", "Hugo moved to Paris to be closer to Chloe; Sanofi moved him to their headquarters.",
    add("Hugo", "lives_in", "Paris", "2024-06-15"))

# -- Ben -------------------------------------------------------------------------------------------

say("2021-02-21", "Ben, our neighbour in Friedrichshain, is a baker at Brot & Butter and brings us leftover "
    "croissants.",
    add("Ben", "lives_in", "Berlin"), add("Ben", "works_at", "Brot & Butter"), add("Ben", "works_as", "baker"))
say("2021-07-18", "Ben got a dog! A beagle called Biscuit.",
    add("Ben", "has_pet", "Biscuit"))
say("2021-09-26", "Ben plays drums in a punk band. We can hear them through the wall.",
    add("Ben", "plays", "drums"))
say("2022-02-09", "Ben says he's moving to Leipzig in April.",
    add("Ben", "lives_in", "Leipzig", "2022-04-01"))
say("2022-02-20", "Ben isn't moving to Leipzig after all; he was only joking about the rent.",
    correct("Ben", "lives_in", "Leipzig", "Berlin", "he was joking; he never planned to move"))
say("2022-03-14", "Ben quit Brot & Butter; the early shifts were killing him.",
    end("Ben", "works_at", "Brot & Butter", "2022-03-11"))
say("2023-01-23", "Ben opened his own bakery, Kruste, around the corner from us!",
    add("Ben", "works_at", "Kruste", "2023-01-20"))

# -- Yuki ------------------------------------------------------------------------------------------

say("2023-03-05", "Ivan put us in touch with his friend Yuki before our Japan trip. She designs games at Nintendo "
    "and moved from Tokyo to Kyoto last November for the job, after six years at Sony.",
    add("Yuki", "works_as", "game designer"), add("Yuki", "works_at", "Sony", "2016-10-01", "2022-11-01"),
    add("Yuki", "works_at", "Nintendo", "2022-11-01"), add("Yuki", "lives_in", "Tokyo", "2016-10-01", "2022-11-01"),
    add("Yuki", "lives_in", "Kyoto", "2022-11-01"))
say("2023-04-12", "Yuki took us hiking up Mount Kurama; she hikes every weekend.",
    add("Yuki", "likes", "hiking"))

# -- Fatima ----------------------------------------------------------------------------------------

say("2021-03-14", "Fatima from my master's lives in Dublin now and works as a software engineer at Google.",
    add("Fatima", "lives_in", "Dublin"), add("Fatima", "works_at", "Google"),
    add("Fatima", "works_as", "software engineer"))
say("2021-10-03", "Fatima sent me a poem she wrote. She's been writing poetry for years.",
    add("Fatima", "likes", "poetry"))
say("2022-04-17", "Fatima is back from Marrakesh; she spent ten days there with her mum.",
    add("Fatima", "traveled_to", "Marrakesh", "2022-04-05", "2022-04-15"))
say("2024-03-10", "Fatima left Google for Stripe; she's staying in Dublin.",
    add("Fatima", "works_at", "Stripe", "2024-03-04"))
say("2025-09-21", "Fatima is learning Irish in evening classes at Trinity College.",
    add("Fatima", "studies_at", "Trinity College", "2025-09-15"))

# -- Raj and Aisha ---------------------------------------------------------------------------------

say("2021-04-25", "Raj and Aisha came for dinner. They live in London; Raj is at HSBC and Aisha is a doctor "
    "with the NHS. They've been married since 2019.",
    add("Raj", "lives_in", "London"), add("Aisha", "lives_in", "London"), add("Raj", "works_at", "HSBC"),
    add("Aisha", "works_at", "NHS"), add("Aisha", "works_as", "doctor"),
    add("Raj", "married_to", "Aisha", "2019-01-01"))
say("2021-06-27", "Raj watches cricket all weekend, and Aisha paints to escape it.",
    add("Raj", "likes", "cricket"), add("Aisha", "likes", "painting"))
say("2022-02-13", "Raj moved from HSBC to Revolut.",
    add("Raj", "works_at", "Revolut", "2022-02-07"))
say("2023-06-12", "Raj is back in London after three months in Singapore for Revolut's Asia launch, March to May.",
    segment("Raj", "lives_in", "Singapore", "2023-03-01", "2023-06-01"))
say("2024-09-29", "Aisha started a part-time master's in public health at LSHTM.",
    add("Aisha", "studies_at", "LSHTM", "2024-09-23"))

# -- Emma and Greta --------------------------------------------------------------------------------

say("2021-08-01", "My cousin Emma lives in Copenhagen and works in a lab at Novo Nordisk.",
    add("Emma", "lives_in", "Copenhagen"), add("Emma", "works_at", "Novo Nordisk"),
    add("Emma", "works_as", "lab technician"))
say("2021-08-02", "Emma cycles 20 km to work every day, even in the snow.",
    add("Emma", "likes", "cycling"))
say("2022-05-22", "Emma adopted two kittens, Pixel and Byte.",
    add("Emma", "has_pet", "Pixel"), add("Emma", "has_pet", "Byte"))
say("2022-11-20", "Greta, Emma's friend from Oslo, studies marine biology at the University of Oslo and knits "
    "the most amazing sweaters.",
    add("Greta", "lives_in", "Oslo"), add("Greta", "studies_at", "University of Oslo"),
    add("Greta", "likes", "knitting"), add("Emma", "knows", "Greta"))
say("2023-06-04", "Greta finished her degree at the University of Oslo.",
    add("Greta", "graduated_from", "University of Oslo", "2023-06-01"),
    end("Greta", "studies_at", "University of Oslo", "2023-06-01"))
say("2023-07-23", "Emma spent a week hiking around Oslo with Greta.",
    add("Emma", "traveled_to", "Oslo", "2023-07-14", "2023-07-21"))
say("2023-10-01", "Greta got a job at the Norwegian Polar Institute.",
    add("Greta", "works_at", "Norwegian Polar Institute", "2023-09-25"))
say("2024-06-16", "Emma is leaving Novo Nordisk at the end of August to do a PhD at the University of Copenhagen.",
    end("Emma", "works_at", "Novo Nordisk", "2024-09-01"),
    add("Emma", "studies_at", "University of Copenhagen", "2024-09-01"))
say("2024-08-26", "Greta spent a month on Svalbard counting walruses.",
    add("Greta", "traveled_to", "Svalbard", "2024-07-25", "2024-08-24"))
say("2025-06-01", "Greta moved to Tromsø for her job.",
    add("Greta", "lives_in", "Tromsø", "2025-05-15"))

# -- Lucas and Zoe ---------------------------------------------------------------------------------

say("2021-09-12", "Lucas from my Erasmus year lives in Toronto and works at Spotify.",
    add("Lucas", "lives_in", "Toronto"), add("Lucas", "works_at", "Spotify"))
say("2021-09-20", "Oops: Lucas works at Shopify, not Spotify. I misheard him on the call.",
    correct("Lucas", "works_at", "Spotify", "Shopify", "misheard on a call"))
say("2022-01-16", "Lucas plays ice hockey on Tuesdays and watches the Leafs every other day.",
    add("Lucas", "plays", "ice hockey"))
say("2022-10-02", "Lucas has a girlfriend, Zoe, a teacher who just moved to Toronto from Montreal.",
    add("Lucas", "dating", "Zoe", "2022-06-01"), add("Zoe", "works_as", "teacher"),
    add("Zoe", "lives_in", "Montreal", "2015-09-01", "2022-09-01"), add("Zoe", "lives_in", "Toronto", "2022-09-01"))
say("2023-02-19", "Zoe does pottery too! We swap glaze tips over WhatsApp.",
    add("Zoe", "likes", "pottery"))
say("2024-08-12", "Lucas and Zoe got married on Saturday at a lake in Muskoka.",
    add("Lucas", "married_to", "Zoe", "2024-08-10"), end("Lucas", "dating", "Zoe", "2024-08-10"))
say("2025-06-29", "Lucas and Zoe are back from a road trip to Vancouver.",
    add("Lucas", "traveled_to", "Vancouver", "2025-06-14", "2025-06-28"),
    add("Zoe", "traveled_to", "Vancouver", "2025-06-14", "2025-06-28"))

# -- Felix and Hannah ------------------------------------------------------------------------------

say("2021-09-04", "My friend Felix lives in Vienna and works at A1 Telekom; he climbs with me whenever I visit.",
    add("Felix", "lives_in", "Vienna"), add("Felix", "works_at", "A1 Telekom"), add("Felix", "likes", "climbing"))
say("2022-03-20", "Felix is dating Hannah, a medical student at the University of Vienna.",
    add("Felix", "dating", "Hannah", "2022-03-01"), add("Hannah", "lives_in", "Vienna"),
    add("Hannah", "studies_at", "University of Vienna"))
say("2022-07-10", "Hannah hikes in the Alps every weekend in summer.",
    add("Hannah", "likes", "hiking"))
say("2023-06-25 20:00", "Hannah passed her final exams and graduated from the University of Vienna!",
    add("Hannah", "graduated_from", "University of Vienna", "2023-06-23"),
    end("Hannah", "studies_at", "University of Vienna", "2023-06-23"))
say("2023-09-10", "Hannah started her residency at the AKH Vienna.",
    add("Hannah", "works_at", "AKH Vienna", "2023-09-01"), add("Hannah", "works_as", "doctor", "2023-09-01"))
say("2024-02-18", "Felix and Hannah broke up after two years.",
    end("Felix", "dating", "Hannah", "2024-02-10"))
say("2024-03-24", "Felix took a job at Red Bull and moved to Salzburg.",
    add("Felix", "works_at", "Red Bull", "2024-03-18"), add("Felix", "lives_in", "Salzburg", "2024-03-15"))

# -- Clara -----------------------------------------------------------------------------------------

say("2021-11-21", "Clara from Munich (Lena's friend, now mine too) works at SAP and skis every weekend in winter.",
    add("Clara", "lives_in", "Munich"), add("Clara", "works_at", "SAP"), add("Clara", "likes", "skiing"))
say("2022-12-11", "Clara bought a horse! His name is Sternchen and she rides him before work.",
    add("Clara", "has_pet", "Sternchen"), add("Clara", "likes", "horse riding"))
say("2024-01-14", "Clara moved from SAP to Celonis.",
    add("Clara", "works_at", "Celonis", "2024-01-08"))
say("2025-02-23", "Clara is into natural wine now and drags everyone to wine bars.",
    add("Clara", "likes", "natural wine"))

# -- Mateo and Ines --------------------------------------------------------------------------------

say("2022-01-30", "Mateo, a guitarist I met at Sofia's birthday, lives in Madrid and works at Telefónica.",
    add("Mateo", "lives_in", "Madrid"), add("Mateo", "works_at", "Telefónica"), add("Mateo", "plays", "guitar"))
say("2022-07-24", "Ines from Porto, Ana's cousin, spent her holiday surfing in the Azores.",
    add("Ines", "lives_in", "Porto"), add("Ines", "likes", "surfing"),
    add("Ines", "traveled_to", "Azores", "2022-07-09", "2022-07-20"))
say("2022-07-25", "Ines works as an engineer at Critical Software.",
    add("Ines", "works_at", "Critical Software"), add("Ines", "works_as", "engineer"))
say("2023-11-26", "Mateo spent three weeks in Buenos Aires learning tango.",
    add("Mateo", "traveled_to", "Buenos Aires", "2023-11-01", "2023-11-22"), add("Mateo", "likes", "tango"))
say("2024-04-14", "Mateo and Ines are together now! They met at Sofia's wedding.",
    add("Mateo", "met", "Ines", "2023-09-16", "2023-09-17"), add("Mateo", "dating", "Ines", "2024-04-01"))
say("2025-02-09", "Ines moved to Madrid to be with Mateo.",
    add("Ines", "lives_in", "Madrid", "2025-02-01"))
say("2025-03-16", "Ines started a job at Cabify in Madrid.",
    add("Ines", "works_at", "Cabify", "2025-03-10"))

# -- Sven, Paula, Victor, Theo and Elif ------------------------------------------------------------

say("2022-05-29", "Sven from Stockholm works at Spotify (really Spotify this time) and plays bass in a "
    "techno-jazz trio.",
    add("Sven", "lives_in", "Stockholm"), add("Sven", "works_at", "Spotify"), add("Sven", "plays", "bass"),
    add("Sven", "likes", "techno"))
say("2024-10-27", "Sven left Spotify to start his own music label, Nordljud Records.",
    add("Sven", "works_at", "Nordljud Records", "2024-10-21"))
say("2022-08-28", "Paula, a translator I worked with on the Zalando app, lives in Rome and loves opera as much "
    "as Chloe does.",
    add("Paula", "lives_in", "Rome"), add("Paula", "works_as", "translator"), add("Paula", "likes", "opera"))
say("2023-05-28", "Paula spent a week in Athens with Theo.",
    add("Paula", "traveled_to", "Athens", "2023-05-18", "2023-05-25"), add("Paula", "knows", "Theo"))
say("2023-05-29", "Theo lives in Athens and works for a shipping company, Costamare. He sails every weekend.",
    add("Theo", "lives_in", "Athens"), add("Theo", "works_at", "Costamare"), add("Theo", "likes", "sailing"))
say("2023-06-01", "Sorry, I got that wrong: Theo works for Danaos, not Costamare.",
    correct("Theo", "works_at", "Costamare", "Danaos", "wrong company name"))
say("2024-07-21", "Theo sailed around the Cyclades for three weeks.",
    add("Theo", "traveled_to", "Cyclades", "2024-06-28", "2024-07-19"))
say("2025-10-19", "Paula moved to Florence for a teaching job at the University of Florence.",
    add("Paula", "lives_in", "Florence", "2025-10-01"),
    add("Paula", "works_at", "University of Florence", "2025-10-01"))
say("2023-01-29", "Victor lives in Brussels and works at the European Commission on digital policy.",
    add("Victor", "lives_in", "Brussels"), add("Victor", "works_at", "European Commission"))
say("2023-02-05", "Victor collects Belgian comics; he has every Tintin in first edition.",
    add("Victor", "likes", "comics"))
say("2025-05-11", "Victor has a new puppy, a corgi named Waffle.",
    add("Victor", "has_pet", "Waffle"))
say("2024-02-11", "Elif is moving to Berlin! She got a job at Delivery Hero, the same place as Omar.",
    add("Elif", "lives_in", "Berlin", "2024-02-26"), add("Elif", "works_at", "Delivery Hero", "2024-03-01"))
say("2024-06-09", "Elif and Omar are colleagues now; they play table tennis at lunch.",
    add("Elif", "plays", "table tennis"), add("Elif", "knows", "Omar"))


# -- More of the five years, person by person ---------------------------------------------------

say("2021-04-11", "Daniel and I spent the Easter weekend in Vienna with Felix.",
    add("Maya", "traveled_to", "Vienna", "2021-04-02", "2021-04-06"),
    add("Daniel", "traveled_to", "Vienna", "2021-04-02", "2021-04-06"))
say("2021-07-30", "I've started reading crime novels again; I finished three Nesbø books this month.",
    add("Maya", "likes", "crime novels"))
say("2021-12-30", "Christmas in Cologne with Mum and Dad, as always.",
    add("Maya", "traveled_to", "Cologne", "2021-12-23", "2021-12-28"))
say("2022-01-23", "I've started Spanish lessons at the Instituto Cervantes on Monday evenings.",
    add("Maya", "studies_at", "Instituto Cervantes", "2022-01-17"))
say("2022-07-17", "Daniel and I spent a week in Barcelona with Sofia. So much tapas.",
    add("Maya", "traveled_to", "Barcelona", "2022-07-09", "2022-07-16"),
    add("Daniel", "traveled_to", "Barcelona", "2022-07-09", "2022-07-16"))
say("2022-12-12", "I stopped my Spanish lessons; work is far too busy.",
    end("Maya", "studies_at", "Instituto Cervantes", "2022-12-01"))
say("2023-01-15", "I've got really into running this winter, thanks to Lena nagging me.",
    add("Maya", "likes", "running"))
say("2023-08-06", "Weekend in Copenhagen with Emma, cycling everywhere.",
    add("Maya", "traveled_to", "Copenhagen", "2023-08-04", "2023-08-06"))
say("2024-06-02", "I joined a choir in Hamburg; we sing on Wednesday nights.",
    add("Maya", "likes", "choir singing"))
say("2024-10-20", "Miso has a sister now: we adopted another cat yesterday and called her Tofu.",
    add("Maya", "has_pet", "Tofu", "2024-10-19"))
say("2024-12-29", "Christmas in Toulouse with Lena, Jan and Noah this year.",
    add("Maya", "traveled_to", "Toulouse", "2024-12-22", "2024-12-28"),
    add("Daniel", "traveled_to", "Toulouse", "2024-12-22", "2024-12-28"))
say("2025-05-04", "My knee has ruined running for me; I've stopped for good.",
    end("Maya", "likes", "running"))
say("2025-09-21 10:00", "Daniel and I spent a week in Madrid visiting Ines and Mateo.",
    add("Maya", "traveled_to", "Madrid", "2025-09-13", "2025-09-20"),
    add("Daniel", "traveled_to", "Madrid", "2025-09-13", "2025-09-20"))
say("2023-11-12", "Daniel got into baking bread during his night-shift weeks; Ben gave him a sourdough starter.",
    add("Daniel", "likes", "baking"))

say("2022-08-14", "Lena, Jan and little Noah spent a week at Lake Garda.",
    add("Lena", "traveled_to", "Lake Garda", "2022-08-06", "2022-08-13"),
    add("Jan", "traveled_to", "Lake Garda", "2022-08-06", "2022-08-13"))
say("2023-10-08", "Jan has taken up rugby with a club in Toulouse.",
    add("Jan", "plays", "rugby"))
say("2024-03-03", "Lena says she loves Toulouse; she's learning French cooking from a neighbour.",
    add("Lena", "likes", "French cooking"))

say("2021-09-01", "Jonas is back from his summer internship at SAP in Walldorf, July and August.",
    segment("Jonas", "lives_in", "Walldorf", "2021-07-01", "2021-09-01"),
    add("Jonas", "works_at", "SAP", "2021-07-01", "2021-09-01"))
say("2023-04-30", "Jonas went to Amsterdam for King's Day with his friends.",
    add("Jonas", "traveled_to", "Amsterdam", "2023-04-26", "2023-04-28"))
say("2025-05-18", "Jonas and Hannah have been on a few dates in Vienna!",
    add("Jonas", "dating", "Hannah", "2025-05-01"))

say("2022-10-16", "Dad is learning to play the cello at 64!",
    add("Peter", "plays", "cello"))
say("2022-12-18", "Mum has joined a book club at her old library; she reads a novel a week.",
    add("Ruth", "likes", "reading"))
say("2023-12-10", "Dad gave up the cello; his fingers hurt too much.",
    end("Peter", "plays", "cello"))
say("2025-08-24", "Mum and Dad spent a week walking in the Lake District.",
    add("Ruth", "traveled_to", "Lake District", "2025-08-10", "2025-08-17"),
    add("Peter", "traveled_to", "Lake District", "2025-08-10", "2025-08-17"))
say("2022-06-14", "Oma Hilde turned 90 on Saturday and we all went to Bremen to celebrate.",
    add("Maya", "visited", "Bremen", "2022-06-11", "2022-06-13"))
say("2025-01-26", "Oma Hilde has taken up painting at the care home.",
    add("Hilde", "likes", "painting"))

say("2021-10-31", "Priya was in Berlin for a week and we climbed every single day.",
    add("Priya", "traveled_to", "Berlin", "2021-10-23", "2021-10-30"))
say("2023-07-09", "Priya and Omar spent two weeks in Portugal, mostly in Porto.",
    add("Priya", "traveled_to", "Porto", "2023-06-24", "2023-07-08"),
    add("Omar", "traveled_to", "Porto", "2023-06-24", "2023-07-08"))
say("2024-04-21", "Omar has started learning German; he takes classes at the Goethe-Institut.",
    add("Omar", "studies_at", "Goethe-Institut", "2024-04-15"))
say("2024-09-08", "Priya has become obsessed with Korean food.",
    add("Priya", "likes", "Korean food"))
say("2025-03-30", "Omar finished his German course at the Goethe-Institut.",
    end("Omar", "studies_at", "Goethe-Institut", "2025-03-28"))

say("2023-06-26", "Tom went to Glastonbury again; he loves festivals.",
    add("Tom", "traveled_to", "Glastonbury", "2023-06-21", "2023-06-25"))
say("2025-06-08", "Tom and Chloe spent a week in Provence.",
    add("Tom", "traveled_to", "Provence", "2025-05-31", "2025-06-07"),
    add("Chloe", "traveled_to", "Provence", "2025-05-31", "2025-06-07"))
say("2025-11-16", "Tom is moving to Paris in January to be with Chloe; the BBC is making him its Paris "
    "correspondent.",
    add("Tom", "lives_in", "Paris", "2026-01-15"), add("Tom", "works_as", "Paris correspondent", "2026-01-15"))
say("2025-04-13", "Nina adopted a cat called Karl.",
    add("Nina", "has_pet", "Karl"))
say("2025-08-17", "Ivan has started dating Nina! They met at my birthday party.",
    add("Ivan", "dating", "Nina", "2025-08-01"))
say("2025-10-26", "Nina started working for MDR in Leipzig.",
    add("Nina", "works_at", "MDR", "2025-10-20"))

say("2021-11-14", "Ana came to Berlin for the weekend, her first time here in winter.",
    add("Ana", "traveled_to", "Berlin", "2021-11-12", "2021-11-14"))
say("2023-09-24", "Ivan went to Tokyo for a JetBrains event and visited Yuki in Kyoto on the way back.",
    add("Ivan", "traveled_to", "Tokyo", "2023-09-12", "2023-09-20"),
    add("Ivan", "visited", "Kyoto", "2023-09-18", "2023-09-20"))
say("2024-02-18 21:00", "Lin went home to Shanghai for Chinese New Year.",
    add("Lin", "traveled_to", "Shanghai", "2024-02-07", "2024-02-17"))
say("2025-11-09", "Lin got promoted at Grab: she leads the data team now.",
    add("Lin", "works_as", "head of data", "2025-11-01"))

say("2023-02-26", "Sofia flew to Milan to see Marco for a long weekend.",
    add("Sofia", "traveled_to", "Milan", "2023-02-17", "2023-02-20"))
say("2024-11-24", "Sofia and Marco had a baby girl on Wednesday: Alba!",
    add("Sofia", "parent_of", "Alba", "2024-11-20"), add("Marco", "parent_of", "Alba", "2024-11-20"))
say("2023-04-23", "Chloe has taken up fencing, of all things.",
    add("Chloe", "likes", "fencing"))
say("2024-10-06", "Hugo just got back from two weeks in Japan.",
    add("Hugo", "traveled_to", "Japan", "2024-09-20", "2024-10-04"))
say("2024-10-13", "I was wrong about Hugo's trip: it was his colleague who went to Japan, Hugo stayed in Paris.",
    retract("Hugo", "traveled_to", "Japan", "it was his colleague who went"))
say("2023-11-19", "Hugo ran his first marathon in Lyon; now he wants to do them all.",
    add("Hugo", "likes", "running"))

say("2023-06-04 21:00", "Ben adopted a second dog, a scruffy terrier called Crumble.",
    add("Ben", "has_pet", "Crumble"))
say("2024-09-22", "Ben is dating Mia! Small world.",
    add("Ben", "dating", "Mia", "2024-09-01"))
say("2025-02-16", "Ben left the punk band to focus on the bakery.",
    end("Ben", "plays", "drums"))
say("2025-05-25", "Mia left the Charité for a job at Vivantes.",
    add("Mia", "works_at", "Vivantes", "2025-05-01"))

say("2024-11-17", "Yuki came to Hamburg for a games conference and stayed with us for a week.",
    add("Yuki", "traveled_to", "Hamburg", "2024-11-08", "2024-11-14"))
say("2023-08-13", "Fatima swims in Dublin Bay all year round now, even in January.",
    add("Fatima", "likes", "sea swimming"))
say("2024-07-14", "Fatima spent two weeks hiking the Jordan Trail.",
    add("Fatima", "traveled_to", "Jordan", "2024-06-28", "2024-07-12"), add("Fatima", "likes", "hiking"))

say("2022-09-25", "Raj and Aisha had twins! Zara and Kabir, both tiny and perfect.",
    add("Raj", "parent_of", "Zara", "2022-09-21"), add("Raj", "parent_of", "Kabir", "2022-09-21"),
    add("Aisha", "parent_of", "Zara", "2022-09-21"), add("Aisha", "parent_of", "Kabir", "2022-09-21"))
say("2025-04-27", "Raj and Aisha are leaving London for Brighton next month; they want a garden for the twins.",
    add("Raj", "lives_in", "Brighton", "2025-05-15"), add("Aisha", "lives_in", "Brighton", "2025-05-15"))

say("2022-02-13 21:00", "Emma went skiing in Lillehammer with her colleagues.",
    add("Emma", "traveled_to", "Lillehammer", "2022-02-05", "2022-02-12"))
say("2025-01-19", "Emma has taken up ice swimming in Copenhagen harbour. She's mad.",
    add("Emma", "likes", "ice swimming"))
say("2023-09-03", "Lucas and Zoe visited us in Berlin for a week.",
    add("Lucas", "traveled_to", "Berlin", "2023-08-26", "2023-09-02"),
    add("Zoe", "traveled_to", "Berlin", "2023-08-26", "2023-09-02"))
say("2025-02-02", "Lucas left Shopify and works for Wealthsimple now.",
    add("Lucas", "works_at", "Wealthsimple", "2025-01-27"))

say("2024-12-08", "Felix is into trail running now, in the mountains around Salzburg.",
    add("Felix", "likes", "trail running"))
say("2023-03-12", "Clara spent a week skiing in Zermatt.",
    add("Clara", "traveled_to", "Zermatt", "2023-03-04", "2023-03-11"))
say("2025-10-12", "Clara moved out of Munich to a farm near Rosenheim so that Sternchen can live with her.",
    add("Clara", "lives_in", "Rosenheim", "2025-10-01"))

say("2022-02-03", "Sorry, I mixed something up: Mateo works at BBVA, not Telefónica.",
    correct("Mateo", "works_at", "Telefónica", "BBVA", "mixed up his employer"))
say("2025-08-31", "Mateo and Ines spent August in Oaxaca.",
    add("Mateo", "traveled_to", "Oaxaca", "2025-08-02", "2025-08-29"),
    add("Ines", "traveled_to", "Oaxaca", "2025-08-02", "2025-08-29"))

say("2023-02-12", "Sven came to Berlin for a techno weekend with Jonas.",
    add("Sven", "traveled_to", "Berlin", "2023-02-09", "2023-02-13"), add("Sven", "knows", "Jonas"))
say("2024-04-07", "Paula and Theo are officially a couple!",
    add("Paula", "dating", "Theo", "2024-03-01"))
say("2025-12-07", "Paula and Theo broke up; Florence to Athens was too far.",
    end("Paula", "dating", "Theo", "2025-12-01"))
say("2024-01-28", "Victor moved to Luxembourg for a job at the European Investment Bank.",
    add("Victor", "lives_in", "Luxembourg", "2024-01-15"),
    add("Victor", "works_at", "European Investment Bank", "2024-01-15"))
say("2025-03-23", "Theo got his skipper's licence and charters boats in the summer now.",
    add("Theo", "works_as", "skipper", "2025-04-01"))

say("2025-01-19 21:00", "Kai is a big jazz fan too; we went to a jazz club on the Reeperbahn.",
    add("Kai", "likes", "jazz"))
say("2025-04-06 21:00", "Kai says he's moving to Vienna in the summer for a job at the Vienna Symphony.",
    add("Kai", "lives_in", "Vienna", "2025-07-01"))
say("2025-04-19", "Kai isn't moving to Vienna after all: the orchestra job fell through.",
    correct("Kai", "lives_in", "Vienna", "Hamburg", "the job in Vienna fell through; he stays in Hamburg"))
say("2025-06-15", "Kai toured Japan with the orchestra for two weeks.",
    add("Kai", "traveled_to", "Tokyo", "2025-05-28", "2025-06-11"))
say("2025-07-20", "Elif spent two weeks photographing in Georgia, mostly in Tbilisi.",
    add("Elif", "traveled_to", "Tbilisi", "2025-07-04", "2025-07-18"))


def steps() -> list[dict]:
    """The messages in time order, each at its own moment (evenings, a few minutes apart)."""
    dated = []
    for order, (day, text, writes, who) in enumerate(MESSAGES):
        at = datetime.fromisoformat(day if " " in day else f"{day} 19:00")
        dated.append((at, order, text, writes, who))
    dated.sort(key=lambda item: (item[0], item[1]))
    out, last = [], None
    for at, _, text, writes, who in dated:
        if last is not None and at <= last:
            at = last + timedelta(minutes=7)
        last = at
        step = {"at": at.strftime("%Y-%m-%dT%H:%M:%SZ"), "say": {**who, "text": text}}
        if writes:
            step["then"] = writes
        out.append(step)
    return out


def scenario() -> dict:
    return {
        "about": "Five years of Maya's memory, January 2021 to December 2025: her chat messages about her "
                 "life and about the people in it (moves, jobs, studies, relationships, hobbies taken up "
                 "and dropped, trips, corrections and retractions), each with the writes it supports.",
        "owner": "Maya",
        "predicates": PREDICATES,
        "steps": steps(),
    }


def render() -> str:
    data = scenario()
    lines = ["{", f'  "about": {json.dumps(data["about"], ensure_ascii=False)},',
             f'  "owner": {json.dumps(data["owner"])},',
             f'  "predicates": {json.dumps(data["predicates"])},', '  "steps": [']
    body = [f"    {json.dumps(step, ensure_ascii=False)}" for step in data["steps"]]
    lines.append(",\n".join(body))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    facts = sum(len(step.get("then", [])) for step in scenario()["steps"])
    print(f"wrote {OUT} ({len(MESSAGES)} messages, {facts} writes)", file=sys.stderr)
