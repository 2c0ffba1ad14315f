"""A chat as a phone exports it (WhatsApp's text, Android and iOS), read by `graphmem ingest` as it is."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner

from graphmem.cli import main
from graphmem.core.times import UTC
from graphmem.errors import ImportFailed
from graphmem.ingest import read_messages
from tests.conftest import ENGINE

ANDROID = """\ufeff02/02/2026, 20:14 - Messages and calls are end-to-end encrypted. No one outside of this chat, \
not even WhatsApp, can read or listen to them. Tap to learn more.
02/02/2026, 20:14 - Nacho: Carmencita!! how was the birthday dinner with mamá
02/02/2026, 20:16 - Carmen: Good! She made cordero, obviously 😂
shopping list for sunday:
- bread
14/02/2026, 19:45 - Carmen: <Media omitted>
14/02/2026, 19:45 - Carmen: Her name is Lola, she's 3, super shy
21/02/2026, 13:20 - Carmen: We adopted Lola today!!! 🐕
21/02/2026, 13:21 - Nacho: This message was deleted
21/02/2026, 13:22 - Nacho: welcome to the family Lola <This message was edited>
21/02/2026, 13:22 - Nacho changed his phone number to a new number. Tap to message or add the new number.
"""

IOS = """\u200e[2/14/26, 8:14:05\u202fPM] Ana: hola!! 12 hour clock here
[2/14/26, 8:15:00\u202fPM] Ben: \u200eimage omitted
[2/14/26, 8:16:30\u202fPM] Ben: two
lines
[3/1/26, 9:00:00\u202fAM] Ana: march now
"""


def write(tmp_path, text: str, name: str = "WhatsApp Chat with Nacho.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def ingested(tmp_path, path, *options: str) -> tuple[int, Callable[..., list[dict]]]:
    """``graphmem ingest PATH --replay --approve`` into a new store: the episodes it recorded, and a command runner on
    that store answering its ``--json``."""
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    result = CliRunner().invoke(main, [*store, "ingest", str(path), "--replay", "--approve", *options, "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output

    def asked(*command: str) -> list[dict]:
        return json.loads(CliRunner().invoke(main, [*store, *command, "--json"], catch_exceptions=False).stdout)

    return json.loads(result.stdout)[0]["episodes"], asked


@pytest.mark.engine_free
def test_an_android_export_is_read_as_the_phone_wrote_it(tmp_path):
    messages = list(read_messages(write(tmp_path, ANDROID), tz="Europe/Madrid"))
    assert [(m.actor, m.role) for m in messages] == [("Nacho", "user"), ("Carmen", "user"), ("Carmen", "user"),
                                                      ("Carmen", "user"), ("Nacho", "user")]
    assert messages[1].content == "Good! She made cordero, obviously 😂\nshopping list for sunday:\n- bread"
    assert messages[-1].content == "welcome to the family Lola"  # what the export adds, left out
    # day first, read from "14/02/2026"; naive times in the chat's zone (CET is UTC+1 in February)
    assert messages[0].chat_time == datetime(2026, 2, 2, 19, 14, tzinfo=UTC)
    assert messages[3].chat_time == datetime(2026, 2, 21, 12, 20, tzinfo=UTC)
    assert read_messages(write(tmp_path, ANDROID)).participants == ("Carmen", "Nacho")


@pytest.mark.engine_free
def test_an_ios_export_with_a_twelve_hour_clock_and_marks_is_read(tmp_path):
    messages = list(read_messages(write(tmp_path, IOS)))
    assert [(m.actor, m.content, m.chat_time) for m in messages] == [
        ("Ana", "hola!! 12 hour clock here", datetime(2026, 2, 14, 20, 14, 5, tzinfo=UTC)),
        ("Ben", "two\nlines", datetime(2026, 2, 14, 20, 16, 30, tzinfo=UTC)),
        ("Ana", "march now", datetime(2026, 3, 1, 9, 0, tzinfo=UTC))]  # month first, read from "2/14/26"


@pytest.mark.engine_free
def test_the_order_of_the_dates_is_the_files_or_the_option(tmp_path):
    either = "03/04/2026, 10:00 - Ana: hi\n05/04/2026, 10:01 - Ben: hey\n"
    assert read_messages(write(tmp_path, either))[0].chat_time.month == 3  # month first, as any other file
    assert read_messages(write(tmp_path, either), day_first=True)[0].chat_time.month == 4
    told = "25/03/2026, 10:00 - Ana: hi\n03/04/2026, 10:01 - Ben: hey\n"
    assert read_messages(write(tmp_path, told))[1].chat_time.month == 4  # the 25th says day first
    both = "25/03/2026, 10:00 - Ana: hi\n03/25/2026, 10:01 - Ben: hey\n"
    with pytest.raises(ImportFailed, match="writes dates both ways: line 1 has the day first, line 2 the month first"):
        read_messages(write(tmp_path, both))
    with pytest.raises(ImportFailed, match=r":1: no such date"):
        read_messages(write(tmp_path, "31/02/2026, 10:00 - Ana: hi\n"))


@pytest.mark.engine_free
def test_a_message_running_on_past_the_longest_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("graphmem.ingest._files.MAX_LINE", 100)
    path = write(tmp_path, "01/02/2026, 10:00 - Ana: hi\n" + "more words here\n" * 20)
    with pytest.raises(ImportFailed, match=r":1: a message longer than 100 bytes"):
        read_messages(path)


@pytest.mark.engine_free
def test_a_file_that_only_looks_like_an_export_at_first_is_json_lines_or_refused(tmp_path):
    path = write(tmp_path, '{"role": "user", "content": "hi", "chat_time": "2026-02-01T10:00:00Z"}\n', "c.jsonl")
    assert read_messages(path)[0].content == "hi"
    with pytest.raises(ImportFailed, match="not valid JSON"):
        read_messages(write(tmp_path, "hello\n01/02/2026, 10:00 - Ana: hi\n"))


def test_graphmem_ingest_takes_the_export_as_it_is(tmp_path):
    episodes, asked = ingested(tmp_path, write(tmp_path, ANDROID), "--timezone", "Europe/Madrid")
    assert episodes == 5
    assert [(r["predicate"], r["object"]) for r in asked("beliefs", "--about", "Carmen")] == [("has_pet", "dog")]


@pytest.mark.engine_free
def test_an_attackers_exports_lone_returns_app_lines_and_the_clocks_changing(tmp_path):
    """An attacker's: lone CRs made one message of three; an app line with a colon made a writer called
    'Ana created group "Trip'; the hour the clocks go back, and the one they skip, reordered the chat; a Spanish
    phone's media and edit markers were kept as text."""
    cr = write(tmp_path, "14/03/2026, 21:07 - Carmen: hola\r14/03/2026, 21:08 - Nacho: que tal\rsegunda linea\r")
    assert [(m.actor, m.content) for m in read_messages(cr)] == [("Carmen", "hola"),
                                                                ("Nacho", "que tal\nsegunda linea")]
    app = write(tmp_path, '14/03/2026, 21:06 - Ana created group "Trip: Lisbon"\n14/03/2026, 21:07 - Ana: hi\n'
                          '14/03/2026, 21:08 - Ben changed the subject to "a: b"\n14/03/2026, 21:09 - Ben: hey\n'
                          "14/03/2026, 21:10 - Ben: <Multimedia omitido>\n14/03/2026, 21:11 - Ben: imagen omitida\n"
                          "14/03/2026, 21:12 - Ana: vale <Se editó este mensaje.>\n")
    found = read_messages(app)
    assert [(m.actor, m.content) for m in found] == [("Ana", "hi"), ("Ben", "hey"), ("Ana", "vale")]
    assert found.participants == ("Ana", "Ben")
    back = write(tmp_path, "25/10/2026, 01:50 - Ana: a\n25/10/2026, 02:10 - Ben: b\n25/10/2026, 02:50 - Ana: c\n"
                           "25/10/2026, 02:05 - Ben: d\n25/10/2026, 02:40 - Ana: e\n25/10/2026, 03:01 - Ben: f\n")
    said = [(m.content, m.chat_time) for m in read_messages(back, tz="Europe/Madrid").in_chat_time_order()]
    assert [text for text, _ in said] == list("abcdef")  # the second 02:05 is the hour repeated
    assert said[3][1] == datetime(2026, 10, 25, 1, 5, tzinfo=UTC)
    skipped = write(tmp_path, "29/03/2026, 01:50 - Ana: a\n29/03/2026, 02:30 - Ben: b\n29/03/2026, 03:01 - Ana: c\n")
    assert [m.content for m in read_messages(skipped, tz="Europe/Madrid").in_chat_time_order()] == list("abc")


