"""The app's icons in PNG and ICO, drawn from static/img/favicon.svg (the one drawing) by Debian's chromium:
`.venv/bin/python tools/make_icons.py` after changing the SVG, then commit the files it writes.

    static/img/icon-192.png, icon-512.png   the web app manifest's icons (transparent around the tile)
    static/img/icon-maskable-512.png        the manifest's maskable icon: the tile inside the safe zone (the
                                            middle 80 %) on the theme's ivory, which a launcher may crop to a
                                            circle or a squircle
    static/img/apple-touch-icon.png         180 px, opaque (iOS paints transparency black)
    static/img/favicon.ico                  16, 32 and 48 px, for /favicon.ico (browsers and tools that ask
                                            for it whatever the page says)
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

IMG = Path(__file__).resolve().parents[1] / "static" / "img"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
IVORY = "#f6f4ef"  # the manifest's background_color


def render(page, size: int, background: str | None, scale: float = 1.0) -> Image.Image:
    """The SVG drawn at size x size px, `scale` of the square (centred), on `background` or transparent."""
    svg = (IMG / "favicon.svg").read_text().replace("<svg ", '<svg width="100%" height="100%" ', 1)
    inner = round(size * scale)
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        f'<html><body style="margin:0;background:{background or "transparent"}">'
        f'<div style="width:{size}px;height:{size}px;display:flex;align-items:center;justify-content:center">'
        f'<div style="width:{inner}px;height:{inner}px">{svg}'
        "</div></div></body></html>")
    shot = page.screenshot(omit_background=background is None, clip={"x": 0, "y": 0, "width": size, "height": size})
    return Image.open(io.BytesIO(shot)).convert("RGBA")


def main() -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--force-device-scale-factor=1"])
        page = browser.new_page(device_scale_factor=1)
        render(page, 192, None).save(IMG / "icon-192.png", optimize=True)
        render(page, 512, None).save(IMG / "icon-512.png", optimize=True)
        render(page, 512, IVORY, scale=0.64).save(IMG / "icon-maskable-512.png", optimize=True)
        render(page, 180, IVORY, scale=0.86).convert("RGB").save(IMG / "apple-touch-icon.png", optimize=True)
        render(page, 256, None).save(IMG / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
        browser.close()
    for name in ("icon-192.png", "icon-512.png", "icon-maskable-512.png", "apple-touch-icon.png", "favicon.ico"):
        print(f"{IMG / name}: {(IMG / name).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
