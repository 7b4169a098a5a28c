"""The sockets ``gametable serve`` listens on, made before the server starts
(``gametable.server.main.listening_sockets``)."""

from __future__ import annotations

import errno
import socket

import pytest

from gametable.server.main import listening_sockets, shown_host


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_a_second_server_on_the_port_is_refused_even_in_the_same_moment() -> None:
    """The socket was bound, not listening, until the server started: two servers started
    together both bound it (SO_REUSEADDR), and the one whose listen failed later printed
    its address and served nothing."""
    port = free_port()
    first = listening_sockets("127.0.0.1", port)
    try:
        with pytest.raises(OSError) as refused:
            listening_sockets("127.0.0.1", port)
        assert refused.value.errno == errno.EADDRINUSE
    finally:
        for sock in first:
            sock.close()


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_every_address_is_served_in_both_families_and_ipv6_alone_on_its_socket() -> None:
    """``--host ""`` was served on IPv4 only (one socket, its family guessed from the
    text); ``--host ::`` took IPv4 too, as ``::ffff:127.0.0.1``, which ``--metrics-from``
    and ``--forwarded-allow-ips`` do not count as 127.0.0.1."""
    port = free_port()
    every = listening_sockets("", port)
    try:
        assert {sock.family for sock in every} == {socket.AF_INET, socket.AF_INET6}
        for sock in every:
            if sock.family == socket.AF_INET6:
                assert sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
    finally:
        for sock in every:
            sock.close()
    (six,) = listening_sockets("::", port)
    try:
        assert six.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY) == 1
    finally:
        six.close()


def test_a_name_that_is_not_known_is_refused_with_nothing_left_open() -> None:
    with pytest.raises(OSError):
        listening_sockets("no-such-host.invalid", free_port())


@pytest.mark.parametrize(("host", "shown"), [
    ("127.0.0.1", "localhost"), ("0.0.0.0", "localhost"), ("", "localhost"),
    ("::", "[::1]"), ("::1", "[::1]"), ("10.0.0.5", "10.0.0.5"),
    ("games.example.org", "games.example.org"),
])
def test_the_address_to_open_is_a_url_for_every_host(host: str, shown: str) -> None:
    """``--host ::`` printed ``http://:::8000/`` and ``--host ""`` ``http://:8000/``."""
    assert shown_host(host) == shown