TELEGRAM = {"name": "Danyo", "type": "personal_chat", "id": 4242, "messages": [
    {"id": 1, "type": "service", "date": "2026-01-11T19:00:00", "date_unixtime": "1768154400", "actor": "Oksana",
     "action": "phone_call", "text": "", "text_entities": []},
    {"id": 2, "type": "message", "date": "2026-01-11T19:02:11", "date_unixtime": "1768154531", "from": "Oksana",
     "from_id": "user1", "text": "how's the ward", "text_entities": [{"type": "plain", "text": "how's the ward"}]},
    {"id": 3, "type": "message", "date": "2026-01-11T19:03:00", "date_unixtime": "1768154580", "from": "Danyo",
     "from_id": "user2", "text": ["I GOT A CAT ", {"type": "bold", "text": "her name is Biscuit"}],
     "text_entities": []},
    {"id": 4, "type": "message", "date": "2026-01-11T19:04:00", "date_unixtime": "1768154640", "from": "Danyo",
     "from_id": "user2", "text": "", "media_type": "sticker", "sticker_emoji": "🐈", "text_entities": []},
]}


@pytest.mark.engine_free
def test_a_telegram_export_is_read_as_telegram_desktop_writes_it(tmp_path):
    """A new user's: Telegram Desktop's result.json was refused with a hint about 'text_entities'."""
    path = tmp_path / "result.json"
    path.write_text(json.dumps(TELEGRAM, ensure_ascii=False), encoding="utf-8")
    found = read_messages(path)
    assert [(m.id, m.actor, m.role, m.content) for m in found] == [
        ("2", "Oksana", "user", "how's the ward"), ("3", "Danyo", "user", "I GOT A CAT her name is Biscuit")]
    assert found[0].chat_time == datetime(2026, 1, 11, 18, 2, 11, tzinfo=UTC)  # date_unixtime, not the PC's clock
    assert found.participants == ("Danyo", "Oksana")
    assert found.clock == timedelta(hours=1)  # the exporting computer's clock ("date") an hour from UTC


def test_graphmem_ingest_takes_a_telegram_export(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(json.dumps(TELEGRAM, ensure_ascii=False), encoding="utf-8")
    episodes, asked = ingested(tmp_path, path)
    assert episodes == 2
    assert [(r["subject"], r["predicate"], r["object"]) for r in asked("beliefs")] == [("Danyo", "has_pet", "cat")]


def test_a_new_store_in_utc_says_the_telegram_export_was_made_on_another_clock(tmp_path):
    """A new user's (in Seoul): a new store read the chat's days as UTC's without a word."""
    path = tmp_path / "result.json"
    path.write_text(json.dumps(TELEGRAM, ensure_ascii=False), encoding="utf-8")

    def notes(store: str, *options: str) -> list[str]:
        result = CliRunner().invoke(main, ["--store", str(tmp_path / store), "--engine", ENGINE, "ingest", str(path),
                                           *options, "--json"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)[0]["notes"]

    assert [n for n in notes("utc") if "exported on a clock at UTC+01:00" in n and "--timezone ZONE" in n]
    assert not [n for n in notes("kyiv", "--timezone", "Europe/Kyiv") if "exported on a clock" in n]
    assert not [n for n in notes("utc") if "exported on a clock" in n]  # a store already made: its zone is chosen


@pytest.mark.engine_free
def test_an_attackers_telegram_records(tmp_path):
    """A writer missing is its id or refused (never the store's "I"); a message forwarded is kept and read for no
    fact; text pieces within pieces are read through; Telegram records one per line are read; a document that is no
    chat is told so."""
    def one(**fields):
        return {"id": fields.pop("id", 1), "type": "message", "date": "2026-03-14T21:07:15",
                "date_unixtime": "1710450435", **fields}

    def read(records, name="r.json"):
        path = tmp_path / name
        path.write_text(json.dumps({"messages": records}, indent=1), encoding="utf-8")
        return [(m.actor, m.role, m.content) for m in read_messages(path)]

    assert read([one(**{"from": None, "from_id": "user123", "text": "I moved to Berlin"})]) == [
        ("user123", "user", "I moved to Berlin")]
    with pytest.raises(ImportFailed, match=r"r\.json:3: 'actor' must be non-empty text"):
        read([one(**{"from": None, "text": "I moved to Berlin"})])
    assert read([one(**{"from": "Ana", "forwarded_from": "Dmitri", "text": "I just moved to Tokyo!"})]) == [
        ("Ana", "forwarded", "(forwarded from Dmitri) I just moved to Tokyo!")]
    # a new user's: the text says whose words they are wherever it is read (the episode is the forwarder's)
    assert read([one(**{"from": "Ana", "forwarded_from": None, "text": "CONGRATULATIONS! You won"})]) == [
        ("Ana", "forwarded", "(forwarded) CONGRATULATIONS! You won")]
    assert read([one(**{"from": "Ana", "forwarded_from": " Migs \n Reyes ", "text": "promoted na ko!!"})]) == [
        ("Ana", "forwarded", "(forwarded from Migs Reyes) promoted na ko!!")]
    assert read([one(**{"from": "Ana", "forwarded_from": "\u200b", "text": "hi"}),  # a reviewer's: no one seen
                 one(**{"id": 2, "from": "Ana", "forwarded_from": "Bob\u202eevil", "text": "hi"})]) == [
        ("Ana", "forwarded", "(forwarded) hi"), ("Ana", "forwarded", "(forwarded from Bobevil) hi")]
    pieces = ["I love ", {"type": "bold", "text": None}, "pizza ", {"type": "x", "text": ["a", "b"]}, 5]
    assert read([one(**{"from": "Ana", "text": pieces})]) == [("Ana", "user", "I love pizza ab")]
    lines = tmp_path / "tg.jsonl"
    lines.write_text(json.dumps(one(**{"from": "Ana", "text": "hi"})) + "\n"
                     + json.dumps({"id": 2, "type": "service", "date": "x", "text": ""}) + "\n", encoding="utf-8")
    assert [(m.actor, m.content) for m in read_messages(lines)] == [("Ana", "hi")]
    whole = tmp_path / "full.json"
    whole.write_text('{\n "about": "x",\n "chats": {"list": []}\n}', encoding="utf-8")
    with pytest.raises(ImportFailed, match="one JSON document with no \"messages\" list"):
        read_messages(whole)


def _facebook(text: str) -> str:
    """A text as Messenger's older export writes it: each byte of its UTF-8 one character ("Inês" -> "InÃªs")."""
    return text.encode("utf-8").decode("latin-1")


def _sent(who: str, ms: int, **fields):
    return {"sender_name": _facebook(who), "timestamp_ms": ms, "is_geoblocked_for_viewer": False, **fields}


#: Messenger's "Download your information" JSON of one chat, newest first, as the older export writes it.
MESSENGER = {"participants": [{"name": _facebook("Duarte Moreira")}, {"name": _facebook("Inês Carvalho")}],
             "messages": [
                 _sent("Inês Carvalho", 1773000300000, content=_facebook("até já primo ❤️"),
                       reactions=[{"reaction": _facebook("❤"), "actor": "Duarte Moreira"}]),
                 _sent("Duarte Moreira", 1773000240000, content="Duarte called you.", call_duration=1847),
                 _sent("Inês Carvalho", 1773000200000, is_unsent=True),
                 _sent("Inês Carvalho", 1773000180000, photos=[{"uri": "messages/inbox/x/photos/1.jpg"}]),
                 _sent("Inês Carvalho", 1773000120000, content="You sent an attachment."),
                 _sent("Inês Carvalho", 1773000060000, content=_facebook("We adopted Pimenta today!!! 🐕")),
                 _sent("Duarte Moreira", 1773000000000, content=_facebook("Nês!! how's Matosinhos"),
                       share={"link": "https://example.org"}),
             ],
             "title": _facebook("Duarte Moreira"), "is_still_participant": True, "thread_path": "inbox/duarte_1",
             "magic_words": []}


@pytest.mark.engine_free
def test_a_messenger_export_is_read_as_facebook_writes_it(tmp_path):
    """A new user's: Messenger's message_1.json was refused ("'role', 'chat_time' are missing"), and her converter
    that forgot Facebook's encoding made "InÃªs Carvalho" an entity. Its texts are read back as the UTF-8 they were;
    calls, unsent messages, photos and the app's lines are left out; newest first is read in time order."""
    path = tmp_path / "message_1.json"
    path.write_text(json.dumps(MESSENGER, indent=2), encoding="utf-8")  # ensure_ascii: \u00c3\u00aa, as Facebook
    found = read_messages(path)
    assert [(m.actor, m.role, m.content) for m in found.in_chat_time_order()] == [
        ("Duarte Moreira", "user", "Nês!! how's Matosinhos"),
        ("Inês Carvalho", "user", "We adopted Pimenta today!!! 🐕"),
        ("Inês Carvalho", "user", "até já primo ❤️")]
    assert found[0].chat_time == datetime(2026, 3, 8, 20, 5, tzinfo=UTC)  # timestamp_ms, UTC
    assert found.participants == ("Duarte Moreira", "Inês Carvalho")


@pytest.mark.engine_free
def test_messengers_newer_export_a_group_and_an_attackers_records(tmp_path):
    """The export of an end-to-end encrypted chat (plain UTF-8, camelCase); a group's file has no "you" (its
    participants are not refused); a Latin-1 text that is no UTF-8 bytes is kept as written; a writer missing and a
    time that is not milliseconds are refused, naming the line."""
    newer = {"participants": ["Ana Lima", "Bruno Reis", "Caio"], "threadName": "Porto crew", "messages": [
        {"isUnsent": False, "media": [], "reactions": [], "senderName": "Bruno Reis", "text": "ok até amanhã",
         "timestamp": 1773000060000, "type": "text"},
        {"isUnsent": True, "media": [], "reactions": [], "senderName": "Ana Lima", "text": "", "timestamp":
         1773000030000, "type": "text"},
        {"isUnsent": False, "media": [{"uri": "x.jpg"}], "reactions": [], "senderName": "Ana Lima", "text": "",
         "timestamp": 1773000020000, "type": "media"},
        {"isUnsent": False, "media": [], "reactions": [], "senderName": "Ana Lima", "text": "I joined a choir",
         "timestamp": 1773000000000, "type": "text"}]}
    path = tmp_path / "message_1.json"
    path.write_text(json.dumps(newer, ensure_ascii=False), encoding="utf-8")
    found = read_messages(path)
    assert [(m.actor, m.content) for m in found.in_chat_time_order()] == [
        ("Ana Lima", "I joined a choir"), ("Bruno Reis", "ok até amanhã")]
    assert found.participants is None  # three people: "you" is no one in particular

    def read(*records):
        path.write_text(json.dumps({"participants": [{"name": "A"}, {"name": "B"}], "messages": list(records)},
                                   indent=1), encoding="utf-8")
        return [(m.actor, m.content) for m in read_messages(path)]

    assert read(_sent("A", 1773000000000, content="café")) == [("A", "café")]  # no UTF-8 bytes: as written
    with pytest.raises(ImportFailed, match=r"message_1\.json:11: 'actor' must be non-empty text"):
        read(_sent(" ", 1773000000000, content="I moved to Lisbon"))
    with pytest.raises(ImportFailed, match=r"message_1\.json:11: .*chat.time"):
        read(_sent("A", "yesterday", content="I moved to Lisbon"))
    with pytest.raises(ImportFailed, match=r"message_1\.json:11: .*chat.time"):
        read(_sent("A", 10**30, content="I moved to Lisbon"))


def test_a_nickname_set_in_messenger_is_no_message_and_its_alias_is_offered(tmp_path):
    """A twenty-second new user's: "Tomás Ferreira set your nickname to Bia." and "You set the nickname for Tomás
    Ferreira to Tomi." were kept as messages (this page says the app's lines are left out), and nothing said who Bia
    and Tomi are: they are left out, and the ingest's notes offer each alias."""
    export = {"participants": [{"name": _facebook("Tomás Ferreira")}, {"name": "Beatriz Almeida"}], "messages": [
        _sent("Beatriz Almeida", 1773000200000, content=_facebook("You set the nickname for Tomás Ferreira to Tomi.")),
        _sent("Tomás Ferreira", 1773000100000, content=_facebook("Tomás Ferreira set your nickname to Bia.")),
        _sent("Tomás Ferreira", 1773000000000, content="Bia!! I got a cat")]}
    path = tmp_path / "message_1.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    found = read_messages(path)
    assert [m.content for m in found] == ["Bia!! I got a cat"]
    assert found.nicknames == [("Tomás Ferreira", "Tomi"), ("Beatriz Almeida", "Bia")]
    said = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "ingest", str(path),
                                     "--replay"], catch_exceptions=False).output
    assert "the app says 'Beatriz Almeida' goes by 'Bia' (a nickname set in Messenger); to have every read treat " \
           "them as one, graphmem alias add Bia 'Beatriz Almeida'" in " ".join(said.split())
    # a sentence of hers that is no such line stays hers
    export["messages"].append(_sent("Beatriz Almeida", 1772000000000, content="My mum set the table for us to eat."))
    path.write_text(json.dumps(export), encoding="utf-8")
    assert len(read_messages(path)) == 2


