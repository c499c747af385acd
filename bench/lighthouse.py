"""Lighthouse's scores of the Club's pages for a logged-in member (issue 39, docs/ui.md).

A served Club (``python -m app serve`` on a free port, a SQLite file in a temporary
directory), a member registered through the API with a Lora partie against three computer
players; then the npm ``lighthouse`` CLI (pinned in bench/lighthouse/package.json,
installed there with ``npm ci`` on the first run) drives Debian's Chromium
(``CHROME_PATH=/usr/bin/chromium``) over seven pages, each with the mobile preset
(Lighthouse's default: a Moto G Power, 4x CPU slowdown, slow 4G) and the desktop one, the
session cookie sent with ``--extra-headers``. Printed: a Markdown table of the four
categories per page and preset, the table page's cumulative layout shift, and every audit
of accessibility, best practices and SEO that did not pass.

    .venv/bin/python bench/lighthouse.py                 # 7 pages x 2 presets
    .venv/bin/python bench/lighthouse.py --pages table --presets mobile --keep /tmp/lh

Performance depends on the machine: on a busy one it is lower than on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
NODE_DIR = ROOT / "bench" / "lighthouse"
LIGHTHOUSE = NODE_DIR / "node_modules" / ".bin" / "lighthouse"
CHROME = "/usr/bin/chromium"
PAGES = {
    "lobby": "/lobby",
    "table": "/table/{table}",
    "archive": "/archive",
    "standings": "/standings",
    "tournaments": "/tournaments",
    "rules": "/rules",
    "account": "/account",
}
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
PASSWORD = "lighthouse-pass-1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_lighthouse() -> None:
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(NODE_DIR)], check=True)


def start_club(tmp: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = dict(os.environ, KLUB_DATABASE_URL=f"sqlite:///{tmp / 'klub.db'}", KLUB_SITE_ORIGIN=url,
               KLUB_ARGON2_TIME_COST="1", KLUB_ARGON2_MEMORY_KIB="1024")
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the Club did not start: {(tmp / 'server.log').read_text()}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the Club did not answer")


def member_with_table(url: str) -> tuple[str, int]:
    """A registered member's session cookie, and his Lora partie against computer players."""
    client = httpx.Client(base_url=url, headers={"Origin": url}, timeout=30)
    r = client.post("/api/auth/register", json={"name": "svetla", "password": PASSWORD})
    r.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    r = client.post("/api/parties", json={"game": "lora", "seats": [{"kind": "bot", "bot": "pocetnik"}] * 3})
    r.raise_for_status()
    return cookie, r.json()["id"]


def lighthouse(url: str, preset: str, cookie: str, out: Path) -> dict:
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
           "--only-categories=" + ",".join(CATEGORIES),
           "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
           "--extra-headers=" + json.dumps({"Cookie": cookie})]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    for attempt in range(3):  # a busy machine: Chromium's trace now and then misses the navigation
        if subprocess.run(cmd, env=dict(os.environ, CHROME_PATH=CHROME)).returncode == 0:
            break
    else:
        raise SystemExit(f"lighthouse failed three times on {url}")
    report = json.loads(out.read_text())
    if report.get("runtimeError"):
        raise SystemExit(f"lighthouse on {url}: {report['runtimeError']}")
    return report


def summary(report: dict) -> dict:
    cats = report["categories"]
    failed = []
    for name in ("accessibility", "best-practices", "seo"):
        for ref in cats[name]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                failed.append(ref["id"])
    audits = report["audits"]
    return {
        **{c: round(100 * cats[c]["score"]) for c in CATEGORIES},
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "failed": failed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(PAGES), help="comma-separated: " + ", ".join(PAGES))
    parser.add_argument("--presets", default="mobile,desktop")
    parser.add_argument("--keep", type=Path, help="a directory for the JSON reports")
    args = parser.parse_args()
    ensure_lighthouse()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        reports = args.keep or tmp
        reports.mkdir(parents=True, exist_ok=True)
        proc, url = start_club(tmp)
        try:
            cookie, table = member_with_table(url)
            rows = []
            for preset in args.presets.split(","):
                for page in args.pages.split(","):
                    path = PAGES[page].format(table=table)
                    report = lighthouse(url + path, preset, cookie, reports / f"{page}-{preset}.json")
                    s = summary(report)
                    rows.append(f"| {page} | {preset} | {s['performance']} | {s['accessibility']} | "
                                f"{s['best-practices']} | {s['seo']} | {s['cls']:.3f} | {s['lcp']:.1f} s | "
                                f"{s['tbt']:.0f} ms | {', '.join(s['failed']) or '-'} |")
                    print(rows[-1], file=sys.stderr, flush=True)
        finally:
            proc.terminate()
            proc.wait(10)
    print("| page | preset | performance | accessibility | best practices | SEO | CLS | LCP | TBT | audits not passed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
