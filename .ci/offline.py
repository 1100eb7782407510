"""Check the offline book (_html/, written by .ci/htmlbook.py) in headless Chromium with the network off: every page
is loaded from disk with all traffic sent to a local proxy that answers nothing and logs each request, and the page's
rendered DOM is read back. The browser's own background requests (sign-in, component updates) are learnt from a blank
local page loaded first and set aside by host. Fails when a page requests anything (a CDN script, a font, an image
URL) or when its rendered text (code, preformatted output and MathML left aside) still holds a `$`: a formula not
converted (.ci/linkcheck.py makes the same check on the HTML text, without a browser). Skips cleanly (exit 0) when
Chromium is not installed (`apt-get install chromium`).
`--screenshot DIR` also saves a 1280-px-wide PNG of each page (to look at). Usage: python .ci/offline.py [--html
_html] [--workers 2] [--screenshot DIR] [page.html ...]."""
import argparse
import re
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync",
         "--disable-component-update", "--disable-default-apps", "--disable-extensions", "--no-first-run",
         "--disable-domain-reliability", "--disable-client-side-phishing-detection", "--no-default-browser-check",
         "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,"
         "NetworkTimeServiceQuerying,SignInProfileCreation,PushMessaging,CertificateTransparencyComponentUpdater",
         "--no-pings", "--disable-breakpad", "--metrics-recording-only", "--disable-field-trial-config",
         "--hide-scrollbars", "--mute-audio", "--virtual-time-budget=4000"]
DOLLAR = re.compile(r".{0,40}\$.{0,40}", re.S)        # any `$` a reader sees is a formula the book did not convert


class Requests(socketserver.ThreadingTCPServer):
    "A proxy that forwards nothing: it logs the first line of every request it receives and closes the connection."
    daemon_threads = allow_reuse_address = True

    def __init__(self):
        self.log, lock = [], threading.Lock()

        class Handler(socketserver.StreamRequestHandler):
            def handle(h):
                line = h.rfile.readline(2048).decode("latin-1").strip()
                with lock: self.log.append(line)
        super().__init__(("127.0.0.1", 0), Handler)


class Text(HTMLParser):
    "The text a reader sees, without scripts, styles, code, preformatted output and MathML; and the <math> count."
    SKIP = {"script", "style", "pre", "code", "math", "textarea"}

    def __init__(self):
        super().__init__()
        self.depth, self.parts, self.math = 0, [], 0

    def handle_starttag(self, tag, attrs):
        if tag == "math": self.math += 1
        if tag in self.SKIP: self.depth += 1

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth: self.depth -= 1

    def handle_data(self, data):
        if not self.depth: self.parts.append(data)


def check(browser, page: Path, proxy: int, shots: Path | None) -> tuple[str, list[str], int]:
    "(page, problems, formulas) for one page: its DOM dumped by the browser, then searched for `$` formulas."
    with tempfile.TemporaryDirectory() as profile:
        base = [browser, *FLAGS, f"--user-data-dir={profile}", f"--proxy-server=http://127.0.0.1:{proxy}",
                "--proxy-bypass-list=<-loopback>"]
        res = subprocess.run(base + ["--dump-dom", page.resolve().as_uri()], capture_output=True, text=True,
                             timeout=180)
        if shots is not None:
            shot = shots / ("_".join(page.resolve().parts[-2:]) if page.parent.name == "replications" else page.name)
            shot = shot.with_suffix(".png")
            subprocess.run(base + ["--window-size=1280,2400", f"--screenshot={shot}", page.resolve().as_uri()],
                           capture_output=True, timeout=180)
    if res.returncode != 0 or "<body" not in res.stdout:
        return page.name, [f"the browser could not render it (exit {res.returncode}): {res.stderr[-300:]}"], 0
    text = Text()
    text.feed(res.stdout)
    left = DOLLAR.findall(" ".join(text.parts))
    problems = [f"{len(left)} `$` formula(s) left in the rendered text, e.g. {left[0][:80]!r}"] if left else []
    return page.name, problems, text.math


def host(request_line: str) -> str:
    "The host a proxy request line names: `CONNECT host:443 ...` or `GET http://host/path ...`."
    target = (request_line.split() + ["", ""])[1]
    return re.sub(r"^[a-z]+://", "", target).split("/")[0].rsplit(":", 1)[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--html", type=Path, default=Path("_html"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--screenshot", type=Path, default=None, help="save a PNG of each page to this folder")
    ap.add_argument("pages", nargs="*", type=Path, help="only these pages (default: every page under --html)")
    args = ap.parse_args()
    browser = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if browser is None:
        print("SKIP: no Chromium (apt-get install chromium): the offline book was not checked in a browser")
        return
    pages = args.pages or sorted(args.html.rglob("*.html"))
    if not pages: sys.exit(f"no page under {args.html}: run .ci/htmlbook.py first")
    if args.screenshot: args.screenshot.mkdir(parents=True, exist_ok=True)
    proxy = Requests()
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:                 # the browser's own requests, from a blank page
            blank = Path(tmp) / "blank.html"
            blank.write_text("<!DOCTYPE html><html><head><title>blank</title></head><body><p>blank</p></body></html>")
            check(browser, blank, proxy.server_address[1], None)
        own = {host(r) for r in proxy.log}
        with ThreadPoolExecutor(args.workers) as ex:
            results = list(ex.map(lambda p: check(browser, p, proxy.server_address[1], args.screenshot), pages))
    finally:
        proxy.shutdown()
    failures = [f"{name}: {p}" for name, problems, _ in results for p in problems]
    pages_req = [r for r in proxy.log if host(r) not in own]
    if pages_req: failures.append(f"{len(pages_req)} request(s) from the pages tried to leave the machine: "
                                  + "; ".join(sorted(set(pages_req))[:10]))
    print(f"{len(pages)} pages rendered by {Path(browser).name} with the network off: "
          f"{sum(m for *_, m in results)} MathML formulas, {len(pages_req)} requests from the pages (the browser's "
          f"own background requests, set aside: {len(proxy.log) - len(pages_req)} to {', '.join(sorted(own)) or '-'})",
          flush=True)
    if failures:
        print("\n".join(["FAIL:"] + failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__": main()