def test_graphmem_ingest_takes_a_messenger_export(tmp_path):
    path = tmp_path / "message_1.json"
    path.write_text(json.dumps(MESSENGER), encoding="utf-8")
    episodes, asked = ingested(tmp_path, path)
    assert episodes == 3
    assert [(e["id"], e["actor"]) for e in asked("episodes")] == [
        ("ep1", "Duarte Moreira"), ("ep2", "Inês Carvalho"), ("ep3", "Inês Carvalho")]
    assert [(r["subject"], r["predicate"], r["object"]) for r in asked("beliefs")] == [
        ("Inês Carvalho", "has_pet", "dog")]


@pytest.mark.engine_free
def test_an_attackers_messenger_lines_and_times(tmp_path):
    """The app's lines are its writer's name (or "You") doing what the app records, or a notice naming no one: not a
    person's words that read alike; a time that is seconds, a float of whole milliseconds, a bool."""
    path = tmp_path / "message_1.json"

    def read(*records):
        path.write_text(json.dumps({"participants": [{"name": "Ana Lima"}, {"name": "Bo"}], "messages": list(records)}),
                        encoding="utf-8")
        return [m.content for m in read_messages(path)]

    assert read(_sent("Ana Lima", 1773000000000, content="Ana called you."),
                _sent("Ana Lima", 1773000000001, content="You sent a photo."),
                _sent("Bo", 1773000000002, content="Liked a message"),
                _sent("Bo", 1773000000003, content="Video chat ended"),
                _sent("Ana Lima", 1773000000004, content="My brother sent a photo."),
                _sent("Ana Lima", 1773000000005, content="Maria called you."),
                _sent("Bo", 1773000000006, content="Mum left the group.")) == [
        "My brother sent a photo.", "Maria called you.", "Mum left the group."]
    assert read(_sent("Bo", 1773000000000.0, content="hi")) == ["hi"]
    with pytest.raises(ImportFailed, match=r"message_1\.json:1: 'actor' must be non-empty text"):
        read({"timestamp_ms": 1773000000000, "content": "I moved to Lisbon"})  # no sender_name: never the store's "I"
    for stamp in (1773000000, True, -5):
        with pytest.raises(ImportFailed, match=r"message_1\.json:1: .*\(timestamp_ms: .*milliseconds since 1970\)"):
            read(_sent("Bo", stamp, content="hi"))


LINE = """[LINE] Chat history with Kiko Abellana
Saved on: 11/29/2026, 22:41

Sun, 1/11/2026
20:02\tKiko Abellana\tManang!! happy new year again hehe
20:02\tKiko Abellana\t[Sticker]
20:17\tSol Nakamura\t"Aiko is 9 na, grade 4 here.
she says ""hi tito""
2/3/2026 is her recital"
20:41\tSol Nakamura\t☎ Call time 14:32
20:42\tSol Nakamura unsent a message.
20:43\tSol Nakamura\t[Photo]

Tue, 1/13/2026
8:05 PM\tKiko Abellana\tIm a welder at Hyundai Heavy Industries in Ulsan
"""


@pytest.mark.engine_free
def test_a_line_export_is_read_as_the_phone_wrote_it(tmp_path):
    """A thirteenth new user's: LINE's "Export chat history" was "not valid JSON (Expecting value, column 2)". Days
    open on their own line; a text of several lines is quoted (a quote inside doubled, a date inside no day's line);
    stickers, photos, calls and the app's lines are left out; a 12-hour clock is read."""
    path = write(tmp_path, LINE, "[LINE] Chat with Kiko Abellana.txt")
    found = read_messages(path, tz="Asia/Tokyo")
    assert [(m.actor, m.content) for m in found] == [
        ("Kiko Abellana", "Manang!! happy new year again hehe"),
        ("Sol Nakamura", 'Aiko is 9 na, grade 4 here.\nshe says "hi tito"\n2/3/2026 is her recital'),
        ("Kiko Abellana", "Im a welder at Hyundai Heavy Industries in Ulsan")]
    assert [m.chat_time for m in found] == [datetime(2026, 1, 11, 11, 2, tzinfo=UTC),
                                            datetime(2026, 1, 11, 11, 17, tzinfo=UTC),
                                            datetime(2026, 1, 13, 11, 5, tzinfo=UTC)]  # 20:05 in Tokyo
    assert found.participants == ("Kiko Abellana", "Sol Nakamura")
    # the day before the month where a day after the 12th says so; both ways refused; no day at all refused
    assert read_messages(write(tmp_path, LINE.replace("1/13/2026", "13/1/2026").replace("1/11/2026", "11/1/2026"),
                               "l2.txt"))[2].chat_time.day == 13
    with pytest.raises(ImportFailed, match="writes dates both ways"):
        read_messages(write(tmp_path, LINE.replace("1/13/2026", "13/1/2026").replace("1/11/2026", "1/14/2026"),
                            "l3.txt"))
    with pytest.raises(ImportFailed, match=r"l4\.txt:4: a message before any day's line"):
        read_messages(write(tmp_path, LINE.replace("Sun, 1/11/2026\n", ""), "l4.txt"))


