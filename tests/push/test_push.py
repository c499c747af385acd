"""Push notices (issue 26): a push receiver on 127.0.0.1 plays the push service
(tests/support/push.py). The members subscribe with their own ECDH keys and auth secrets
as browsers do; the receiver's messages carry a valid VAPID signature of the Club's key
and decrypt (aes128gcm) to the notices: an invitation, my turn in a slow partie, a
reminder, a round, an ended partie, each in the device's language. A device the push
service says is gone is dropped; at most five devices per member; bad subscriptions are
refused; a turn at a live table, or at a table I have open, is not pushed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, update

from app.db.models import Member, Partie, PushMessage, PushSubscription
from app.push import outbox
from app.push.subscriptions import check_endpoint
from app.push.vapid import VapidError, VapidKeys, b64url, load_keys
from app.realtime import notices
from tests.support.api import error_code, my_turn_state, register
from tests.support.push import Device, PushReceiver
from tests.support.web import wait_for


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"push_allow_loopback": True, "push_poll_seconds": 0.2})


@pytest.fixture
def receiver():
    r = PushReceiver()
    yield r
    r.close()


def server_key(c) -> str:
    r = c.get("/api/push/key")
    assert r.status_code == 200
    return r.json()["public_key"]


def subscribe(c, device: Device, **extra) -> dict:
    r = c.post("/api/push/subscriptions", json=device.subscription(**extra))
    assert r.status_code in (200, 201), r.text
    return r.json()


def member_id(app, name: str) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(Member.id).where(Member.name_key == name))


def outbox_rows(app) -> int:
    with app.state.club.db.read() as s:
        return s.scalar(select(func.count()).select_from(PushMessage))


def waiting_for_retry(app) -> list[int]:
    """The attempts of the outbox rows back in line for their next try. A row is leased
    (attempts counted, next try LEASE away) when claimed, before its send: only its settling
    sets the retry's time, and a clock moved before that would leave the retry past it."""
    db = app.state.club.db
    first_wait = db.clock.now() + outbox.RETRY_AFTER[0]
    with db.read() as s:
        return [a for a, at in s.execute(select(PushMessage.attempts, PushMessage.next_try_at)) if at <= first_wait]


def settled(app) -> bool:
    """Every told notice is through the outbox and every message sent (or dropped)."""
    return app.state.club.push.waiting == 0 and outbox_rows(app) == 0


def pushes(device: Device, key: str, n: int = 1) -> list[dict]:
    """The device's first ``n`` notices, once they have arrived (checked and decrypted)."""
    wait_for(lambda: len(device.messages()) >= n)
    return [device.read(m, key) for m in device.messages()]


def propose_lora(ana, *members: str) -> int:
    seats = [{"kind": "member", "name": m} for m in members] + [{"kind": "bot"}] * (3 - len(members))
    r = ana.post("/api/parties", json={"game": "lora", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def make_slow(app, pid: int, seconds: int = 86400) -> None:
    """A slow partie (a day per decision): the proposals of this branch offer live timers only."""
    with app.state.club.db.write() as s:
        s.execute(update(Partie).where(Partie.id == pid).values(timer_seconds=seconds))


def test_an_invitation_and_my_turn_in_a_slow_partie_are_pushed(client, app, receiver):
    ana, boki = register(app, "ana"), register(app, "boki")
    key = server_key(ana)
    phone, laptop = Device(receiver, "ana-phone"), Device(receiver, "boki-laptop")
    assert subscribe(ana, phone, lang="en")["created"] is True
    subscribe(boki, laptop)  # his page's language: Serbian, the default

    pid = propose_lora(ana, "boki")
    [invitation] = pushes(laptop, key)
    assert invitation == {"kind": "invited", "partie": pid, "lang": "sr-Latn", "title": "Klub",
                          "body": f"ana vas poziva: Lora #{pid}", "url": "/lobby"}
    sent = laptop.messages()[0].headers
    assert sent["topic"] == f"partie-{pid}" and sent["urgency"] == "normal" and sent["ttl"] == str(3 * 86400)

    make_slow(app, pid)
    assert boki.post(f"/api/parties/{pid}/accept").json()["status"] == "running"
    [started] = pushes(phone, key)
    assert started["kind"] == "started" and started["body"] == f"Lora #{pid} has started"
    # Boki (seat 1) leads; two computer players follow; then it is Ana's turn, told to her phone.
    state = my_turn_state(boki, pid)
    assert boki.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]}).status_code == 200
    turn = pushes(phone, key, 2)[1]
    assert turn == {"kind": "turn", "partie": pid, "lang": "en", "title": "Klub", "body": f"Your turn: Lora #{pid}",
                    "url": f"/table/{pid}"}
    headers = phone.messages()[1].headers
    assert headers["urgency"] == "high" and headers["topic"] == f"partie-{pid}" and headers["ttl"] == "86400"
    wait_for(lambda: settled(app))
    assert all(m.status == 201 for m in receiver.received) and len(laptop.messages()) == 1


