"""What the table page costs Chromium while a partie is played: layers and their paints, raster.

A served Club (tests/support/ui.py, a SQLite file of its own), one member against three
computer players of Lora in Debian's Chromium, playing ``--turns`` of his turns. After the
first five turns Chrome's trace runs; the figures printed:

- every composited layer of the page with the times it was painted (``LayerTree``'s
  ``paintCount``) and the node it belongs to;
- the trace's raster tasks by layer (tiles and milliseconds), and the busiest trace events.

    .venv/bin/python bench/table_paint.py --turns 40
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.browser import propose_against_bots, register, table, wait_ready  # noqa: E402
from tests.support.ui import CHROMIUM, CHROMIUM_ARGS, POLL_MS, start_server, stop_server  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "cc", "viz", "blink"]


def play(page, turns: int, browser, trace_after: int = 5) -> bytes:
    def after(version: int) -> None:
        page.wait_for_function(f"() => Klub.table.version > {version} || Klub.table.finished",
                               timeout=15000, polling=POLL_MS)

    done, tracing = 0, False
    while done < turns:
        if done == trace_after and not tracing:
            browser.start_tracing(page=page, categories=CATEGORIES)
            tracing = True
        wait_ready(page)
        t = table(page)
        if t["finished"]:
            break
        if not t["ready"]:
            continue
        if t["legal"] in (["dalje"], ["kitty dalje"]):
            after(t["version"])  # said by the page itself
            continue
        cards = page.locator("#hand button.card:not([disabled])")
        button = cards.nth(done % cards.count()) if cards.count() else page.locator("#controls button.word:not([disabled])").first
        button.click()
        done += 1
        after(t["version"])
    return browser.stop_tracing()


def layers(cdp, tree: list[dict]) -> list[str]:
    lines = []
    for layer in tree:
        node = ""
        if layer.get("backendNodeId"):
            described = cdp.send("DOM.describeNode", {"backendNodeId": layer["backendNodeId"]})["node"]
            attrs = described.get("attributes", [])
            named = [f"{attrs[i]}={attrs[i + 1]}" for i in range(0, len(attrs), 2) if attrs[i] in ("id", "class")]
            node = f"{described.get('nodeName', '')} {' '.join(named)}"[:70]
        if layer.get("drawsContent"):
            lines.append(f"  layer {layer['layerId']:>3} {layer['width']:>5}x{layer['height']:<5} painted {layer.get('paintCount', 0):>4} times  {node}")
    return lines


def summary(trace: bytes) -> list[str]:
    events = json.loads(trace)
    events = events["traceEvents"] if isinstance(events, dict) else events
    tiles, raster = collections.Counter(), collections.Counter()
    busy, count = collections.Counter(), collections.Counter()
    frames = 0
    for e in events:
        name = e.get("name")
        if name == "RasterTask":
            layer = e.get("args", {}).get("tileData", {}).get("layerId")
            tiles[layer] += 1
            raster[layer] += e.get("dur", 0) / 1000
        if name == "ProxyMain::BeginMainFrame":
            frames += 1
        if "dur" in e and name in ("RunTask", "RasterTask", "Paint", "UpdateLayoutTree", "Layout", "FunctionCall", "Display::DrawAndSwap"):
            busy[name] += e["dur"] / 1000
            count[name] += 1
    out = [f"main frames {frames}; raster {sum(raster.values()):.0f} ms in {sum(tiles.values())} tiles"]
    out += [f"  layer {k:>3}: {tiles[k]:>5} tiles, {raster[k]:7.0f} ms" for k, _ in tiles.most_common(6)]
    out += [f"  {k:<22} {v:8.0f} ms ({count[k]} events)" for k, v in busy.most_common()]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
                page = ctx.new_page()
                register(page, server, "paint")
                propose_against_bots(page, server, "lora")
                cdp = ctx.new_cdp_session(page)
                cdp.send("DOM.enable")
                cdp.send("DOM.getDocument", {"depth": -1})
                tree: dict[str, list] = {}
                cdp.on("LayerTree.layerTreeDidChange", lambda ev: ev.get("layers") and tree.update(layers=ev["layers"]))
                cdp.send("LayerTree.enable")
                trace = play(page, args.turns, browser)
                page.wait_for_timeout(300)  # the last layer tree is sent after the last frame
                print(f"{args.turns} turns of Lora, 1280x900")
                print("\n".join(layers(cdp, tree.get("layers", []))))
                print("\n".join(summary(trace)))
                browser.close()
        finally:
            stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