def test_graphmem_ingest_takes_a_line_export(tmp_path):
    from pathlib import Path

    chat = Path(__file__).parent / "data" / "ingest" / "line_chat.txt"
    assert ingested(tmp_path, chat, "--timezone", "Asia/Tokyo")[0] == 235


@pytest.mark.engine_free
def test_an_attackers_line_exports(tmp_path):
    """A one-line text that starts with a quote is one line (LINE quotes only texts of several lines, doubling each
    quote inside: it swallowed the rest of the file, in quadratic time); a date no calendar has and a file of clocks
    another language writes are one line each, naming the file; Japanese stickers are left out."""
    lines = LINE.replace("Manang!! happy new year again hehe", '"Dune" was so good 😂')
    assert [m.content for m in read_messages(write(tmp_path, lines, "q.txt"))][0] == '"Dune" was so good 😂'
    assert len(read_messages(write(tmp_path, lines.replace('"Dune" was so good 😂', '"'), "q2.txt"))) == 3
    unclosed = read_messages(write(tmp_path, lines.replace('"Dune" was so good 😂', '"hello'), "q3.txt"))
    assert [m.content for m in unclosed][:2] == ['"hello', 'Aiko is 9 na, grade 4 here.\nshe says "hi tito"\n2/3/2026 '
                                                             'is her recital']
    with pytest.raises(ImportFailed, match=r"d\.txt:4: no such date"):
        read_messages(write(tmp_path, LINE.replace("Sun, 1/11/2026", "Mon, 2/30/2026"), "d.txt"))
    japanese = "[LINE] キコとのトーク履歴\n保存日時：2026/11/29 22:41\n\n2026/01/11(日)\n午後8:02\tキコ\tこんにちは\n"
    with pytest.raises(ImportFailed, match=r"j\.txt: LINE's export, but no message read"):
        read_messages(write(tmp_path, japanese, "j.txt"))
    assert [m.content for m in read_messages(write(tmp_path, LINE.replace("[Sticker]", "[スタンプ]"), "s.txt"))][0] == \
        "Manang!! happy new year again hehe"


SMS = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<!--File Created By SMS Backup & Restore v10.22.004 on 06/12/2026 21:30:11-->
<?xml-stylesheet type="text/xsl" href="sms.xsl"?>
<smses count="9" backup_set="6f1c2e4a" backup_date="1796592611000" type="full">
  <sms protocol="0" address="087 123 4567" date="1767225813008" type="1" subject="null" \
body="Happy new year Shiv!! &#55356;&#57222; &#55357; lone" read="1" status="-1" readable_date="1 Jan 2026 00:03:33" \
contact_name="Cathal" />
  <sms protocol="0" address="+353871234567" date="1767226162000" type="2" subject="null" \
body="two&#10;lines &amp; a &lt;tag&gt;" read="1" status="-1" contact_name="Cathal" />
  <sms protocol="0" address="+353871234567" date="1767226200000" type="3" body="a draft, never sent" \
contact_name="Cathal" />
  <sms protocol="0" address="DPD" date="1767226300000" type="1" body="Your parcel is on its way" \
contact_name="(Unknown)" />
  <sms protocol="0" address="0871234567" date="1767226400000" type="1" body="sent from the other phone" \
contact_name="(Unknown)" />
  <mms date="1767226500000" msg_box="1" address="+353871234567" contact_name="Cathal" m_type="132">
    <parts>
      <part seq="-1" ct="application/smil" text="&lt;smil&gt;&lt;/smil&gt;" />
      <part seq="0" ct="image/jpeg" name="image000000.jpg" text="null" data="/9j/4AAQSkZJRg==" />
      <part seq="0" ct="text/plain" chset="106" text="meet Bran &#55357;&#56374; hes a collie" />
    </parts>
    <addrs><addr address="+353871234567" type="137" charset="106" /></addrs>
  </mms>
  <mms date="1767226600000" msg_box="1" address="+353871234567~+353861111111" contact_name="Cathal, Róisín">
    <parts><part seq="0" ct="text/plain" text="a group's text" /></parts>
  </mms>
  <sms protocol="0" address="+353871234567" date="1767226700000" type="2" body="" contact_name="Cathal" />
