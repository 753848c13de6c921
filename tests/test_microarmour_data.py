"""Micro Armour data files: the shipped charts, weapons and scenario load, and
a broken file is refused with an error naming the file, the key and what was
expected."""
from __future__ import annotations

import os

import pytest

from ardsearch.games.microarmour import _data

SHIPPED = _data.HERE


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_shipped_files_load():
    charts = _data.load_charts()
    weapons = _data.load_weapons()
    sc = _data.load_scenario("introductory", charts, weapons)
    assert sc["width"] == 30 and sc["height"] == 20 and sc["turns"] == 12
    assert [len(s) for s in sc["stands"]] == [16, 16]
    # the Introductory order of battle; the rest are the `support` parameter's stands
    assert [sum(1 for st in s if not st["support"]) for s in sc["stands"]] == [11, 12]
    assert {t["key"] for t in weapons} >= {"pz4h", "t34", "rifle", "pak40"}


def test_bad_chart_value_names_file_and_key(tmp_path):
    text = open(os.path.join(SHIPPED, "data", "charts.toml")).read().replace("cohesion = 3\ncrt = 3\nblocks_los = true",
                                                                      "cohesion = 99\ncrt = 3\nblocks_los = true", 1)
    with pytest.raises(ValueError, match=r"charts\.toml: cohesion: expected an integer from -5 to 10, got 99"):
        _data.load_charts(write(tmp_path, "charts.toml", text))


def test_bad_terrain_cost(tmp_path):
    text = open(os.path.join(SHIPPED, "data", "charts.toml")).read().replace('cost = ["x", 3, 2, 3]', 'cost = ["x", 3, 2]')
    with pytest.raises(ValueError, match=r"terrain\.woods\.cost: expected a list of 4 costs"):
        _data.load_charts(write(tmp_path, "charts.toml", text))


def test_bad_weapon_defence(tmp_path):
    text = open(os.path.join(SHIPPED, "data", "weapons.toml")).read().replace('defence = "A"', 'defence = "Q"', 1)
    with pytest.raises(ValueError, match=r'weapons\.toml: pz4h\.defence: expected "A", "U" or "P", got \'Q\''):
        _data.load_weapons(write(tmp_path, "weapons.toml", text))


def test_bad_scenario_map_and_stand(tmp_path):
    base = open(os.path.join(SHIPPED, "scenarios", "introductory.toml")).read()
    bad_map = base.replace('"..rr....................ww....",', '"..rr....................ww..Z.",', 1)
    with pytest.raises(ValueError, match=r"map\[7\]\[28\]: expected a terrain character"):
        _data.load_scenario(path=write(tmp_path, "a.toml", bad_map))
    bad_type = base.replace('type = "t34"', 'type = "tiger"', 1)
    with pytest.raises(ValueError, match=r"stand\[\d+\]\.type: expected a weapon type from weapons\.toml"):
        _data.load_scenario(path=write(tmp_path, "b.toml", bad_type))
    bad_at = base.replace("at = [29, 4]", "at = [29, 99]")
    with pytest.raises(ValueError, match=r"stand\[\d+\]\.at: expected a free square"):
        _data.load_scenario(path=write(tmp_path, "c.toml", bad_at))


def test_not_toml(tmp_path):
    with pytest.raises(ValueError, match="not valid TOML"):
        _data.load_weapons(write(tmp_path, "weapons.toml", "[[[nonsense"))


# ---------------------------------------------------------------- weapons extras and buildings (ma-df)
def weapons_text():
    return open(os.path.join(SHIPPED, "data", "weapons.toml")).read()


def test_bad_weapon_codes_name_file_key_and_reason(tmp_path):
    bad_r = weapons_text().replace('restricted = "ger_infhq"', 'restricted = "king_tiger"')
    with pytest.raises(ValueError, match=r"w1\.toml: stug3g\.restricted: expected a weapon type of this file"):
        _data.load_weapons(write(tmp_path, "w1.toml", bad_r))
    bad_d = weapons_text().replace("depletion = 4", "depletion = 20")
    with pytest.raises(ValueError, match=r"w2\.toml: pzschreck\.depletion: expected an integer from 1 to 12, got 20"):
        _data.load_weapons(write(tmp_path, "w2.toml", bad_d))
    two = weapons_text().replace("depletion = 4", "depletion = 4\nspecial_ap = true")
    with pytest.raises(ValueError, match=r"pzschreck: expected at most one of depletion, special_ap, heat_rounds"):
        _data.load_weapons(write(tmp_path, "w3.toml", two))
    heat = weapons_text().replace("heat_rounds = 2\n", "")
    with pytest.raises(ValueError, match=r"leig18\.heat_rounds: expected an integer from 1 to 15 beside heat_ap"):
        _data.load_weapons(write(tmp_path, "w4.toml", heat))
    flag = weapons_text().replace("mmg = true", 'mmg = "yes"', 1)
    with pytest.raises(ValueError, match=r"mg34\.mmg: expected true or false"):
        _data.load_weapons(write(tmp_path, "w5.toml", flag))


def test_bad_building_charts(tmp_path):
    charts = open(os.path.join(SHIPPED, "data", "charts.toml")).read()
    cls = charts.replace('building = "light"', 'building = "castle"')
    with pytest.raises(ValueError, match=r"terrain\.buildings\.building: expected light, medium or heavy"):
        _data.load_charts(write(tmp_path, "c1.toml", cls))
    cover = charts.replace('building = "light"', 'building = "medium"')
    with pytest.raises(ValueError, match=r"terrain\.buildings\.cohesion/crt: expected the medium building class"):
        _data.load_charts(write(tmp_path, "c2.toml", cover))
    rub = charts.replace("rubble_after = 3", "rubble_after = 0")
    with pytest.raises(ValueError, match=r"c3\.toml: building\.medium\.rubble_after: expected an integer from 1 to 15, got 0"):
        _data.load_charts(write(tmp_path, "c3.toml", rub))
    dp = charts.replace("bands = [[1, -1], [8, 0]", "bands = [[8, -1], [8, 0]")
    with pytest.raises(ValueError, match=r"range_dp\.bands\[1\]: expected \[max inches increasing"):
        _data.load_charts(write(tmp_path, "c4.toml", dp))


def test_bad_support_data_in_a_scenario(tmp_path):
    base = open(os.path.join(SHIPPED, "scenarios", "introductory.toml")).read()
    off = base.replace("at = [14, 9]\nclass", "at = [5, 5]\nclass")
    with pytest.raises(ValueError, match=r"support_building\[\d\]\.at: expected a building square"):
        _data.load_scenario(path=write(tmp_path, "s1.toml", off))
    cls = base.replace('class = "heavy"', 'class = "fortress"')
    with pytest.raises(ValueError, match=r"support_building\[\d\]\.class: expected light, medium or heavy"):
        _data.load_scenario(path=write(tmp_path, "s2.toml", cls))
    flag = base.replace("support = true", 'support = "yes"', 1)
    with pytest.raises(ValueError, match=r"stand\[\d+\]\.support: expected true or false"):
        _data.load_scenario(path=write(tmp_path, "s3.toml", flag))
