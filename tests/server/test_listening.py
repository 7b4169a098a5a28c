"""The sockets ``gametable serve`` listens on, made before the server starts
(``gametable.server.main.listening_sockets``)."""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from typing import Any

import pytest

from gametable.server.main import (
    SEND_BUFFER_BYTES,
    address_to_open,
    listening_sockets,
    shown_host,
)


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


def test_each_connection_s_send_buffer_is_capped() -> None:
    """The kernel grew each connection's send buffer up to 4 MiB, so a client that
    stopped reading held 2.7 MB there before the server's limits on unread messages
    counted: an accepted connection now has the listening socket's fixed buffer
    (``SO_SNDBUF``, which Linux reports doubled), not the kernel's growing one."""
    port = free_port()
    listeners = listening_sockets("127.0.0.1", port)
    try:
        with socket.create_connection(("127.0.0.1", port)):
            accepted, _ = listeners[0].accept()
            with accepted:
                size = accepted.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
                assert SEND_BUFFER_BYTES <= size <= 2 * SEND_BUFFER_BYTES, size
    finally:
        for sock in listeners:
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


def addresses(*hosts: str) -> Callable[..., list[tuple[Any, ...]]]:
    """A ``getaddrinfo`` standing in for a resolver that names ``hosts``."""
    def found(host: object, port: int, *args: object,
              **kwargs: object) -> list[tuple[Any, ...]]:
        return [(socket.AF_INET6 if ":" in ip else socket.AF_INET, socket.SOCK_STREAM,
                 socket.IPPROTO_TCP, "", (ip, port, 0, 0) if ":" in ip else (ip, port))
                for ip in hosts]
    return found


def test_an_address_of_the_name_this_machine_cannot_take_is_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``localhost`` is ``127.0.0.1`` and ``::1`` in /etc/hosts; with IPv6 switched off
    ``::1`` cannot be bound (EADDRNOTAVAIL) and the server refused to start."""
    monkeypatch.setattr(socket, "getaddrinfo", addresses("127.0.0.1", "2001:db8::1"))
    (four,) = listening_sockets("localhost", free_port())
    try:
        assert four.family == socket.AF_INET
    finally:
        four.close()


def test_a_name_none_of_whose_addresses_is_this_machines_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", addresses("192.0.2.1", "2001:db8::1"))
    with pytest.raises(OSError) as refused:
        listening_sockets("elsewhere.example", free_port())
    assert refused.value.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)


def test_a_port_in_use_on_one_address_refuses_the_name_and_closes_the_others(
        monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    taken = listening_sockets("127.0.0.2", port)
    monkeypatch.setattr(socket, "getaddrinfo", addresses("127.0.0.1", "127.0.0.2"))
    try:
        with pytest.raises(OSError) as refused:
            listening_sockets("both.example", port)
        assert refused.value.errno == errno.EADDRINUSE
        monkeypatch.undo()
        (again,) = listening_sockets("127.0.0.1", port)  # 127.0.0.1 was let go
        again.close()
    finally:
        for sock in taken:
            sock.close()


@pytest.mark.parametrize(("host", "shown"), [
    ("127.0.0.1", "localhost"), ("0.0.0.0", "localhost"), ("", "localhost"),
    ("::", "[::1]"), ("::1", "[::1]"), ("10.0.0.5", "10.0.0.5"),
    ("games.example.org", "games.example.org"),
])
def test_the_address_to_open_is_a_url_for_every_host(host: str, shown: str) -> None:
    """``--host ::`` printed ``http://:::8000/`` and ``--host ""`` ``http://:8000/``."""
    assert shown_host(host) == shown


def test_the_address_to_open_is_the_public_url_when_one_is_given() -> None:
    """Behind a reverse proxy (``--public-url``) the banner said to open the address the
    server listens on, which others cannot reach: it gives the public one now."""
    assert address_to_open("127.0.0.1", 8000) == "http://localhost:8000/"
    assert address_to_open("::", 8001, None) == "http://[::1]:8001/"
    assert address_to_open("127.0.0.1", 8000, "https://games.example.org") == \
        "https://games.example.org/"
    assert address_to_open("0.0.0.0", 8000, "https://games.example.org:8443/") == \
        "https://games.example.org:8443/"
