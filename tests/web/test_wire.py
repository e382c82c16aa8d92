"""Messages between processes during a rolling upgrade: each is a JSON object of this message version with
its type; the previous version's untyped text, exactly as 0.2.0 and main before 0.3.0 wrote it, is still
read; anything else is ignored and logged once per (version, type), not once per message."""

from __future__ import annotations

import logging
import threading
import uuid

import orjson
import pytest

from cubilete.web.broker import SEATS_CHANGED, EventsStored, News, Reacted, SeatsPresent
from cubilete.web.reactions import REACTIONS
from cubilete.web.wire import MESSAGE_VERSION, MOST_LOGGED_KINDS, UnreadableMessage, WireReader, decoded, encoded

EVERY_TYPE = {
    "events": EventsStored(37),
    "seats": SEATS_CHANGED,
    "present": SeatsPresent("3f9a1c0b7e2d", (0, 2), (2,)),
    "reaction": Reacted(1, "well_played"),
}
PREVIOUS_VERSION = [  # what 0.2.0 (the first three) and main before 0.3.0 published, byte for byte
    (b"37", EventsStored(37)),
    (b"seats", SEATS_CHANGED),
    (b"present 3f9a1c0b7e2d 0,2", SeatsPresent("3f9a1c0b7e2d", (0, 2))),
    (b"present 3f9a1c0b7e2d ", SeatsPresent("3f9a1c0b7e2d", ())),
    (b"0", EventsStored(0)),
    (b"present 3f9a1c0b7e2d 0,2/2", SeatsPresent("3f9a1c0b7e2d", (0, 2), (2,))),
    (b"present 3f9a1c0b7e2d /", SeatsPresent("3f9a1c0b7e2d", (), ())),
    (b"present 3f9a1c0b7e2d 1/", SeatsPresent("3f9a1c0b7e2d", (1,), ())),
    (b"reacted 1 well_played", Reacted(1, "well_played")),
    (b"reacted 0 thumbs_up", Reacted(0, "thumbs_up")),
]


@pytest.mark.parametrize("kind", EVERY_TYPE)
def test_every_message_crosses_with_its_version_and_type(kind):
    news = EVERY_TYPE[kind]
    message = orjson.loads(encoded(news))
    assert (message["v"], message["type"]) == (MESSAGE_VERSION, kind)
    assert decoded(encoded(news)) == news


@pytest.mark.parametrize("key", REACTIONS)
def test_every_reaction_crosses_as_it_was_sent(key):
    assert decoded(encoded(Reacted(5, key))) == Reacted(5, key)


@pytest.mark.parametrize(("message", "news"), PREVIOUS_VERSION)
def test_the_previous_versions_messages_are_read(message, news):
    assert decoded(message) == news


def test_a_field_a_later_release_adds_is_ignored():
    assert decoded(b'{"v": 2, "type": "events", "events": 4, "by": "clock"}') == EventsStored(4)


@pytest.mark.parametrize(
    "message",
    [
        b"reacted 1 nope",
        b"reacted x wow",
        b"reacted 100 wow",
        b"reacted -1 wow",
        b"reacted 1",
        "reacted \u0661 wow".encode(),
        b"reacted 1 wow extra",
        b"reacted  wow",
        b"-3",
        b"\xff",
        b"present abc 0,x/",
        b'{"v": 2, "type": "reaction", "seat": 1, "key": "nope"}',
        b'{"v": 2, "type": "reaction", "seat": true, "key": "wow"}',
        b'{"v": 2, "type": "reaction", "seat": 100, "key": "wow"}',
        b'{"v": 2, "type": "events", "events": 1.5}',
        b'{"v": 2, "type": "events"}',
        b'{"v": 2, "type": "present", "origin": "", "seats": []}',
        b'{"v": 2, "type": "present", "origin": "p1", "seats": "0,2"}',
        b'{"v": 2.0, "type": "seats"}',
        b'{"v": 3, "type": "seats"}',
        b'{"v": 2, "type": "chat", "text": "hi"}',
        b"[2]",
        b"{not json",
    ],
)
def test_any_other_message_is_refused(message):
    with pytest.raises(UnreadableMessage):
        decoded(message)


def test_an_unknown_version_or_type_is_ignored_and_logged_once(caplog):
    reader = WireReader()
    foreign = [b'{"v": 3, "type": "events", "events": 1}', b'{"v": 2, "type": "chat"}', b"reacted 1 nope"]
    with caplog.at_level(logging.WARNING, logger="cubilete.web.wire"):
        ignored = [reader.news(message) for _ in range(100) for message in foreign]
    assert ignored == [None] * 300
    assert len(caplog.records) == 3
    assert "version 3, type events" in caplog.records[0].getMessage()