</smses>
"""


def sms_file(tmp_path, text: str = SMS):
    path = tmp_path / "sms-20260101000000.xml"
    path.write_bytes(text.encode("utf-8"))
    return path


@pytest.mark.engine_free
def test_an_sms_backup_is_read_as_the_android_app_writes_it(tmp_path, monkeypatch):
    """A new user's: her texts, backed up by Android's SMS Backup & Restore, were "not valid JSON", and her converter
    had to join the two halves of each emoji, a contact's two ways of writing a number, and picture messages' words. One
    conversation is read: the contact's texts and those sent, drafts, a group's and empty texts left out; a text from
    the contact's number with no contact name, written another way, is the contact's."""
    path = sms_file(tmp_path)
    found = read_messages(path, participants="Siobhán,Cathal")
    read = [(m.actor, m.content) for m in found.in_chat_time_order()]
    assert read == [("Cathal", "Happy new year Shiv!! 🎆 \ufffd lone"), ("Siobhán", "two\nlines & a <tag>"),
                    ("Cathal", "sent from the other phone"), ("Cathal", "meet Bran 🐶 hes a collie")]
    assert found.participants == ("Siobhán", "Cathal") and found[0].chat_time == datetime(
        2026, 1, 1, 0, 3, 33, 8000, tzinfo=UTC)
    for chunk in (1, 5, 7, 16):  # every reference cut by a chunk's end somewhere
        monkeypatch.setattr("graphmem.ingest._sms.CHUNK", chunk)
        assert [(m.actor, m.content) for m in read_messages(path, participants="Siobhán,Cathal").in_chat_time_order(
        )] == read
    one = sms_file(tmp_path, SMS.replace('contact_name="(Unknown)"', 'contact_name="Cathal"').replace(
        'contact_name="Cathal, Róisín"', 'contact_name="Cathal"'))
    assert len(read_messages(one, user="Siobhán")) == 5  # one contact: no need to choose (the group's still out)
    assert [m.actor for m in read_messages(one, participants="siobhan,CATHAL")][:2] == ["Cathal", "siobhan"]


@pytest.mark.engine_free
def test_which_conversation_of_a_backup_and_whose_texts_sent_are_said(tmp_path):
    path = sms_file(tmp_path)
    with pytest.raises(ImportFailed, match=r"an SMS backup of 2 conversations \(Cathal: 4 texts, DPD: 1 text\); "
                                           r"choose one with --participants YOU,CONTACT \(such as --participants "
                                           r"Me,Cathal\)"):
        read_messages(path)
    with pytest.raises(ImportFailed, match=r"--participants Siobhán,Ciara names no contact of it"):
        read_messages(path, participants="Siobhán,Ciara")
    with pytest.raises(ImportFailed, match=r"--participants DPD,Cathal names more than one of its contacts"):
        read_messages(path, participants="DPD,Cathal")
    received = sms_file(tmp_path, SMS.replace('type="2"', 'type="1"'))
    assert [m.actor for m in read_messages(received, participants="Me,DPD")] == ["DPD"]
    only = sms_file(tmp_path, SMS.replace('contact_name="(Unknown)"', 'contact_name="Cathal"').replace(
        'contact_name="Cathal, Róisín"', 'contact_name="Cathal"'))
    with pytest.raises(ImportFailed, match=r"does not name its phone's owner, who wrote the texts sent: give your "
                                           r"name with --user NAME \(or --participants YOU,Cathal\)"):
        read_messages(only)
    with pytest.raises(ImportFailed, match="both called 'cathal'"):
        read_messages(only, user="cathal")


@pytest.mark.engine_free
@pytest.mark.parametrize(("text", "error"), [
    # an entity declared (a billion laughs, a file of the disk): no backup has a document type
    ("<?xml version='1.0'?>\n<!DOCTYPE smses [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>\n"
     "<smses><sms date=\"1767225813008\" type=\"1\" body=\"&b;\" contact_name=\"A\"/></smses>",
     r":2: a document type declaration"),
    ("<?xml version='1.0'?>\n<!DOCTYPE smses SYSTEM \"file:///etc/passwd\">\n<smses/>", r":2: a document type"),
    ("<?xml version='1.0'?>\n<html><body>hi</body></html>", r":2: an XML file, but its root is <html>, not <smses>"),
    ("<?xml version='1.0'?>\n<smses>\n<sms date=\"1767225813008\" type=\"1\" body=\"a\" contact_name=\"A\">\n</smses>",
     r":4: not well-formed XML \(mismatched tag, column 3\)"),
    ("<?xml version='1.0'?>\n<smses>\n<sms date=\"1767225813\" type=\"1\" body=\"hi\" contact_name=\"A\"/></smses>",
     r":3: .*'1767225813' \(date: milliseconds since 1970\)"),  # seconds, not 1970
    ("<?xml version='1.0'?>\n<smses>\n<sms type=\"1\" body=\"hi\" contact_name=\"A\"/></smses>",
     r":3: .*'' \(date: milliseconds since 1970\)"),
    ("<?xml version='1.0'?>\n<smses>\n<sms date=\"1767225813008\" type=\"1\" body=\"\" contact_name=\"A\"/></smses>",
     r"an SMS backup with no text received or sent"),
    ("<?xml version='1.0'?>\n", r"an XML file with no <smses>|not well-formed XML \(no element found"),
])
def test_an_attackers_sms_backups(tmp_path, text, error):
    with pytest.raises(ImportFailed, match=error):
        read_messages(sms_file(tmp_path, text), user="Me")


@pytest.mark.engine_free
def test_an_element_longer_than_the_longest_is_refused_holding_no_more(tmp_path, monkeypatch):
    monkeypatch.setattr("graphmem.ingest._sms.LONGEST", 1000)
    monkeypatch.setattr("graphmem.ingest._sms.CHUNK", 100)
    path = sms_file(tmp_path, SMS.replace('data="/9j/4AAQSkZJRg=="', 'data="' + "A" * 5000 + '"'))
    with pytest.raises(ImportFailed, match=r":12: an element longer than 1,000 bytes begins on or after this line"):
        read_messages(path, participants="Me,Cathal")


@pytest.mark.engine_free
def test_a_backup_changed_after_it_was_checked_is_refused(tmp_path):
    path = sms_file(tmp_path)
    found = read_messages(path, participants="Me,Cathal")
    path.write_bytes(path.read_bytes().replace(b"<sms", b"<xyz", 1) + b" ")
    with pytest.raises(ImportFailed, match="changed after it was checked"):
        list(found)


def test_graphmem_ingest_takes_an_sms_backup(tmp_path):
    from pathlib import Path

    backup = Path(__file__).parent / "data" / "ingest" / "sms-20261206213011.xml"
    episodes, asked = ingested(tmp_path, backup, "--participants", "Siobhán,Cathal", "--timezone", "Europe/Dublin")
    assert episodes == 285
    assert {e["actor"] for e in asked("episodes")} == {"Siobhán", "Cathal"}


def backup(*texts: str, declaration: str = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n") -> str:
    return declaration + f'<smses count="{len(texts)}">\n' + "\n".join(texts) + "\n</smses>\n"


def text(body: str, at: int = 0, kind: str = "1", address: str = "+353871234567", name: str = "Cathal") -> str:
    return (f'  <sms protocol="0" address="{address}" date="{1767225813008 + at * 60000}" type="{kind}" '
            f'body="{body}" contact_name="{name}" />')


@pytest.mark.engine_free
def test_an_attackers_sms_backups_after_the_first_cut(tmp_path):
    """A second attack on the backup reader: digits that are not ASCII, halves after a half that pairs with nothing,
    numbers written another way, two countries' numbers, a contact renamed, a comma in a name, no line breaks, a file
    changed with its size and time kept, another encoding, a comment first."""
    def read(xml: str, **options) -> list[tuple[str, str]]:
        return [(m.actor, m.content) for m in read_messages(sms_file(tmp_path, xml), **options).in_chat_time_order()]

    with pytest.raises(ImportFailed, match=r":4: .*\(date: milliseconds since 1970\)"):
        read(backup(text("ok"), text("t").replace('date="1767225813008"', 'date="¹⁷⁶⁷²²⁵⁸¹³⁰⁰⁸"')), user="Me")
    assert read(backup(text("&#55357;&#55357;&#56832; &#56832;&#55357;&#56832; &#55000;&#55357;&#56832;")),
                user="Me") == [("Cathal", "\ufffd😀 \ufffd😀 \ud6d8😀")]
    unnamed = backup(text("a", 0, name="(Unknown)"), text("b", 1, address="087 123 4567", name="(Unknown)"),
                     text("z", 2, address="+353861111111", name="Dara"))
    assert read(unnamed, participants="Me,087 123 4567") == [("+353871234567", "a"), ("+353871234567", "b")]
    assert read(unnamed, participants="Me,0871234567") == read(unnamed, participants="Me,+353 87 123 4567")
    two_countries = backup(text("irish", 0, name="(Unknown)"), text("uk", 1, address="+447871234567", name="(Unknown)"))
    with pytest.raises(ImportFailed, match="an SMS backup of 2 conversations"):
        read(two_countries, user="Me")
    renamed = backup(text("a", 0), text("b", 1, name="Cathal Bro"), text("c", 2, name="(Unknown)"),
                     text("d", 3, address="087 123 4567", name="Cathal Bro"), text("z", 4, address="+353861111111",
                                                                                      name="Dara"))
    assert read(renamed, participants="Me,Cathal") == [("Cathal Bro", t) for t in "abcd"]  # one number, one person
    comma = backup(text("a", 0, name="Smith, John"), text("z", 1, address="+353861111111", name="Dara"))
    with pytest.raises(ImportFailed, match=r"such as --participants 'Me,Smith, John'"):
        read(comma)
    assert read(comma, participants="Me,Smith, John") == [("Smith, John", "a")]
    assert read(backup(text("a", 0), text("b", 1)).replace("\n", ""), user="Me") == [("Cathal", "a"), ("Cathal", "b")]
    assert read(backup(text("a"), declaration="<!-- a comment first -->\n"), user="Me") == [("Cathal", "a")]
    with pytest.raises(ImportFailed, match=r"the backup says its encoding is iso-8859-1; only UTF-8"):
        read(backup(text("a"), declaration="<?xml version='1.0' encoding='ISO-8859-1'?>\n"), user="Me")


@pytest.mark.engine_free
def test_a_text_of_a_backup_changed_with_its_size_and_time_kept_is_refused(tmp_path):
    import os

    path = sms_file(tmp_path, backup(text("hi Cathal", 0), text("hi Dara!!", 1, address="+353861111111",
                                                                 name="Dara1")))
    found = read_messages(path, participants="Me,Cathal")
    kept = os.stat(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[2], lines[3] = lines[3].replace('date="1767225873008"', 'date="1767225813008"'), lines[2].replace(
        'date="1767225813008"', 'date="1767225873008"')
    path.write_text("\n".join(lines), encoding="utf-8")
    os.utime(path, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    with pytest.raises(ImportFailed, match="changed after it was checked"):
        list(found)


@pytest.mark.engine_free
def test_a_text_read_again_reads_about_its_own_length():
    """An attacker's: every text read again was read 64 KB at a time (a backup of a million texts took more than ten
    minutes); it is read a little at a time, twice as much each time it goes on."""
    import io

    from graphmem.ingest import _sms

    class Counted(io.BytesIO):
        taken = 0

        def read(self, size=-1):
            got = super().read(size)
            Counted.taken += len(got)
            return got

    xml = backup(*(text(f"text {n}", n) for n in range(2000))).encode()
    source = Counted(xml)
    at = xml.index(b"<sms", len(xml) // 2)
    source.seek(at)
    (said,) = _sms.messages(source, at, one=True)
    assert said.attrs["body"].startswith("text 10") and Counted.taken < 2048


def test_an_archive_or_a_folder_given_as_the_chat_says_which_file_to_pass(tmp_path):
    """A new user's: the zip Instagram hands out was "not UTF-8 text (invalid start byte at byte 11)", the folder it
    unpacks to click's "is a directory"; each is one line naming the chat files to pass, the unpacked folder's chat
    file among them, and no store is made."""
    import bz2
    import gzip
    import lzma
    import tarfile
    import zipfile

    from graphmem.ingest._files import _CHAT_FILES

    inbox = tmp_path / "export" / "your_instagram_activity" / "messages" / "inbox" / "duarte_1"
    inbox.mkdir(parents=True)
    (inbox / "message_1.json").write_text('{"participants": [], "messages": []}', encoding="utf-8")
    (tmp_path / "export" / "photo.jpg").write_bytes(b"\xff\xd8")
    (tmp_path / "export" / "README.txt").write_text("what is in this export", encoding="utf-8")  # no chat
    (tmp_path / "export" / "media" / "posts").mkdir(parents=True)
    for n in range(2_500):  # a reviewer's: a look at the first 2,000 entries found nothing
        (tmp_path / "export" / "media" / "posts" / f"{n}.jpg").touch()
    with zipfile.ZipFile(tmp_path / "instagram.zip", "w") as archive:
        archive.write(inbox / "message_1.json", "messages/inbox/duarte_1/message_1.json")
    (tmp_path / "chat.jsonl.gz").write_bytes(gzip.compress(b'{"role": "user"}\n'))
    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    (tmp_path / "chat.xz").write_bytes(lzma.compress(b"x"))
    (tmp_path / "chat.bz2").write_bytes(bz2.compress(b"x"))
    with tarfile.open(tmp_path / "chat.tar", "w") as tar:
        tar.add(inbox / "message_1.json", "message_1.json")
    for given, kind in [("empty.zip", "a zip"), ("chat.xz", "an xz"), ("chat.bz2", "a bzip2"), ("chat.tar", "a tar")]:
        for command, what in [("ingest", "a chat"), ("import-memories", "remembered lines")]:
            result = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), command, str(tmp_path / given)])
            assert result.output == f"error: {tmp_path / given} is {kind} archive, not {what}; unpack it and pass " \
                                    f"the {'chat ' if command == 'ingest' else ''}file inside" + (
                f" ({_CHAT_FILES})\n" if command == "ingest" else "\n"), result.output
    for given, said in [("instagram.zip", "is a zip archive, not a chat; unpack it"),
                        ("chat.jsonl.gz", "is a gzip archive, not a chat; unpack it"),
                        ("export", f"is a folder, not a chat; pass one chat file (Instagram's and Messenger's "
                                   f"messages/inbox/NAME/message_1.json, Telegram's result.json, WhatsApp's or LINE's "
                                   f".txt, an SMS backup's .xml, JSON Lines); chat files in it: "
                                   f"{inbox / 'message_1.json'}")]:
        result = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), "ingest", str(tmp_path / given)])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert f"error: {tmp_path / given} {said}" in result.output
        assert not (tmp_path / "store").exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(ImportFailed, match=r"is a folder, not a chat; pass one chat file \(.*JSON Lines\)$"):
        read_messages(tmp_path / "empty")


@pytest.mark.engine_free
def test_a_third_attack_on_the_backup_reader(tmp_path, monkeypatch):
    """A third attacker's backups (the thirty-fifth session): elements nested without end (30 MB held 1.3 GB), a
    picture message of millions of parts (each reset the element's length), a text of 20 MB, thousands of numbers
    (each national compared with every international: 4,000 took 36 s) and unnamed senders (quadratic too), a text
    rewritten in place while the file was written, and contact names holding a line break or direction marks."""
    from graphmem.ingest import _sms

    def read(xml: str, **options) -> list[tuple[str, str]]:
        return [(m.actor, m.content) for m in read_messages(sms_file(tmp_path, xml), **options).in_chat_time_order()]

    with pytest.raises(ImportFailed, match=r":3: elements nested more than 8 deep \(a backup's go four deep\)"):
        read(backup("<a>" * 20 + "</a>" * 20), user="Me")
    parts = '<part ct="text/plain" text="x" />' * (_sms.MOST_PARTS + 1)
    with pytest.raises(ImportFailed, match=r":3: a picture message of more than 1,000 parts begins on this line"):
        read(backup(f'<mms date="1767225813008" msg_box="1" address="+3538712" contact_name="C"><parts>{parts}'
                    f'</parts></mms>'), user="Me")
    assert _sms.LONGEST_TEXT == 16 << 20  # as JSON Lines' longest line
    monkeypatch.setattr(_sms, "LONGEST_TEXT", 1000)
    with pytest.raises(ImportFailed, match=r":3: a text longer than 1,000 characters begins on this line"):
        read(backup(text("a" * 1001)), user="Me")
    many = backup(*(text("hi", n, address=f"+35387{n:07d}", name="(Unknown)") for n in range(1000)),
                  *(text("hi", n, address=f"087{n:07d}", name="(Unknown)") for n in range(1000)),
                  *(text("hi", n, address=f"S{n:06d}x", name="(Unknown)") for n in range(1000)))
    of, display, _ = _sms.conversations(*_tallies(many))
    assert len(set(of.values())) == 2000  # each national number one international's, the senders their own
    assert display[of[(None, "0870000000")]] == "+353870000000"
    named = backup(text("a", 0, name="Cathal&#10;error: store corrupted"),
                   text("b", 1, address="+353861111111", name="Da&#8238;ra"))
    assert read(named, participants="Me,Cathal error: store corrupted") == [("Cathal error: store corrupted", "a")]
    assert read(named, participants="Me,Dara") == [("Dara", "b")]
    cut = r":3: cannot read \"'9{39}…' \(date: milliseconds since 1970\)\""
    with pytest.raises(ImportFailed, match=cut) as refused:
        read(backup(text("a").replace('date="1767225813008"', 'date="' + "9" * 5000 + '"')), user="Me")
    assert len(str(refused.value)) < 300


def _tallies(xml: str):
    import io

    from graphmem.ingest import _sms

    tallies, shown = {}, {}
    for said in _sms.messages(io.BytesIO(xml.encode())):
        name, address, as_shown = _sms.contact_key(said)
        tallies[(name, address)] = tallies.get((name, address), 0) + 1
        shown.setdefault((name, address), as_shown)
    return tallies, shown


@pytest.mark.engine_free
def test_a_backup_rewritten_in_place_while_it_is_written_is_refused(tmp_path):
    """A third attacker's: the texts rewritten in place (size kept) after the first write linked facts read from the
    old texts to the new ones; each text read again is compared with the one checked."""
    import os

    path = sms_file(tmp_path, backup(text("I moved to Cork", 0), text("I work at Acme", 1)))
    found = read_messages(path, participants="Me,Cathal")
    kept = os.stat(path)
    path.write_bytes(path.read_bytes().replace(b"Cork", b"Lima").replace(b"Acme", b"Evil"))
    os.utime(path, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    with pytest.raises(ImportFailed, match="changed after it was checked"):
        list(found)


def test_a_refusal_after_some_messages_were_written_says_how_many(tmp_path, monkeypatch):
    """A third attacker's: "changed after it was checked; read it again" came after some texts were written, and said
    nothing of them (each write is whole; they are kept, as after Ctrl-C)."""
    import graphmem.ingest

    def ingest(store, messages, extractor=None, *, progress=None, **_):
        progress("writing", 3, 10)
        raise ImportFailed("chat.xml changed after it was checked; read it again")

    monkeypatch.setattr(graphmem.ingest, "ingest", ingest)
    path = sms_file(tmp_path)
    result = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), "ingest", str(path),
                                       "--participants", "Me,Cathal"])
    assert result.exit_code == 1
    assert result.output == ("error: chat.xml changed after it was checked; read it again (stopped after writing 3 "
                             "of the 10 messages new to the store: each write is whole, and they are kept)\n")


def test_user_given_for_a_chat_whose_messages_name_their_speakers_says_what_it_did(tmp_path):
    """A sixteenth new user's (a family's WhatsApp group): `--user "Siobhán Keane"` changed nothing, silently, and
    "where do I work" was then asked as no one. Ingest says how to ask as her, or that --user named no speaker."""
    path = write(tmp_path, "02/01/2026, 19:43 - Mam: Happy new year xx\n"
                           "02/01/2026, 19:46 - Siobhán Keane: I work at CUH now\n"
                           "13/01/2026, 19:47 - Podge: grand\n"
                           "13/01/2026, 19:48 - Aoife: 👍\n"
                           "13/01/2026, 19:49 - Kiki: 🙄\n")
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s1"), "ingest", str(path), "--user", "Siobhán Keane"])
    assert run.exit_code == 0, run.output
    assert "note: to ask as Siobhán Keane (\"where do I work\"), give search --speaker 'Siobhán Keane' or set " \
           "GRAPHMEM_SPEAKER" in run.output
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s2"), "ingest", str(path), "--user", "Siobhan",
                                    "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)[0]["notes"][0] == (
        "--user 'Siobhan' speaks no message of the file (its speakers: 'Aoife', 'Mam', 'Podge', …); it changed "
        "nothing; did you mean 'Siobhán Keane'?")
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s3"), "ingest", str(path)])
    assert "--user" not in run.output and "--speaker" not in run.output
    # a reviewer's: matched as --speaker matches (case, accents), and a name nearly typed is offered
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s4"), "ingest", str(path), "--user", "siobhán  keane"])
    assert "note: to ask as siobhán  keane" in run.output
    path = write(tmp_path, "02/01/2026, 19:43 - Mam: Happy new year xx\n"
                           "02/01/2026, 19:46 - Siobhán Keane: I work at CUH now\n"
                           "13/01/2026, 19:47 - Podge: grand\n", name="WhatsApp Chat with Keane Clan.txt")
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s5"), "ingest", str(path), "--user", "Siobhan"])
    assert "note: --user 'Siobhan' speaks no message of the file (its speakers: 'Mam', 'Podge', 'Siobhán Keane'); it " \
           "changed nothing; did you mean 'Siobhán Keane'?" in run.output
    lines = tmp_path / "assistant.jsonl"
    lines.write_text('{"role": "assistant", "content": "hi", "chat_time": "2026-01-02T10:00:00Z"}\n')
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s6"), "ingest", str(lines), "--user", "Sam"])
    assert "note: --user 'Sam' speaks no message: the file has no user messages; it changed nothing" in run.output


def test_a_contact_card_given_as_the_chat_is_named_for_what_it_is(tmp_path):
    """A sixteenth new user's: a contact card shared from WhatsApp ("Mam.vcf") was "Mam.vcf:1: not valid JSON"."""
    card = tmp_path / "Mam.vcf"
    card.write_bytes(b"\xef\xbb\xbfBEGIN:VCARD\r\nVERSION:3.0\r\nFN:Mam\r\nTEL;type=CELL:+353 87 000 0000\r\n"
                     b"END:VCARD\r\n")
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), "ingest", str(card)])
    assert run.exit_code == 1 and run.output.startswith(f"error: {card} is a contact card (vCard), not a chat; pass "
                                                        "the chat file (")
    assert run.output.count("\n") == 1 and not (tmp_path / "store").exists()
    invite = tmp_path / "invite.ics"
    invite.write_text("begin:vcalendar\nVERSION:2.0\nEND:VCALENDAR\n")
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "store"), "ingest", str(invite)])
    assert run.exit_code == 1 and f"{invite} is a calendar file (iCalendar), not a chat" in run.output


