"""Writes session 34's Micro Armour balance variants, each one change to a
shipped scenario file, into bench/results/s34-mabal-variants/NAME/NAME.toml
(a folder of its own, for ARDSEARCH_MICROARMOUR_SCENARIOS). Run from the
repository root: python bench/results/s34-mabal/make_variants.py, on the
shipped files as they were before this pass applied its changes (commit
4c31671): each variant is one change to the file as it was then."""
import os
import re

SHIPPED = "ardsearch/games/microarmour/scenarios"
OUT = "bench/results/s34-mabal-variants"


def shipped(name):
    with open(os.path.join(SHIPPED, name + ".toml")) as f:
        return f.read()


def set_turns(text, turns):
    """The file's top-level `turns` line (the first one) set to `turns`; a
    based file without one gets it after its `base` line."""
    head, sep, rest = text.partition("\n[")
    if re.search(r"(?m)^turns = \d+", head):
        return re.sub(r"(?m)^turns = \d+", f"turns = {turns}", head, count=1) + sep + rest
    return re.sub(r'(?m)^(base = ".*")$', rf"\1\nturns = {turns}", text, count=1)


def shift_side(text, side, dx):
    """Every [[stand]] of `side` (not carried aboard) moved dx squares in x."""
    blocks = re.split(r"(?m)^(?=\[\[)", text)
    out = []
    for b in blocks:
        if b.startswith("[[stand]]") and f'side = "{side}"' in b:
            b = re.sub(r"at = \[(\d+), (\d+)\]",
                       lambda m: f"at = [{int(m.group(1)) + dx}, {m.group(2)}]", b)
        out.append(b)
    return "".join(out)


def replace_once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def write(name, text, title_note):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".toml"), "w") as f:
        f.write(f"# session 34 balance variant: {title_note}\n" + text)


def main():
    a = shipped("airstrike")
    write("airstrike_t16", set_turns(a, 16), "airstrike, 16 turns not 12")
    write("airstrike_sfwd1", shift_side(a, "soviet", -1),
          "airstrike, every Soviet stand one square west (nearer the village)")

    # amendment 1 (the second airstrike round)
    write("airstrike_sfwd2", shift_side(a, "soviet", -2),
          "airstrike, every Soviet stand two squares west (nearer the village)")
    write("airstrike_t10", set_turns(a, 10), "airstrike, 10 turns not 12")

    # amendment 2 (the third airstrike round)
    write("airstrike_ju87b9", replace_once(a, "strafe = 4\nbomb = 12", "strafe = 4\nbomb = 9"),
          "airstrike, the Ju 87's bomb 9 not 12 (the Il-2's)")
    write("airstrike_il2b12", replace_once(a, "strafe = 7\nbomb = 9", "strafe = 7\nbomb = 12"),
          "airstrike, the Il-2's bomb 12 not 9 (the Ju 87's)")

    # amendment 3 (the last airstrike variant: both small levers together)
    write("airstrike_sfwd1_b9", replace_once(shift_side(a, "soviet", -1), "strafe = 4\nbomb = 12", "strafe = 4\nbomb = 9"),
          "airstrike, every Soviet stand one square west and the Ju 87's bomb 9 not 12")

    # amendment 4 (larger steps on the air war)
    write("airstrike_ju87a4", replace_once(a, 'side = "german"\narrive = 2', 'side = "german"\narrive = 4'),
          "airstrike, the Ju 87 arrives on turn 4 not 2")
    write("airstrike_noflak", re.sub(r'(?ms)^\[\[stand\]\]\nid = "flak".*?(?=^\[\[stand\]\])', "", a),
          "airstrike, the German Flakvierling flak removed")

    # amendment 5 (the forces: a seventh Soviet T-34)
    t34g = '[[stand]]\nid = "t34g"\ntype = "t34"\nside = "soviet"\nat = [28, 18]\nfacing = "w"\n'
    write("airstrike_t34g", replace_once(a, 'id = "t34f"\ntype = "t34"\nside = "soviet"\nat = [28, 16]\nfacing = "w"\n',
                                         'id = "t34f"\ntype = "t34"\nside = "soviet"\nat = [28, 16]\nfacing = "w"\n' + t34g),
          "airstrike, a seventh Soviet T-34 t34g entering at 28,18")

    b = shipped("barrage")
    nosfh = re.sub(r'(?ms)^\[\[battery\]\]\nid = "sfh".*?(?=^\[\[battery\]\])', "", b)
    assert nosfh != b
    write("barrage_nosfh", nosfh, "barrage, the German 15 cm battery sfh removed")
    write("barrage_lefh2", replace_once(b, 'type = "ger_105"\nsections = 3', 'type = "ger_105"\nsections = 2'),
          "barrage, the German leFH battery 2 sections not 3")

    c = shipped("combined")
    write("combined_t16", set_turns(c, 16), "combined, 16 turns not the base's 12")
    write("combined_lefh1", replace_once(c, 'type = "ger_105"\nsections = 2', 'type = "ger_105"\nsections = 1'),
          "combined, the German leFH battery 1 section not 2")

    m = shipped("minefield")
    write("minefield_back1", shift_side(m, "german", -1),
          "minefield, every German stand one square west (x 1..3, not 2..4)")
    zis = '[[stand]]\nid = "zis"\ntype = "zis3"\nside = "soviet"\nat = [15, 11]\nfacing = "w"\n'
    write("minefield_zis", replace_once(m, "# (balance: no ZiS-3 `zis` at 15,11; its medium position below stays, empty)\n", zis),
          "minefield, the Soviet ZiS-3 zis back at 15,11 (in its medium position)")

    o = shipped("outpost")
    write("outpost_t14", set_turns(o, 14), "outpost, 14 turns not 12")
    write("outpost_t16", set_turns(o, 16), "outpost, 16 turns not 12")

    am = shipped("ambush")
    write("ambush_t16", set_turns(am, 16), "ambush, 16 turns not 12")
    m8 = replace_once(am, 'id = "m8"\ntype = "t34"', 'id = "m8"\ntype = "dummy"')
    write("ambush_m8d", m8, "ambush, the marker m8 a dummy again (not a T-34)")
    sup = replace_once(shipped("ambush_support"), 'base = "ambush"', 'base = "ambush_m8d"')
    d = os.path.join(OUT, "ambush_support_m8d")
    write("ambush_support_m8d", sup, "ambush_support on the ambush_m8d base")
    with open(os.path.join(d, "ambush_m8d.toml"), "w") as f:
        f.write("# session 34 balance variant: ambush, the marker m8 a dummy again (base of ambush_support_m8d)\n" + m8)


if __name__ == "__main__":
    main()
