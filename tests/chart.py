#!/usr/bin/env python3
"""tests/chart.py SVG PNG [ZOOM]: what a chart shows, for tests/plot.sh.

Prints one line per panel of the SVG (flashbench --plot), its title, x label
and y label and marker labels separated by " | ", then checks what a reader
of the rendered picture needs, and exits 1 naming the first problem:
- the PNG (rendered by rsvg-convert, at ZOOM) is a PNG of the SVG's size, and it is
  not blank: in every panel the series' colours cover some pixels;
- tick labels on an axis all differ;
- titles fit the width (about 9.5 pixels a character at 17px);
- marker labels sit above the plot area, never over the data, and end
  before the plot's right edge (the legend's column);
- no point is hidden under a point of another series (same centre, no
  larger; in panels of up to 4 series, as rings show no more), and points
  that all share one x sit in the middle of the axis.
Only the standard library: the PNG is decoded here (zlib, the five filters).
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
SERIES = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd")


def fail(msg):
    print("chart.py: " + msg, file=sys.stderr)
    sys.exit(1)


def png_pixels(path):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + ": not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                fail(path + ": not an 8-bit RGB(A) PNG")
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev, i, stride = zlib.decompress(idat), [], bytes(width * bpp), 0, width * bpp
    for _ in range(height):
        f, line = raw[i], raw[i + 1:i + 1 + stride]
        i += 1 + stride
        if f == 2:  # up: whole rows at once
            line = bytes((u + v) & 255 for u, v in zip(line, prev))
        elif f != 0:
            out = bytearray(line)
            for x in range(stride):
                a = out[x - bpp] if x >= bpp else 0
                b = prev[x]
                if f == 1:
                    out[x] = (out[x] + a) & 255
                elif f == 3:
                    out[x] = (out[x] + (a + b) // 2) & 255
                else:
                    c = prev[x - bpp] if x >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    out[x] = (out[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            line = bytes(out)
        prev = line
        rows.append(line if bpp == 4 else b"".join(line[3 * k:3 * k + 3] + b"\xff" for k in range(width)))
    return width, height, rows


def main():
    svg, png = sys.argv[1], sys.argv[2]
    zoom = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    root = ET.parse(svg).getroot()
    W, H = int(root.get("width")), int(root.get("height"))
    texts = [(t.get("class"), t) for t in root.iter(NS + "text")]
    plots = [r for r in root.iter(NS + "rect") if r.get("class") == "plot"]
    if not plots:
        fail(svg + ": no plot area")
    width, height, rows = png_pixels(png)
    if (width, height) != (round(W * zoom), round(H * zoom)):
        fail("%s is %dx%d, the SVG %dx%d at zoom %g" % (png, width, height, W, H, zoom))
    colours = [tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in SERIES]

    def text(t):
        return "".join(t.itertext())

    def text_y(t):  # y="..." or transform="translate(X Y) ..."
        if t.get("y"):
            return float(t.get("y"))
        return float(t.get("transform").split("(")[1].split(")")[0].split()[1])

    for i, frame in enumerate(plots):
        top, bottom = float(frame.get("y")), float(frame.get("y")) + float(frame.get("height"))
        left, right = float(frame.get("x")), float(frame.get("x")) + float(frame.get("width"))
        panel_top = top - 70
        mine = [(c, t) for c, t in texts if panel_top <= text_y(t) < panel_top + 540]
        get = lambda k: [text(t) for c, t in mine if c == k]
        title, xl, yl = get("title"), get("xlabel"), get("ylabel")
        if len(title) != 1 or len(xl) != 1 or len(yl) != 1:
            fail("panel %d: %d titles, %d x labels, %d y labels" % (i, len(title), len(xl), len(yl)))
        if len(title[0]) * 9.5 > W - 30:
            fail("panel %d: the title is too long for the width: %s" % (i, title[0]))
        for k in ("xtick", "ytick"):
            ticks = get(k)
            for a, b in zip(ticks, ticks[1:]):
                if a == b:
                    fail("panel %d: two %s labels read %s" % (i, k, a))
        for c, t in mine:
            if c == "marker" and float(t.get("y")) >= top:
                fail("panel %d: the marker label '%s' is over the plot" % (i, text(t)))
            if c == "marker" and float(t.get("x")) + 6.8 * len(text(t)) > right + 1:
                fail("panel %d: the marker label '%s' runs past the plot's right edge" % (i, text(t)))
        inside = lambda x, y: left <= x <= right and top <= y <= bottom
        dots = [(float(d.get("cx")), float(d.get("cy")), float(d.get("r")), d.get("fill"))
                for d in root.iter(NS + "circle") if inside(float(d.get("cx")), float(d.get("cy")))]
        at = {}
        for x, y, r, col in (dots if len(set(d[3] for d in dots)) <= 4 else []):  # rings show up to 4 series  # in drawing order: a later one covers an earlier one
            for r0, col0 in at.get((round(x), round(y)), []):
                if col0 != col and r >= r0:
                    fail("panel %d: a %s point at (%g, %g) is hidden under a %s one" % (i, col0, x, y, col))
            at.setdefault((round(x), round(y)), []).append((r, col))
        if dots and len(set(round(x) for x, _, _, _ in dots)) == 1 and not \
                left + (right - left) / 3 <= dots[0][0] <= right - (right - left) / 3:
            fail("panel %d: its points all sit at one x, on the edge of the axis (x=%g)" % (i, dots[0][0]))
        # the series drew something: pixels of a series colour inside the plot
        seen = 0
        for y in range(int(top * zoom) + 1, int(bottom * zoom)):
            row = rows[y][4 * (int(left * zoom) + 1):4 * int(right * zoom)]
            seen += sum(row.count(bytes(col) + b"\xff") for col in colours)
        if seen < 4:
            fail("panel %d (%s): no series drawn in the picture (%d pixels)" % (i, title[0], seen))
        print(" | ".join([title[0], xl[0], yl[0]] + get("marker") + ["reference: " + r for r in get("reference")]))


main()