@pytest.mark.engine_free
def test_the_encryption_notice_an_iphone_writes_under_a_contact_s_name_is_no_message(tmp_path):
    """A seventeenth new user's: an iPhone's export opens with "[2/1/26, 10:01:44 AM] Priya: ‎Messages and calls are
    end-to-end encrypted…", which was kept as Priya's first message (and the chat's start)."""
    text = ("[2/1/26, 10:01:44\u202fAM] Priya: \u200eMessages and calls are end-to-end encrypted. Only people in this "
            "chat can read, listen to, or share them.\n"
            "[2/2/26, 7:12:33\u202fAM] Priya: morning babe\n[2/2/26, 7:15:26\u202fAM] Marcus: ...yes?\n"
            "[2/3/26, 7:15:26\u202fAM] Marcus: Messages and calls are end-to-end encrypted, she said lol\n")
    messages = list(read_messages(write(tmp_path, text)))
    assert [m.content for m in messages] == ["morning babe", "...yes?",
                                             "Messages and calls are end-to-end encrypted, she said lol"]


def test_a_new_store_told_that_a_phone_s_clock_was_read_as_utc(tmp_path):
    """A seventeenth new user's: an ingest into a new store without --timezone said nothing of reading the phone's
    times (no zone in WhatsApp's export) as UTC; it says so, and not where a zone was given or the store had one."""
    path = write(tmp_path, IOS)
    note = "note: the chat's clock says no zone: this new store read it as UTC; if the phone was elsewhere, ingest " \
           "into a new store with --timezone ZONE"
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "ingest", str(path)])
    assert note in run.output, run.output
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "s"), "--engine", ENGINE, "ingest", str(path)])
    assert "skipped" in run.output and note not in run.output  # the store's own zone, chosen before
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "t"), "--engine", ENGINE, "ingest", str(path), "--tz",
                                    "America/Denver"])
    assert run.exit_code == 0 and note not in run.output
    # a store made by another command (`graphmem mcp`, `init`) in UTC and never written to: a new user's export, an
    # hour off all summer in the store the assistant had made
    assert CliRunner().invoke(main, ["--store", str(tmp_path / "u"), "--engine", ENGINE, "init"]).exit_code == 0
    run = CliRunner().invoke(main, ["--store", str(tmp_path / "u"), "--engine", ENGINE, "ingest", str(path)])
    assert note in run.output, run.output


