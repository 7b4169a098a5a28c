"""Upload quotas: who a client is, how shares refill, what a refusal says."""

from __future__ import annotations

import pytest

from gametable.decks.images import DeckRefused
from gametable.decks.uploads import owner_hash
from gametable.server.quotas import UploadQuota, UploadQuotas


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_client_is_its_address_its_ipv6_network_and_its_deck_keys() -> None:
    clients = UploadQuotas.clients
    assert clients("192.0.2.7") == ["address:192.0.2.7"]
    assert clients("2001:db8:1:2:aaaa::1") == clients("2001:db8:1:2:bbbb::9") \
        == ["address:2001:db8:1:2::/64"]
    assert clients("2001:db8:1:3::1") != clients("2001:db8:1:2::1")
    assert clients("::ffff:192.0.2.7") == ["address:192.0.2.7"]
    assert clients("192.0.2.7", ["k1", "", "k1"]) == [
        "address:192.0.2.7", f"key:{owner_hash('k1')[:32]}"]
    assert clients(None, ["k1"]) == [f"key:{owner_hash('k1')[:32]}"]
    assert "k1" not in "".join(clients("192.0.2.7", ["k1"]))


def test_a_share_refills_evenly_and_the_refusal_says_when() -> None:
    clock = Clock()
    quotas = UploadQuotas(UploadQuota(cpu_seconds=60, minutes=60), clock=clock)
    me, other = quotas.clients("192.0.2.7"), quotas.clients("192.0.2.8")
    quotas.begin(me)
    quotas.charge(me, "cpu_seconds", 59)
    with pytest.raises(DeckRefused) as refused:
        quotas.charge(me, "cpu_seconds", 2)
    error = refused.value
    assert (error.code, error.status, error.retry_after) == ("quota_cpu", 429, 60)
    assert error.params == {"limit": 60, "window": 60, "minutes": 1}
    assert "60 seconds per 60 min" in str(error)
    quotas.end(me)
    with pytest.raises(DeckRefused):
        quotas.begin(me)  # overdrawn by a second: a minute to wait
    quotas.begin(other)  # others are not held up
    quotas.end(other)
    clock.now += 61
    quotas.begin(me)
    quotas.end(me)


def test_uploads_at_once_are_counted_per_client() -> None:
    quotas = UploadQuotas(UploadQuota(at_once=2))
    me = quotas.clients("192.0.2.7", ["key"])
    quotas.begin(me)
    quotas.begin(quotas.clients("198.51.100.1", ["key"]))
    with pytest.raises(DeckRefused) as refused:
        quotas.begin(quotas.clients("203.0.113.5", ["key"]))  # the key is busy twice
    assert (refused.value.code, refused.value.status) == ("upload_busy", 409)
    quotas.begin(quotas.clients("192.0.2.7"))  # the address once only
    quotas.end(me)
    quotas.begin(quotas.clients("203.0.113.5", ["key"]))


def test_quotas_are_settings() -> None:
    assert UploadQuota.parse("") == UploadQuota()
    parsed = UploadQuota.parse("decks=3, cpu-seconds=12.5,minutes=10,at-once=2")
    assert (parsed.decks, parsed.cpu_seconds, parsed.minutes, parsed.at_once) == (3, 12.5, 10, 2)
    assert parsed.cards == UploadQuota().cards
    for bad in ("decks=many", "pictures=3", "cards=0", "megabytes=-1"):
        with pytest.raises(ValueError):
            UploadQuota.parse(bad)
