"""Icons and the version (issue 35 items 3 and 4): /favicon.ico answers, the manifest names PNG icons of 192
and 512 px (and a maskable one) that exist at those sizes, every page links the apple-touch-icon; the version is
in GET /api/v1/version, in `mcr-tournament --version` and in every page's footer."""

from __future__ import annotations

import io
import json
import re

import pytest
from PIL import Image

from tournament.config import PROJECT_ROOT, from_checkout, site_folder
from tournament.version import __version__

STATIC = PROJECT_ROOT / "static"


def test_favicon_ico_is_served_from_the_root(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.mimetype == "image/vnd.microsoft.icon"
    assert "max-age=86400" in answer.headers["Cache-Control"]
    icon = Image.open(io.BytesIO(answer.data))
    assert icon.format == "ICO" and {(16, 16), (32, 32), (48, 48)} <= set(icon.info["sizes"])


def test_the_manifest_names_png_icons_that_exist_at_their_sizes(client):
    manifest = json.loads(client.get("/static/manifest.json").data)
    pngs = {icon["sizes"]: icon for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= pngs.keys()
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        path = icon["src"].removeprefix("/static/")
        assert client.get(icon["src"]).status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            image = Image.open(STATIC / path)
            assert f"{image.width}x{image.height}" == icon["sizes"], path
            # Drawn from the SVG: the red of the dragon's stroke is there, not a blank square.
            assert (179, 38, 30) in {color for _, color in image.convert("RGB").getcolors(1 << 20)}, path


@pytest.mark.parametrize("path", ["/login", "/"])
def test_every_page_links_the_icons_and_shows_the_version(client, path):
    page = client.get(path).get_data(as_text=True)
    touch = re.search(r'<link rel="apple-touch-icon" href="(/static/img/apple-touch-icon\.png\?v=\w+)">', page)
    assert touch and client.get(touch.group(1)).status_code == 200
    assert Image.open(STATIC / "img" / "apple-touch-icon.png").size == (180, 180)
    assert Image.open(STATIC / "img" / "apple-touch-icon.png").mode == "RGB"  # opaque: iOS blackens transparency
    footer = page.split('<footer class="site-footer', 1)[1]
    assert f'<span class="app-version" translate="no">{__version__}</span>' in footer


def test_the_api_answers_its_version_without_a_token(client):
    answer = client.get("/api/v1/version")
    assert answer.status_code == 200 and answer.json == {"version": __version__, "api": "v1"}
    # A wrong token changes nothing: the route reads none.
    assert client.get("/api/v1/version", headers={"Authorization": "Bearer nope"}).json["version"] == __version__
    operation = client.get("/api/v1/openapi.json").json["paths"]["/api/v1/version"]["get"]
    assert operation["security"] == [] and operation["operationId"] == "getVersion"


def test_the_version_is_written_once():
    """pyproject.toml takes it from tournament/version.py (setuptools' dynamic version), so the wheel, the
    console script, the API and the footer say the same."""
    import tournament

    pyproject = (PROJECT_ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "tournament.version.__version__"}' in pyproject
    assert tournament.__version__ == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_the_console_script_is_the_flask_command_line(runner):
    from tournament.__main__ import command_line

    done = runner.invoke(command_line(), ["--version"])
    assert done.exit_code == 0 and done.output.strip() == f"mcr-tournament {__version__}"
    listing = runner.invoke(command_line(), ["--help"]).output
    for command in ("db", "users", "demo", "backup", "run"):
        assert re.search(rf"^\s+{command}\b", listing, re.MULTILINE), command


def test_a_checkout_reads_its_own_folders():
    assert from_checkout()
    for name in ("templates", "static", "migrations"):
        assert site_folder(name) == PROJECT_ROOT / name