def test_participants_who_speak_no_message_are_named_with_those_who_do(tmp_path):
    """A new user's: "--participants Gaya,Ma" on a chat of "Gaya Reyes" and "Mama" read "you" as no one, silently."""
    path = tmp_path / "result.json"
    path.write_text(json.dumps(TELEGRAM, ensure_ascii=False), encoding="utf-8")

    def notes(store: str, given: str) -> list[str]:
        result = CliRunner().invoke(main, ["--store", str(tmp_path / store), "--engine", ENGINE, "ingest", str(path),
                                           "--participants", given, "--json"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return [n for n in json.loads(result.stdout)[0]["notes"] if "--participants" in n]

    assert notes("a", "Danyo,Oksana") == []
    assert notes("b", "Dan,Oksana") == [
        "--participants names 'Dan', who speaks no message of the file (its speakers: 'Danyo', 'Oksana'): \"you\" in "
        "a message was read as no one there; did you mean --participants Danyo,Oksana?"]


def test_a_chat_mostly_in_another_language_says_the_rules_read_english(tmp_path):
    """A new user's chat with her mother, mostly in Tagalog: 386 messages, no fact, and no word why."""
    def notes(name: str, lines: list[str]) -> list[str]:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"role": "user", "actor": "Ma" if n % 2 else "Gaya", "content": line,
                                            "chat_time": f"2026-03-01T10:{n:02d}:00Z"}) + "\n"
                                for n, line in enumerate(lines)), encoding="utf-8")
        result = CliRunner().invoke(main, ["--store", str(tmp_path / name), "--engine", ENGINE, "ingest", str(path),
                                           "--json"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return [n for n in json.loads(result.stdout)[0]["notes"] if "the rules extractor reads" in n]

    tagalog = ["kumain ka na ba anak", "oo po Ma kumain na ako", "ingat ka palagi dyan", "salamat po Mama"] * 6
    english = ["how are you doing today", "good thanks and you", "not bad at all", "talk soon then"] * 6
    said = notes("tl", tagalog)
    assert len(said) == 1 and said[0].startswith("about ") and "--extractor llm" in said[0], said
    assert notes("en", english) == []


def test_a_telegram_message_edited_since_it_was_recorded_is_recorded_beside_it_with_a_note(tmp_path):
    """A new user's: an edited message exported again was recorded as a new one, both shown by search, no word why."""
    path = tmp_path / "result.json"
    path.write_text(json.dumps(TELEGRAM, ensure_ascii=False), encoding="utf-8")
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    assert CliRunner().invoke(main, [*store, "ingest", str(path)], catch_exceptions=False).exit_code == 0
    edited = json.loads(json.dumps(TELEGRAM))
    for record in edited["messages"]:
        if record["id"] == 2:
            record["text"], record["edited"] = "how's the ward today", "2026-01-11T19:05:00"
    path.write_text(json.dumps(edited, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, [*store, "ingest", str(path), "--json"], catch_exceptions=False)
    summary = json.loads(result.stdout)[0]
    assert summary["episodes"] == 1 and [n for n in summary["notes"] if "edited since it was recorded?" in n]
    again = CliRunner().invoke(main, [*store, "ingest", str(path), "--json"], catch_exceptions=False)
    assert not [n for n in json.loads(again.stdout)[0]["notes"] if "edited" in n]  # nothing new: nothing to say


def test_a_message_new_in_a_file_that_keeps_days_or_minutes_is_no_edit(tmp_path):
    """A reviewer's: a file of dates only, a message of the same speaker and day added, was said to be an edit."""
    path, store = tmp_path / "c.jsonl", ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    line = '{{"role": "user", "actor": "Ana", "content": "{}", "chat_time": "2025-03-01{}"}}\n'
    path.write_text(line.format("hi", "") + line.format("tea?", "T10:05:00Z"), encoding="utf-8")
    CliRunner().invoke(main, [*store, "ingest", str(path)], catch_exceptions=False)
    path.write_text(path.read_text() + line.format("so tired", "") + line.format("coffee?", "T10:05:00Z"))
    result = CliRunner().invoke(main, [*store, "ingest", str(path), "--json"], catch_exceptions=False)
    assert not [n for n in json.loads(result.stdout)[0]["notes"] if "edited" in n]


def test_a_forwarded_message_recorded_before_its_text_said_so_is_not_recorded_again(tmp_path):
    """A reviewer's: a store that recorded a forwarded message before its text opened with "(forwarded from …)"
    recorded it again."""
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    before = tmp_path / "before.jsonl"  # what the earlier reading recorded: the words alone
    before.write_text(json.dumps({"role": "forwarded", "actor": "Oksana", "content": "SALE today",
                                  "chat_time": "2026-01-11T18:09:10Z"}) + "\n", encoding="utf-8")
    CliRunner().invoke(main, [*store, "ingest", str(before)], catch_exceptions=False)
    records = json.loads(json.dumps(TELEGRAM))
    records["messages"].append({"id": 9, "type": "message", "date": "2026-01-11T19:09:10",
                                "date_unixtime": "1768154950", "from": "Oksana", "forwarded_from": "Shop",
                                "text": "SALE today"})
    path = tmp_path / "result.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    summary = json.loads(CliRunner().invoke(main, [*store, "ingest", str(path), "--json"],
                                            catch_exceptions=False).stdout)[0]
    assert summary["episodes"] == 2 and not [n for n in summary["notes"] if "edited" in n], summary
    from graphmem.ingest._telegram import FORWARDED, _forwarded

    for origin in ("Shop", "Shop (Official)", None):  # the prefix read back as written, a bracket in the name too
        assert FORWARDED.sub("", _forwarded({"forwarded_from": origin}) + "SALE today", count=1) == "SALE today"


def test_an_assistants_reply_is_the_assistants_and_one_recorded_by_its_name_before_is_not_recorded_again(tmp_path):
    """A new user's bot log names the bot in "actor": its replies were recorded as said by "Espiga bot", which search
    showed as a person's; they are the assistant's now (as the docs said), and one recorded under the bot's name by an
    earlier release is not recorded again."""
    from graphmem import Store

    where = tmp_path / "s"
    store = ["--store", str(where), "--engine", ENGINE]
    lines = [{"role": "user", "actor": "Inés", "content": "I moved to Viña.", "chat_time": "2026-02-02T10:00:00Z"},
             {"role": "assistant", "actor": "Espiga bot", "content": "Noted: Viña.",
              "chat_time": "2026-02-02T10:01:00Z"}]
    with Store(str(where), engine=ENGINE) as old:  # what the release before recorded of the reply
        old.add_episode("Noted: Viña.", kind="chat", actor="Espiga bot", reference_time="2026-02-02T10:01:00Z",
                        recorded_at="2026-02-02T10:01:00Z")
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    summary = json.loads(CliRunner().invoke(main, [*store, "ingest", str(path), "--json"],
                                            catch_exceptions=False).stdout)[0]
    assert summary["episodes"] == 1, summary  # Inés's message only
    fresh = ["--store", str(tmp_path / "t"), "--engine", ENGINE]
    CliRunner().invoke(main, [*fresh, "ingest", str(path)], catch_exceptions=False)
    said = json.loads(CliRunner().invoke(main, [*fresh, "search", "Noted Viña", "--json"]).stdout)
    assert [(h["speaker"], h["role"]) for h in said if h["text"] == "Noted: Viña."] == [("assistant", "assistant")]


def test_a_contact_renamed_between_two_exports_is_not_recorded_again(tmp_path):
    """A new user's: "Otieno" exported later as "Brian Otieno" recorded his 498 messages again, a second person with
    his facts, without a word. A long message held under a name no one in the new file uses is taken as held, with a
    note offering the alias; a short one ("Amen") two people may send in one minute is recorded again."""
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    lines = [("Otieno", "I started at Safaricom today, wish me luck", "10:00"), ("Wanjiru", "Amen", "10:01"),
             ("Otieno", "Amen", "10:02")]
    first, later = tmp_path / "first.jsonl", tmp_path / "later.jsonl"
    first.write_text("".join(json.dumps({"role": "user", "actor": a, "content": c,
                                         "chat_time": f"2026-02-02T{t}:00Z"}) + "\n" for a, c, t in lines))
    later.write_text(first.read_text().replace('"Otieno"', '"Brian Otieno"'))
    CliRunner().invoke(main, [*store, "ingest", str(first)], catch_exceptions=False)
    summary = json.loads(CliRunner().invoke(main, [*store, "ingest", str(later), "--json"],
                                            catch_exceptions=False).stdout)[0]
    assert summary["episodes"] == 1, summary  # Brian Otieno's "Amen" only
    assert "1 message by 'Brian Otieno' is held already as said by 'Otieno'" in " ".join(summary["notes"])
    assert "graphmem alias add 'Brian Otieno' Otieno" in " ".join(summary["notes"])
    again = json.loads(CliRunner().invoke(main, [*store, "ingest", str(first), "--json"],
                                          catch_exceptions=False).stdout)[0]
    assert again["episodes"] == 0 and not [n for n in again["notes"] if "held already as said by" in n]
    # a reviewer's: Carol's greeting sent in the same minute as Otieno's, Otieno speaking later in the file, is Carol's
    group = tmp_path / "group.jsonl"
    group.write_text("".join(json.dumps({"role": "user", "actor": a, "content": c,
                                         "chat_time": f"2026-02-02T{t}:00Z"}) + "\n"
                             for a, c, t in [("Carol", "I started at Safaricom today, wish me luck", "10:00"),
                                             ("Otieno", "Amen amen amen amen", "10:05")]))
    mixed = json.loads(CliRunner().invoke(main, [*store, "ingest", str(group), "--json"],
                                          catch_exceptions=False).stdout)[0]
    assert mixed["episodes"] == 2 and not [n for n in mixed["notes"] if "held already as said by" in n], mixed


@pytest.mark.engine_free
def test_a_messenger_export_with_nothing_to_read_says_so(tmp_path):
    """A twenty-second new user's bad files: an empty "messages" list was refused for its participants, a file of
    photos only was not known as Messenger's, a time in seconds was told to be ISO 8601."""
    path = tmp_path / "message_1.json"
    people = [{"name": _facebook("Tomás Ferreira")}, {"name": "Beatriz Almeida"}]
    path.write_text(json.dumps({"participants": people, "messages": []}), encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"message_1\.json: its \"messages\" list is empty: nothing to record"):
        read_messages(path)
    path.write_text(json.dumps({"participants": people, "messages": [
        _sent("Beatriz Almeida", 1773000000000, photos=[{"uri": "p.jpg"}]),
        _sent("Beatriz Almeida", 1772000000000, content="You sent an attachment.")]}), encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"a Messenger export whose 2 messages hold no text of a writer's"):
        read_messages(path)
    path.write_text(json.dumps({"participants": people, "messages": [
        _sent("Beatriz Almeida", 1773000000, content="hi")]}), encoding="utf-8")
    with pytest.raises(ImportFailed, match=r"seconds, it seems, where Messenger writes milliseconds"):
        read_messages(path)


def test_a_long_messenger_chat_s_files_are_named_in_the_order_to_ingest_them(tmp_path):
    """Messenger writes a long chat as message_1.json (newest), message_2.json, …: a new user replayed message_1 first
    and message_2 was refused with no word of why; the folder's refusal lists the highest number first, and the
    refusal of the older file says which comes first."""
    chat = tmp_path / "inbox" / "tomas_1"
    chat.mkdir(parents=True)
    people = [{"name": "Tomas"}, {"name": "Bia"}]
    (chat / "message_1.json").write_text(json.dumps({"participants": people, "messages": [
        _sent("Tomas", 1773000000000, content="we moved to Berlin")]}), encoding="utf-8")
    (chat / "message_2.json").write_text(json.dumps({"participants": people, "messages": [
        _sent("Bia", 1772000000000, content="I got a cat")]}), encoding="utf-8")
    store = ["--store", str(tmp_path / "s"), "--engine", ENGINE]
    folder = CliRunner().invoke(main, [*store, "ingest", str(chat)]).output.split("chat files in it:")[1]
    assert folder.index("message_2.json") < folder.index("message_1.json") and "highest number first" in folder
    assert CliRunner().invoke(main, [*store, "ingest", str(chat / "message_1.json"), "--replay"]).exit_code == 0
    refused = CliRunner().invoke(main, [*store, "ingest", str(chat / "message_2.json"), "--replay"])
    assert refused.exit_code != 0
    assert "replay the highest number first, message_2.json before message_1.json" in " ".join(refused.output.split())
