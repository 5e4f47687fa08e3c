"""The rate limiter on its own, with a clock the test moves: a burst, then a steady rate; the
wait it answers; clients apart; memory bounded; the operator's spec."""

from __future__ import annotations

import pytest

from cardtable.web.limits import (
    ConnectionCap,
    Limiters,
    Limits,
    Rate,
    RateLimiter,
    client_key,
    retry_after,
    wait_message,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_of_count_then_one_each_period_over_count() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(5, 5), clock)
    assert [limiter.take("a") for _ in range(5)] == [0.0] * 5
    assert limiter.take("a") == pytest.approx(1.0)
    clock.now += 0.5
    assert limiter.wait("a") == pytest.approx(0.5)
    assert limiter.take("a") == pytest.approx(0.5)  # a refused action spends nothing
    clock.now += 0.5
    assert limiter.take("a") == 0.0
    assert limiter.take("a") > 0
    clock.now += 60
    assert [limiter.take("a") for _ in range(6)][-2:] == [0.0, pytest.approx(1.0)]


def test_nineteen_chat_lines_in_a_second_are_five() -> None:
    clock = Clock()
    limiter = RateLimiter(Limits().chat, clock)
    allowed = 0
    for _ in range(19):
        clock.now += 1 / 19
        allowed += limiter.take("person") == 0.0
    assert allowed == 5


def test_each_client_has_its_own_bucket() -> None:
    limiter = RateLimiter(Rate(2, 60), Clock())
    assert [limiter.take("a") for _ in range(3)] == [0.0, 0.0, pytest.approx(30.0)]
    assert limiter.take("b") == 0.0
    limiter.reset("a")
    assert limiter.take("a") == 0.0


def test_no_rate_never_refuses() -> None:
    limiter = RateLimiter(None, Clock())
    assert all(limiter.take("a") == 0.0 for _ in range(1000))
    assert len(limiter) == 0


def test_a_client_whose_bucket_is_full_again_is_forgotten() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(3, 10), clock)
    for index in range(1000):
        limiter.take(f"client {index}")
    assert len(limiter) == 1000
    clock.now += 10
    limiter.take("late")
    assert len(limiter) == 1


def test_past_max_clients_the_least_recently_seen_are_forgotten() -> None:
    clock = Clock()
    limiter = RateLimiter(Rate(1, 3600), clock, max_clients=100)
    limiter.take("first")
    for index in range(500):
        limiter.take(f"client {index}")
        assert len(limiter) <= 100
    assert limiter.wait("client 499") > 0
    assert limiter.wait("first") == 0.0  # forgotten: a full bucket again


def test_connections_at_once() -> None:
    cap = ConnectionCap(2)
    assert [cap.open("a"), cap.open("a"), cap.open("a")] == [True, True, False]
    assert cap.open("b")
    cap.close("a")
    assert cap.count("a") == 1 and cap.open("a")
    cap.close("a")
    cap.close("a")
    assert cap.count("a") == 0
    unlimited = ConnectionCap(None)
    assert all(unlimited.open("a") for _ in range(1000))


def test_the_limiters_read_the_clock_they_are_given_at_each_action() -> None:
    clock = Clock()
    limiters = Limiters(Limits(create=Rate(1, 60)))
    limiters.clock = clock
    assert limiters.create.take("a") == 0.0
    assert limiters.create.take("a") == pytest.approx(60.0)
    clock.now += 60
    assert limiters.create.take("a") == 0.0


def test_the_defaults_and_the_spec() -> None:
    assert str(Limits()) == ("create=10/60s,join=30/60s,chat=5/5s,signin=10/900s,"
                             "names=20/3600s,sockets=20")
    assert Limits.parse(str(Limits())) == Limits()
    assert Limits.parse("off") == Limits.off() == Limits(None, None, None, None, None, None)
    assert Limits.parse(" create = 20/1m , sockets=off,chat=10/10S ") == Limits(
        create=Rate(20, 60), chat=Rate(10, 10), sockets=None)
    assert Limits.parse("signin=3/1h").signin == Rate(3, 3600)
    assert Limits.parse("join=off").join is None
    assert Limits.parse(str(Limits.off())) == Limits.off()


@pytest.mark.parametrize(("spec", "message"), [
    ("", "a limit is NAME=VALUE with NAME one of create, join, chat, signin, names, "
         "sockets (got '')"),
    ("tables=3/60", "a limit is NAME=VALUE with NAME one of create, join, chat, signin, "
                    "names, sockets (got 'tables=3/60')"),
    ("create", "a limit is NAME=VALUE with NAME one of create, join, chat, signin, names, "
               "sockets (got 'create')"),
    ("create=10", "create: a rate is N/SECONDS, e.g. 10/60 or 5/5s (got '10')"),
    ("create=0/60", "create: a rate is N/SECONDS with N at least 1 and SECONDS above 0"),
    ("create=1/0", "create: a rate is N/SECONDS with N at least 1 and SECONDS above 0"),
    ("chat=1/5d", "chat: a rate is N/SECONDS, e.g. 10/60 or 5/5s (got '1/5d')"),
    ("sockets=0", "sockets is a count from 1 to 1000000 or off (got '0')"),
    ("sockets=\u0662", "sockets is a count from 1 to 1000000 or off (got '\u0662')"),
    ("join=1/1,join=2/2", "the limit 'join' is given twice"),
])
def test_a_bad_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        Limits.parse(spec)
    assert str(raised.value) == message


def test_who_counts_and_the_wait_in_words() -> None:
    assert client_key("abc", "1.2.3.4") == "player:abc"
    assert client_key(None, "1.2.3.4") == "address:1.2.3.4"
    assert client_key(None, None) == "address:unknown"
    assert client_key(None, "testclient") == "address:testclient"
    # One home's IPv6 block is one client, whichever of its addresses it takes.
    assert client_key(None, "2001:db8:1:2:aaaa::1") == client_key(
        None, "2001:db8:1:2:bbbb:cccc:dddd:eeee") == "address:2001:db8:1:2::/64"
    assert client_key(None, "2001:db8:1:3::1") == "address:2001:db8:1:3::/64"
    assert client_key(None, "::ffff:1.2.3.4") == "address:1.2.3.4"
    assert retry_after(0.01) == 1 and retry_after(6.0) == 6 and retry_after(6.2) == 7
    assert wait_message("new tables", 5.5) == "Too many new tables: try again in 6 s."