def test_no_push_for_a_live_table_nor_a_table_i_have_open(client, app, receiver):
    ana, boki = register(app, "ana"), register(app, "boki")
    club = app.state.club
    phone = Device(receiver, "ana-phone")
    subscribe(ana, phone)
    told: list[dict] = []
    club.hub.sinks.append(lambda members, notice: told.append({**notice, "to": members}))
    ana_id = member_id(app, "ana")

    def ana_told_turn(pid):
        return any(n["kind"] == "turn" and n["partie"] == pid and ana_id in n["to"] for n in told)

    live = propose_lora(ana, "boki")  # no timer: a live partie
    boki.post(f"/api/parties/{live}/accept")
    slow = propose_lora(ana, "boki")
    make_slow(app, slow)
    # Ana has the slow partie's table open: her seat's socket (app/tables/viewers.py).
    club.viewers.open(slow, ana_id, "ana", seated=True)
    boki.post(f"/api/parties/{slow}/accept")
    for pid in (live, slow):
        state = my_turn_state(boki, pid)
        boki.post(f"/api/parties/{pid}/actions", json={"word": state["legal"][0], "version": state["version"]})
        wait_for(lambda: ana_told_turn(pid))  # her pages heard it ...
    wait_for(lambda: settled(app))
    assert phone.messages() == []  # ... her phone did not


def test_a_reminder_a_round_and_an_ended_partie_in_english(client, app, receiver):
    ana, _boki = register(app, "ana"), register(app, "boki")
    club = app.state.club
    key = server_key(ana)
    phone = Device(receiver, "ana-phone")
    ana.cookies.set("klub_lang", "en")  # the page's language: the device's
    subscribe(ana, phone)
    pid = propose_lora(ana, "boki")  # waiting for Boki: no turns meanwhile
    make_slow(app, pid, 3 * 86400)
    ana_id = member_id(app, "ana")
    notices.tell(club.hub, [ana_id], "reminder", partie=pid)
    wait_for(lambda: len(phone.messages()) == 1)
    notices.tell(club.hub, [ana_id], "round", tournament=7, round=2, partie=pid, name="Kup Klub", game="lora")
    wait_for(lambda: len(phone.messages()) == 2)
    notices.tell(club.hub, [ana_id], "ended", partie=pid, game="lora", version=9)
    reminder, round_, ended = pushes(phone, key, 3)
    assert reminder["body"] == f"Reminder: your turn at Lora #{pid} is waiting, and its time is running out"
    assert reminder["url"] == f"/table/{pid}" and reminder["lang"] == "en"
    assert round_["body"] == f"Kup Klub: round 2 has begun, your table is #{pid}" and round_["url"] == f"/table/{pid}"
    assert ended["body"] == f"Lora #{pid} has ended" and ended["url"] == f"/archive/{pid}"
    urgency = [m.headers["urgency"] for m in phone.messages()]
    assert urgency == ["high", "high", "low"]
    assert [m.headers["ttl"] for m in phone.messages()] == [str(3 * 86400), "3600", "86400"]
    assert {m.headers["topic"] for m in phone.messages()} == {f"partie-{pid}"}  # a newer one replaces an older one


