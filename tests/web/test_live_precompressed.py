"""The live pages compressed by the app (issue 23, many viewers): a client that takes gzip gets the page gzipped
with an ETag of its own and "Vary: Accept-Encoding", compressed once per distinct page however often it is
asked for; a client without gzip gets the plain page; a 304 never confirms the other encoding's copy."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from tests.helpers import players_of
from tournament.web.live import cache as live_cache

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def etag_of(response) -> str:
    return response.get_etag()[0]


@pytest.mark.parametrize("path", ["standings", "standings/sessions/1", "seating/1", "players/{player}",
                                  "statistics", "live/standings.json", "live/seating.json"])
def test_a_client_that_takes_gzip_gets_the_page_compressed_with_its_own_etag(client, played, path):
    url = f"/t/{played.id}/" + path.format(player=players_of(played)[0].id)
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"] and "Cookie" in answer.headers["Vary"]
        assert answer.headers["Cache-Control"] == "public, max-age=0, s-maxage=2"
    assert int(packed.headers["Content-Length"]) == len(packed.get_data())
    assert len(packed.get_data()) < len(plain.get_data())
    # Two representations, two strong ETags: neither can stand for the other.
    assert etag_of(plain) != etag_of(packed) and not plain.get_etag()[1] and not packed.get_etag()[1]
    # The same page inside: a live page names its own ETag for static/js/live.js, nothing else differs.
    body = gzip.decompress(packed.get_data())
    assert body == plain.get_data().replace(etag_of(plain).encode(), etag_of(packed).encode())
    if path.endswith(".json"):
        assert json.loads(body) == plain.get_json()


def test_a_304_never_confirms_the_other_encoding(client, played):
    url = f"/t/{played.id}/standings"
    plain_tag, packed_tag = etag_of(client.get(url)), etag_of(client.get(url, headers=GZIP))

    again = client.get(url, headers={**GZIP, "If-None-Match": f'"{packed_tag}"'})
    assert again.status_code == 304 and etag_of(again) == packed_tag
    assert "Accept-Encoding" in again.headers["Vary"]
    assert client.get(url, headers={"If-None-Match": f'"{plain_tag}"'}).status_code == 304
    # The gzip copy's ETag from a client that no longer takes gzip: the plain page, not a 304.
    crossed = client.get(url, headers={"If-None-Match": f'"{packed_tag}"'})
    assert crossed.status_code == 200 and "Content-Encoding" not in crossed.headers
    assert b"<html" in crossed.get_data()
    crossed = client.get(url, headers={**GZIP, "If-None-Match": f'"{plain_tag}"'})
    assert crossed.status_code == 200 and crossed.headers["Content-Encoding"] == "gzip"
    # What nginx makes of an ETag when it gzips or gunzips (W/) still matches its own encoding only.
    assert client.get(url, headers={**GZIP, "If-None-Match": f'W/"{packed_tag}"'}).status_code == 304
    assert client.get(url, headers={"If-None-Match": f'W/"{packed_tag}"'}).status_code == 200


def test_a_page_is_compressed_once_however_often_it_is_asked_for(client, played, monkeypatch):
    live_cache.clear()
    calls = []
    compress = gzip.compress

    def counted(data, *args, **kwargs):
        calls.append(len(data))
        return compress(data, *args, **kwargs)

    monkeypatch.setattr(live_cache.gzip, "compress", counted)
    url = f"/t/{played.id}/standings"
    answers = [client.get(url, headers=GZIP).get_data() for _ in range(3)]
    assert len(calls) == 1 and answers[0] == answers[1] == answers[2]
    # Another page, or the same page in another language, is another body: compressed once too.
    client.get(f"/t/{played.id}/live/standings.json", headers=GZIP)
    client.get(url, headers={**GZIP, "Accept-Language": "fi"})
    client.get(url, headers={**GZIP, "Accept-Language": "fi"})
    assert len(calls) == 3
    # Nothing compressed for a client without gzip.
    client.get(url)
    assert len(calls) == 3


def test_the_kept_compressed_bytes_are_bounded(monkeypatch):
    live_cache.clear()
    monkeypatch.setattr(live_cache, "GZIP_BYTES", 300)
    bodies = [random.Random(i).randbytes(1000) for i in range(5)]  # incompressible: ~1 KB each kept
    packed = [live_cache.gzipped(body) for body in bodies]
    assert [gzip.decompress(p) for p in packed] == bodies
    assert len(live_cache._gzipped) == 1  # over the bound: only the newest is kept
    assert live_cache.gzipped(bodies[-1]) is packed[-1]
    live_cache.clear()
    assert not live_cache._gzipped and live_cache._gzipped_size == 0


def test_the_live_cache_keeps_a_page_until_cleared(in_play, client):
    """The live pages' content is kept beside them (web/live/cache.py), apart from the standings' cache."""
    t = in_play
    assert client.get(f"/t/{t.id}/statistics").status_code == 200
    assert live_cache.lookup(("statistics", t.id), lambda entry: True) is not None
    live_cache.clear()
    assert live_cache.lookup(("statistics", t.id), lambda entry: True) is None
