"""A page's first visit as a phone on venue wifi sees it: the bytes that crossed the network and the time until
the page is interactive. Shared by tests/browser/test_page_weight.py (the budget) and bench/page_weight.py (the
figures, throttled).

Bytes are counted by Chromium itself (DevTools' Network.loadingFinished `encodedDataLength`: headers and bodies
as received, so gzip-compressed when the server compressed them) for every request of a fresh browser context,
whose cache is empty: a first visit. "Interactive" is the navigation's DOMContentLoaded end: the page's scripts
are `defer`, so by then each has run and attached its handlers (the scripts that after-load.js fetches after the
load event, the offline queue and the hand form's live score, are not needed to use the page and come later,
counted in the bytes); the load event (images, fonts, favicon) is given too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PHONE = {"width": 390, "height": 844}
# Venue wifi as issue 21 measured it: 400 ms round trip, 400 kbit/s each way; a mid-range phone's CPU is
# about 4 times slower than this machine's.
LATENCY_MS = 400
KBITS_PER_SECOND = 400
CPU_SLOWDOWN = 4


@dataclass
class Visit:
    path: str
    status: int
    transferred: int = 0  # bytes received over the network, every request of the visit
    resources: list[tuple[str, int]] = field(default_factory=list)  # (URL, bytes received), largest first
    interactive_ms: float = 0.0
    load_ms: float = 0.0

    @property
    def kb(self) -> float:
        return self.transferred / 1000

    def breakdown(self) -> str:
        """'page 4.4, app.css 6.0, ...' in kB: the document is called page (a player's token stays out of it)."""
        def name(url: str) -> str:
            if url.split("://", 1)[-1].partition("/")[2] == self.path.lstrip("/"):
                return "page"
            last = url.rsplit("/", 1)[-1].split("?")[0]
            return "(player link)" if "/p/" in url else last or "/"
        return ", ".join(f"{name(url)} {size / 1000:.1f}" for url, size in self.resources)


def first_visit(browser, base_url: str, path: str, storage_state=None, throttled: bool = False) -> Visit:
    """Open `path` in a new context (an empty cache; logged in with `storage_state`) at a phone's width and
    measure it; `throttled` slows the CPU and the network to the venue's (CDP emulation)."""
    context = browser.new_context(base_url=base_url, storage_state=storage_state, viewport=PHONE)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        urls: dict[str, str] = {}
        received: dict[str, int] = {}
        cdp.on("Network.requestWillBeSent", lambda e: urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on("Network.loadingFinished",
               lambda e: received.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        cdp.send("Network.enable")
        if throttled:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            bytes_per_second = KBITS_PER_SECOND * 1000 / 8
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": LATENCY_MS,
                "downloadThroughput": bytes_per_second, "uploadThroughput": bytes_per_second})
        response = page.goto(path, wait_until="load", timeout=60_000)
        # Late requests (the favicon, a script's first poll) belong to the first visit too.
        page.wait_for_load_state("networkidle", timeout=60_000)
        timing = page.evaluate("""() => { const n = performance.getEntriesByType('navigation')[0];
                                          return [n.domContentLoadedEventEnd, n.loadEventEnd]; }""")
        visit = Visit(path=path, status=response.status if response else 0)
        visit.resources = sorted(((urls.get(rid, rid), size) for rid, size in received.items()),
                                 key=lambda item: -item[1])
        visit.transferred = sum(size for _, size in visit.resources)
        visit.interactive_ms, visit.load_ms = timing
        cdp.detach()
        return visit
    finally:
        context.close()


def logged_in_state(browser, base_url: str, email: str, password: str):
    """The cookies of a logged-in staff member, for contexts that must start with an empty cache."""
    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        page.goto("/login")
        page.get_by_label("Email").fill(email)
        page.get_by_label("Password", exact=True).fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/manage")
        return context.storage_state()
    finally:
        context.close()
