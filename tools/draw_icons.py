"""Draws the Club's app icons (the web app manifest's, the iPhone's home screen icon) as PNGs.

    python tools/draw_icons.py          # writes static/icons/*.png

No image library: the shapes are signed distance functions (a pixel's coverage is how far
its centre lies inside the shape's edge, so the edges are smooth), and the PNG is written
with zlib. The picture is the favicon's (static/favicon.svg): a cream card on the green
felt, here with the four suits ♠♥♣♦ on it, in the colours of static/css/klub.css.

- ``klub-<size>.png`` (purpose ``any``): a rounded felt square, the corners transparent.
- ``klub-maskable-<size>.png`` (purpose ``maskable``) and ``apple-touch-icon.png``: the
  felt to every edge, the card inside the safe zone (the middle circle of 80 % of the
  width), since the launcher cuts the icon to its own shape.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"

Color = tuple[int, int, int]
FELT: Color = (0x1D, 0x6B, 0x3A)
FELT_DARK: Color = (0x12, 0x4A, 0x27)
CARD: Color = (0xFF, 0xFD, 0xF6)
EDGE: Color = (0x33, 0x33, 0x33)
RED: Color = (0xC0, 0x15, 0x2A)
BLACK: Color = (0x15, 0x17, 0x1C)

# A shape: (x, y) in units of the icon's width (0..1, y down) -> signed distance (< 0 inside).
Shape = Callable[[float, float], float]


def circle(cx: float, cy: float, r: float) -> Shape:
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def rounded_rect(cx: float, cy: float, hw: float, hh: float, r: float) -> Shape:
    def sd(x: float, y: float) -> float:
        qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r

    return sd


def polygon(points: list[tuple[float, float]]) -> Shape:
    """The exact signed distance of a simple polygon (after Inigo Quilez's sdPolygon)."""

    def sd(x: float, y: float) -> float:
        d = (x - points[0][0]) ** 2 + (y - points[0][1]) ** 2
        inside = False
        j = len(points) - 1
        for i in range(len(points)):
            (ax, ay), (bx, by) = points[i], points[j]
            ex, ey = bx - ax, by - ay
            wx, wy = x - ax, y - ay
            t = max(0.0, min(1.0, (wx * ex + wy * ey) / (ex * ex + ey * ey)))
            d = min(d, (wx - ex * t) ** 2 + (wy - ey * t) ** 2)
            if (ay > y) != (by > y) and x < ax + (y - ay) * ex / ey:
                inside = not inside
            j = i
        return -math.sqrt(d) if inside else math.sqrt(d)

    return sd


def union(*shapes: Shape) -> Shape:
    return lambda x, y: min(s(x, y) for s in shapes)


def heart(cx: float, cy: float, size: float, up: bool = False) -> Shape:
    """A heart (a square on its corner with a half circle on each upper side); ``up``: its
    point up, the spade's leaf."""
    d = size * 0.42
    sign = -1.0 if up else 1.0
    top = cy + sign * d * 0.1035  # the middle of its height at cy

    def at(dx: float, dy: float) -> tuple[float, float]:
        return cx + dx, top + sign * dy

    body = polygon([at(0, -d), at(d, 0), at(0, d), at(-d, 0)])
    r = d / math.sqrt(2)
    return union(body, circle(*at(-d / 2, -d / 2), r), circle(*at(d / 2, -d / 2), r))


def stem(cx: float, top: float, bottom: float, half: float) -> Shape:
    return polygon([(cx - half * 0.18, top), (cx + half * 0.18, top), (cx + half, bottom), (cx - half, bottom)])


def spade(cx: float, cy: float, size: float) -> Shape:
    leaf = heart(cx, cy - size * 0.06, size * 0.92, up=True)
    return union(leaf, stem(cx, cy + size * 0.05, cy + size * 0.5, size * 0.17))


def club(cx: float, cy: float, size: float) -> Shape:
    r = size * 0.21
    return union(
        circle(cx, cy - size * 0.24, r),
        circle(cx - size * 0.24, cy + size * 0.08, r),
        circle(cx + size * 0.24, cy + size * 0.08, r),
        circle(cx, cy + size * 0.02, r * 0.7),
        stem(cx, cy, cy + size * 0.5, size * 0.17),
    )


def diamond(cx: float, cy: float, size: float) -> Shape:
    w, h = size * 0.36, size * 0.5
    return polygon([(cx, cy - h), (cx + w, cy), (cx, cy + h), (cx - w, cy)])


def bounds(cx: float, cy: float, size: float) -> tuple[float, float, float, float]:
    return cx - size * 0.6, cy - size * 0.6, cx + size * 0.6, cy + size * 0.6


def picture(maskable: bool) -> list[tuple[Shape, Color, tuple[float, float, float, float] | None]]:
    """The layers, bottom first: (shape, colour, the box it lies in or None for everywhere)."""
    scale = 0.8 if maskable else 1.0  # the card and its suits inside the safe zone
    hw, hh = 0.29 * scale, 0.38 * scale
    layers: list[tuple[Shape, Color, tuple[float, float, float, float] | None]] = []
    if maskable:
        layers.append((lambda x, y: -1.0, FELT, None))
    else:
        layers.append((rounded_rect(0.5, 0.5, 0.5, 0.5, 0.18), FELT, None))
    shadow = (0.5 - hw - 0.04, 0.5 - hh - 0.04, 0.5 + hw + 0.06, 0.5 + hh + 0.06)
    layers.append((rounded_rect(0.5 + 0.012 * scale, 0.5 + 0.018 * scale, hw, hh, 0.045 * scale), FELT_DARK, shadow))
    layers.append((rounded_rect(0.5, 0.5, hw + 0.006 * scale, hh + 0.006 * scale, 0.05 * scale), EDGE, shadow))
    layers.append((rounded_rect(0.5, 0.5, hw, hh, 0.045 * scale), CARD, shadow))
    size = 0.235 * scale
    dx, dy = 0.13 * scale, 0.17 * scale
    for (sx, sy), make, colour in (
        ((-dx, -dy), spade, BLACK), ((dx, -dy), heart, RED),
        ((-dx, dy), club, BLACK), ((dx, dy), diamond, RED),
    ):
        cx, cy = 0.5 + sx, 0.5 + sy
        layers.append((make(cx, cy, size), colour, bounds(cx, cy, size)))
    return layers


def render(px: int, maskable: bool) -> bytes:
    """The icon's pixels, RGBA rows (each after PNG's filter byte 0)."""
    rgba = [[0.0, 0.0, 0.0, 0.0] for _ in range(px * px)]
    for shape, (r, g, b), box in picture(maskable):
        x0, y0, x1, y1 = box or (0.0, 0.0, 1.0, 1.0)
        for j in range(max(0, int(y0 * px)), min(px, int(math.ceil(y1 * px)))):
            y = (j + 0.5) / px
            for i in range(max(0, int(x0 * px)), min(px, int(math.ceil(x1 * px)))):
                x = (i + 0.5) / px
                cover = min(1.0, max(0.0, 0.5 - shape(x, y) * px))
                if cover <= 0.0:
                    continue
                p = rgba[j * px + i]
                a = p[3] + cover * (1.0 - p[3])
                for k, c in enumerate((r, g, b)):  # "over", premultiplied in place
                    p[k] = (c * cover + p[k] * p[3] * (1.0 - cover)) / a
                p[3] = a
    rows = bytearray()
    for j in range(px):
        rows.append(0)
        for p in rgba[j * px:(j + 1) * px]:
            rows.extend((round(p[0]), round(p[1]), round(p[2]), round(p[3] * 255)))
    return bytes(rows)


def png(px: int, rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", px, px, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


ICONS = {  # file -> (pixels, maskable)
    "klub-192.png": (192, False),
    "klub-512.png": (512, False),
    "klub-maskable-192.png": (192, True),
    "klub-maskable-512.png": (512, True),
    "apple-touch-icon.png": (180, True),
}


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (px, maskable) in ICONS.items():
        (out / name).write_bytes(png(px, render(px, maskable)))
        print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
