"""The tests trust one certificate whose key was thrown away (tests/conftest.py sets SSL_CERT_FILE).

Every HTTP client a test builds reads its trust store at construction; certifi's roots cost 16-20 ms of CPU a
client. No test speaks TLS, so none loses anything by trusting no real authority, and one that tried would fail.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx

NO_ONE = Path(__file__).resolve().parent / "data" / "tls" / "no-one.pem"


def test_the_tests_and_what_they_start_trust_only_a_certificate_nobody_can_sign_with():
    assert os.environ["SSL_CERT_FILE"] == str(NO_ONE)  # in the environment: the interpreters tests start inherit it
    roots = httpx.create_ssl_context().get_ca_certs()  # what every httpx client is built with
    assert [dict(part[0] for part in root["subject"])["commonName"] for root in roots] == [
        "monchat tests: a CA whose key was thrown away"]