def test_a_device_the_push_service_calls_gone_is_dropped(client, app, receiver):
    ana, boki = register(app, "ana"), register(app, "boki")
    gone, kept = Device(receiver, "old-phone"), Device(receiver, "new-phone")
    subscribe(boki, gone)
    subscribe(boki, kept)
    receiver.answers[gone.path] = 410
    propose_lora(ana, "boki")
    wait_for(lambda: len(gone.messages()) == 1 and len(kept.messages()) == 1)
    wait_for(lambda: len(boki.get("/api/push/subscriptions").json()["devices"]) == 1)
    with app.state.club.db.read() as s:
        assert s.scalars(select(PushSubscription.endpoint)).all() == [kept.endpoint]
    wait_for(lambda: settled(app))
    propose_lora(ana, "boki")  # the next invitation reaches the device that is left only
    wait_for(lambda: len(kept.messages()) == 2)
    wait_for(lambda: settled(app))
    assert len(gone.messages()) == 1


def test_a_failed_push_is_tried_again_later(client, app, receiver, clock):
    ana, boki = register(app, "ana"), register(app, "boki")
    laptop = Device(receiver, "laptop")
    subscribe(boki, laptop)
    receiver.answers[laptop.path] = 503
    propose_lora(ana, "boki")
    wait_for(lambda: len(laptop.messages()) == 1)
    wait_for(lambda: waiting_for_retry(app) == [1])  # kept for a later try
    receiver.answers[laptop.path] = 201
    clock.advance(seconds=outbox.RETRY_AFTER[0].total_seconds() + 1)
    wait_for(lambda: len(laptop.messages()) == 2)
    wait_for(lambda: settled(app))
    assert laptop.read(laptop.messages()[1], server_key(boki))["kind"] == "invited"


def test_at_most_five_devices_per_member(client, app, receiver):
    ana = register(app, "ana")
    devices = [Device(receiver, f"d{i}") for i in range(6)]
    for d in devices[:5]:
        assert subscribe(ana, d)["created"] is True
    again = subscribe(ana, devices[0])  # a page sends its subscription again: refreshed, not added
    assert again["created"] is False and again["devices"] == 5
    out = subscribe(ana, devices[5])
    assert out == {"id": out["id"], "created": True, "devices": 5, "dropped": 1}
    with app.state.club.db.read() as s:
        endpoints = set(s.scalars(select(PushSubscription.endpoint)))
    assert endpoints == {d.endpoint for d in devices} - {devices[1].endpoint}  # the one sent least recently went
    listed = ana.get("/api/push/subscriptions").json()
    assert listed["max"] == 5 and len(listed["devices"]) == 5
    assert all(d["service"] == receiver.url and d["this_session"] for d in listed["devices"])
    assert "endpoint" not in listed["devices"][0]
    # Switched off; again: nothing there.
    r = ana.request("DELETE", "/api/push/subscriptions", json={"endpoint": devices[5].endpoint})
    assert r.status_code == 200
    r = ana.request("DELETE", "/api/push/subscriptions", json={"endpoint": devices[5].endpoint})
    assert r.status_code == 404 and error_code(r) == "no_such_subscription"
    # A device goes with the session that sent it.
    assert ana.post("/api/auth/logout").status_code == 200
    with app.state.club.db.read() as s:
        assert s.scalar(select(func.count()).select_from(PushSubscription)) == 0


class PushReceiverStub:
    url = "https://fcm.googleapis.com/fcm/send"


def _bad(**change):
    """A browser's subscription with one thing changed (``keys__auth``: a key of ``keys``; ``...``: left out)."""
    sub = Device(PushReceiverStub(), "x").subscription()  # type: ignore[arg-type]
    for path, value in change.items():
        target = sub
        *heads, last = path.split("__")
        for h in heads:
            target = target[h]
        if value is ...:
            del target[last]
        else:
            target[last] = value
    return sub


