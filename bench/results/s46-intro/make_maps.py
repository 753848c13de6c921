"""Writes the candidate layouts of PLAN.md into maps/ from the shipped
introductory.toml (each a text edit of the shipped file; run from the repo root:
python bench/results/s46-intro/make_maps.py)."""
import pathlib
import re

SHIPPED = pathlib.Path("ardsearch/games/microarmour/scenarios/introductory.toml")
OUT = pathlib.Path("bench/results/s46-intro/maps")


def rows(text):
    """The map's rows, top row (y = 19) first, and the text around them."""
    m = re.search(r"map = \[\n(.*?)\n\]", text, re.S)
    return [line.strip().strip(",").strip('"') for line in m.group(1).splitlines()], m


def with_rows(text, new_rows):
    _, m = rows(text)
    body = "\n".join(f'  "{r}",' for r in new_rows)
    return text[:m.start(1)] + body + text[m.end(1):]


def put(grid, x0, x1, y0, y1, ch):
    """Sets squares x0..x1, y0..y1 (inclusive, y from the south) to ch."""
    for y in range(y0, y1 + 1):
        r = list(grid[19 - y])
        for x in range(x0, x1 + 1):
            r[x] = ch
        grid[19 - y] = "".join(r)


def move(text, stand, x, y):
    pat = re.compile(r'(id = "%s"\n(?:[^\[]*?\n)*?at = )\[\d+, \d+\]' % stand)
    new, n = pat.subn(lambda m: m.group(1) + f"[{x}, {y}]", text, count=1)
    assert n == 1, stand
    return new


def cover_e(text):
    """Two 3" x 2" woods east of the village, either side of the road (x 19-21,
    y 11-12 and y 6-7): a covered staging ground on the Soviet approach."""
    g, _ = rows(text)
    put(g, 19, 21, 11, 12, "w")
    put(g, 19, 21, 6, 7, "w")
    return with_rows(text, g)


def features_e(text):
    """The hill north of the village (x 13-17, y 13-15) and the woods south of it
    (x 14-16, y 4-5) moved 5" east, into the Soviet half."""
    g, _ = rows(text)
    old = [r for r in g]
    put(g, 13, 17, 13, 15, ".")
    put(g, 14, 16, 4, 5, ".")
    for y in range(13, 16):
        for x in range(13, 18):
            if old[19 - y][x] == "h":
                put(g, x + 5, x + 5, y, y, "h")
    put(g, 19, 21, 4, 5, "w")
    return with_rows(text, g)


def entry(text):
    """The German half-tracks (with their Panzergrenadiers) enter at the table's
    corners, y 2 and y 18, not beside the road; the Soviet rifles enter on and
    beside the road (y 9-11), the stands there taking the rifles' old squares."""
    for s, y in (("htka", 18), ("pgra", 18), ("htkb", 2), ("pgrb", 2)):
        text = move(text, s, 0, y)
    for s, y in (("rfla", 10), ("t34c", 8), ("rflb", 11), ("sghq", 12), ("rflc", 9), ("shq", 13)):
        text = move(text, s, 29, y)
    return text


def road_e(text, keep_from=13):
    """The road west of the village taken up from the west edge to x =
    keep_from - 1 (clear ground there): the road leads from the Soviet edge to
    the village (keep_from = 13) or, with keep_from = 7, starts 7" in from the
    German edge."""
    g, _ = rows(text)
    assert all(g[19 - 10][x] == "=" for x in range(0, 13))
    put(g, 0, keep_from - 1, 10, 10, ".")
    return with_rows(text, g)


def main():
    base = SHIPPED.read_text()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "intro_copy.toml").write_text(base)
    (OUT / "intro_cover_e.toml").write_text(cover_e(base))
    (OUT / "intro_features_e.toml").write_text(features_e(base))
    (OUT / "intro_entry.toml").write_text(entry(base))
    (OUT / "intro_cover_e_entry.toml").write_text(entry(cover_e(base)))
    # PLAN.md, amendment 1 (the loader takes at most 16 scenario files: a folder of its own)
    out2 = OUT.parent / "maps2"
    out2.mkdir(exist_ok=True)
    (out2 / "intro_road_e.toml").write_text(road_e(base))
    (out2 / "intro_road_e7.toml").write_text(road_e(base, keep_from=7))
    (out2 / "intro_entry_features_e.toml").write_text(entry(features_e(base)))
    # PLAN.md, amendment 2: the road from x = 10 (the German tanks reach the village's edge on turn 1)
    out3 = OUT.parent / "maps3"
    out3.mkdir(exist_ok=True)
    (out3 / "intro_road_e10.toml").write_text(road_e(base, keep_from=10))
    (out3 / "intro_road_e.toml").write_text(road_e(base))


def part_b(name):
    """maps_b/: the chosen candidate (a copy of maps*/NAME.toml) and `barrage`
    and `combined` as shipped but with `base` naming it (PLAN.md, part B)."""
    src = next(p for d in ("maps", "maps2") for p in [OUT.parent / d / f"{name}.toml"] if p.exists())
    out = OUT.parent / "maps_b"
    out.mkdir(exist_ok=True)
    (out / f"{name}.toml").write_text(src.read_text())
    for variant in ("barrage", "combined"):
        text = (SHIPPED.parent / f"{variant}.toml").read_text()
        new, n = re.subn(r'^base = "introductory"', f'base = "{name}"', text, count=1, flags=re.M)
        assert n == 1, variant
        (out / f"{variant}_{name[len('intro_'):]}.toml").write_text(new)


if __name__ == "__main__":
    import sys
    if len(sys.argv) > 1:
        part_b(sys.argv[1])        # python .../make_maps.py intro_NAME: part B's files
    else:
        main()