def test_a_flood_of_distinct_foreign_types_logs_a_bounded_number_of_lines(caplog):
    reader = WireReader()
    with caplog.at_level(logging.WARNING, logger="cubilete.web.wire"):
        for kind in range(5 * MOST_LOGGED_KINDS):
            assert reader.news(orjson.dumps({"v": 2, "type": f"kind{kind}"})) is None
    assert len(caplog.records) == MOST_LOGGED_KINDS + 1
    assert "no more are logged" in caplog.records[-1].getMessage()


def test_a_process_hears_the_previous_versions_messages_and_writes_its_own(redis_url, caplog):
    import redis

    from cubilete.web.redis_broker import RedisBroker, channel_prefix

    install = uuid.uuid4().hex  # other tests' processes share this Redis
    prefix = channel_prefix(install)
    raw = redis.Redis.from_url(redis_url)
    listening = raw.pubsub()
    listening.subscribe(f"{prefix}g2")
    assert listening.get_message(timeout=5)["type"] == "subscribe"
    broker = RedisBroker(redis_url, install)
    broker.start()  # its threads are the lifespan's to start
    heard: list[News] = []
    last = threading.Event()

    def listener(news: News) -> None:
        heard.append(news)
        if news == EventsStored(9):
            last.set()

    unsubscribe = broker.subscribe("g1", listener)
    try:
        with caplog.at_level(logging.WARNING, logger="cubilete.web.wire"):
            for message in [b"present 3f9a1c0b7e2d 0,2", b'{"v": 3, "type": "seats"}', b'{"v": 3, "type": "seats"}', b"9"]:
                raw.publish(f"{prefix}g1", message)  # as an older process and a newer one would
            assert last.wait(10), heard  # a channel's messages arrive in order: the foreign ones came before
        assert heard == [SeatsPresent("3f9a1c0b7e2d", (0, 2)), EventsStored(9)]
        assert [record.getMessage().count("version 3, type seats") for record in caplog.records] == [1]
        broker.publish("g2", Reacted(0, "wow"))
        written = listening.get_message(timeout=5)
        assert written is not None and written["data"] == encoded(Reacted(0, "wow"))
    finally:
        unsubscribe()
        broker.close()
        listening.close()
        raw.close()


def test_installs_sharing_a_redis_server_never_hear_each_other(redis_url, tmp_path):
    """The host's audit: a message published on Redis database 0 reached the processes of another install on
    database 13 (publish/subscribe ignores the number). Channels now carry the install's name, kept in its
    database: a second process of the same install hears it, the other install's does not."""
    from cubilete.storage import Storage
    from cubilete.web.redis_broker import RedisBroker

    names = {}
    for install, process in (("a", 1), ("a", 2), ("b", 1)):
        storage = Storage(f"sqlite:///{tmp_path / install}.sqlite3")
        names[install, process] = storage.install.name()
        storage.close()
    assert names["a", 1] == names["a", 2] != names["b", 1]
    base = redis_url.rsplit("/", 1)[0] if redis_url.count("/") > 2 else redis_url
    brokers = {
        "publisher a": RedisBroker(f"{base}/0", names["a", 1]),
        "same install": RedisBroker(f"{base}/0", names["a", 2]),
        "other install": RedisBroker(f"{base}/13", names["b", 1]),
        "publisher b": RedisBroker(f"{base}/13", names["b", 1]),
    }
    heard: dict[str, list[News]] = {"same install": [], "other install": []}
    done = {name: threading.Event() for name in heard}

    def listener(name: str):
        def hear(news: News) -> None:
            heard[name].append(news)
            done[name].set()
        return hear

    for broker in brokers.values():
        broker.start()
    unsubscribes = [brokers[name].subscribe("g1", listener(name)) for name in heard]
    try:
        brokers["publisher a"].publish("g1", EventsStored(5))
        assert done["same install"].wait(10)
        # a channel's messages arrive in order: had install a's message reached install b, it would come first
        brokers["publisher b"].publish("g1", EventsStored(7))
        assert done["other install"].wait(10)
        assert heard == {"same install": [EventsStored(5)], "other install": [EventsStored(7)]}
    finally:
        for unsubscribe in unsubscribes:
            unsubscribe()
        for broker in brokers.values():
            broker.close()