BAD_SUBSCRIPTIONS = [
    (_bad(endpoint="http://fcm.googleapis.com/fcm/send/x"), "invalid_endpoint"),
    (_bad(endpoint="https://10.0.0.7/push/x"), "invalid_endpoint"),
    (_bad(endpoint="https://[::1]/push/x"), "invalid_endpoint"),
    (_bad(endpoint="https://localhost/push/x"), "invalid_endpoint"),
    (_bad(endpoint="https://push.corp.internal/x"), "invalid_endpoint"),
    (_bad(endpoint="https://intranet/x"), "invalid_endpoint"),
    (_bad(endpoint="https://user:pw@fcm.googleapis.com/fcm/send/x"), "invalid_endpoint"),
    (_bad(endpoint="https://fcm.googleapis.com:8443/fcm/send/x"), "invalid_endpoint"),
    (_bad(endpoint="https://fcm.googleapis.com/fcm/send/a b"), "invalid_endpoint"),
    (_bad(endpoint="file:///etc/passwd"), "invalid_endpoint"),
    (_bad(endpoint="https://fcm.googleapis.com/" + "x" * 2100), "invalid_endpoint"),
    (_bad(endpoint=42), "invalid_request"),
    (_bad(keys__p256dh=b64url(b"\x04" + b"\x01" * 64)), "invalid_push_key"),  # not a point of the curve
    (_bad(keys__p256dh=b64url(b"\x04" + b"\x01" * 30)), "invalid_push_key"),
    (_bad(keys__p256dh="not base64url!"), "invalid_push_key"),
    (_bad(keys__auth=b64url(b"\x01" * 15)), "invalid_push_auth"),
    (_bad(keys__auth="AAAA+AAAAAAAAAAAAAAAAA"), "invalid_push_auth"),
    (_bad(keys__auth=...), "invalid_request"),
    (_bad(lang="de"), "invalid_lang"),
    (_bad(extra="field"), "invalid_request"),
]


def test_bad_subscriptions_are_refused(client, app):
    ana = register(app, "ana")
    for body, code in BAD_SUBSCRIPTIONS:
        r = ana.post("/api/push/subscriptions", json=body)
        assert r.status_code == 422 and error_code(r) == code, (body, r.text)
        assert r.json()["error"]["message"]
    assert ana.get("/api/push/subscriptions").json()["devices"] == []
    assert ana.post("/api/push/subscriptions", json=_bad()).status_code == 201  # the good one of them all
    r = client.post("/api/push/subscriptions", json=_bad())
    assert r.status_code == 401 and error_code(r) == "not_authenticated"
    documented = client.get("/openapi.json").json()["paths"]  # in /docs
    assert set(documented["/api/push/subscriptions"]) == {"get", "post", "delete"} and "/api/push/key" in documented
    assert client.get("/api/push/key").status_code == 200  # the public key is public
    check_endpoint("https://fcm.googleapis.com/fcm/send/abc")
    check_endpoint("http://127.0.0.1:8123/push/x", allow_loopback=True)
    with pytest.raises(Exception) as refused:
        check_endpoint("http://127.0.0.1:8123/push/x")
    assert refused.value.code == "invalid_endpoint"


def test_the_vapid_keys_are_made_once_and_kept(settings, app):
    from cryptography.hazmat.primitives.asymmetric import ec

    club = app.state.club
    first = load_keys(club.db, settings)
    assert load_keys(club.db, settings).public_key == first.public_key  # read back, not made again
    assert len(first.public_key) == 87 and first.subject.startswith(("mailto:", "https://"))
    # The settings override the database's pair, as PEM or as base64url of the raw key.
    key = ec.generate_private_key(ec.SECP256R1())
    raw = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    own = VapidKeys.of(key, "mailto:admin@klub.rs")
    given = load_keys(club.db, settings.model_copy(update={"vapid_private_key": raw, "vapid_subject": "mailto:admin@klub.rs"}))
    assert given.public_key == own.public_key != first.public_key and given.subject == "mailto:admin@klub.rs"
    with pytest.raises(VapidError):
        load_keys(club.db, settings.model_copy(update={"vapid_private_key": raw, "vapid_public_key": first.public_key}))
    with pytest.raises(VapidError):
        load_keys(club.db, settings.model_copy(update={"vapid_private_key": "not a key"}))


def test_two_instances_claim_each_message_once(settings):
    """Two senders (as on two instances) claim the due rows at the same moment: each row
    goes to one of them (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer at a time)."""
    import threading
    from datetime import timedelta

    from sqlalchemy import insert

    from app.db import Database
    from app.db.models import LoginSession
    from app.members import passwords
    from app.members.service import register as register_member

    passwords.set_cost(1, 1024)
    db = Database(settings.database_url)
    member = register_member(db, "ana", "klupska-lozinka-7")
    now = db.clock.now()
    with db.write() as s:
        s.add(LoginSession(id="s" * 64, member_id=member.id, expires_at=now + timedelta(days=1)))
        s.flush()
        sub = PushSubscription(member_id=member.id, session_id="s" * 64, endpoint="https://fcm.googleapis.com/x",
                               p256dh="k", auth="a", lang="en", created_at=now, updated_at=now)
        s.add(sub)
        s.flush()
        s.execute(insert(PushMessage), [
            {"subscription_id": sub.id, "kind": "turn", "topic": f"partie-{i}", "urgency": "high", "payload": {"i": i},
             "created_at": now, "expires_at": now + timedelta(hours=1), "next_try_at": now, "attempts": 0}
            for i in range(40)])
    instances = [Database(settings.database_url) for _ in range(2)]
    barrier = threading.Barrier(2)
    claimed: list[list[int]] = [[], []]

    def sender(i: int) -> None:
        barrier.wait()
        while jobs := outbox.claim(instances[i], 7):
            claimed[i] += [j.payload["i"] for j in jobs]

    threads = [threading.Thread(target=sender, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(claimed[0] + claimed[1]) == list(range(40))  # every row once, none twice
    assert outbox.claim(db, 100) == []  # leased: not due again until the lease ends
    for d in (db, *instances):
        d.dispose()


def test_what_the_sender_makes_of_the_push_services_answers(receiver):
    """The outcomes of one post (no app): sent, gone, tried again (with the Retry-After),
    dropped; a redirect is not followed; a host that resolves to a private address is refused."""
    from cryptography.hazmat.primitives.asymmetric import ec

    from app.push import sender

    keys = VapidKeys.of(ec.generate_private_key(ec.SECP256R1()), "mailto:admin@klub.rs")
    device = Device(receiver, "phone")
    sub = device.subscription()

    def post(answer, endpoint=None):
        receiver.answers[device.path] = answer
        job = outbox.Job(1, 1, endpoint or device.endpoint, sub["keys"]["p256dh"], sub["keys"]["auth"],
                         {"kind": "turn", "body": "Your turn"}, "partie-1", "high", 60, 1)
        return sender.send(job, keys, allow_loopback=True, timeout=5)

    assert post(201).status == "sent"
    assert device.read(device.messages()[-1], keys.public_key) == {"kind": "turn", "body": "Your turn"}
    assert post(410).status == "gone" and post(404).status == "gone"
    retry = post((429, {"Retry-After": "120"}))
    assert retry.status == "retry" and retry.retry_after == 120
    assert post(503).status == "retry" and post(400).status == "dropped"
    count = len(receiver.received)
    assert post((307, {"Location": receiver.url + "/push/elsewhere"})).status == "dropped"
    assert len(receiver.received) == count + 1 and receiver.at("/push/elsewhere") == []  # not followed
    # Not the tests' loopback receiver: a name that resolves to a private address is refused unsent.
    assert post(201, endpoint="https://localhost/push/x").status == "retry"
    assert not sender.public_host("https://localhost/push/x", allow_loopback=True)
    assert not sender.public_host(device.endpoint, allow_loopback=False)
