"""Adapter from our hand notation + win context to the reference calculator (pymahjonggb).

API
---
``parse_notation(text) -> (declared, concealed)``
    Our own small parser (independent of the engine under test). ``declared`` is a list of
    ``(kind, tiles, concealed_kong)`` with kind "chow" | "pung" | "kong"; tiles are reference codes.
    ``concealed`` is the list of concealed tiles in written order; the last one is the winning tile.
    Raises ``ValueError`` on bad text.
``to_reference_args(case) -> dict``
    Keyword arguments for ``MahjongFanCalculator`` (``verbose=True``).
``reference_score(case) -> dict | None``
    ``{"fans": sorted list of (english_name, points_each, count), "fan_points": int,
    "flower_points": int, "total": int}``; "Flower Tiles" is one of the fans when flowers > 0 (count =
    flowers), ``fan_points`` excludes it, ``total = fan_points + flower_points``. ``None`` when the
    reference says the hand does not win (``ERROR_NOT_WIN``); any other reference error raises
    ``ValueError``.
``ZH_TO_EN``
    The reference's fan names (Chinese, its primary names) to the canonical English names of
    ``/work/shared/rules/fans.csv``: all 82 entries (81 fans + chinese-only "Concealed Kong and Melded
    Kong"). ``REF_EN_TO_EN`` maps the reference's own English names (two are spelt differently).

Reference quirks worth knowing (pymahjonggb 1.4, i.e. ChineseOfficialMahjongHelper's calculator):
* no 8-point minimum: any legal winning structure is scored; Chicken Hand (8) when nothing else scores.
* it corrects the win flags: ``is4thTile`` is dropped when the concealed tiles hold a copy of the winning
  tile, and forced on when the declared sets hold 3 copies of it (chows count); ``isAboutKong`` with
  self-drawn is dropped without a declared kong; robbing (``isAboutKong`` not self-drawn) is dropped when
  the winning tile's kind appears anywhere else in the hand. Robbing the Kong excludes Last Tile.
* the ``offer`` of a pack only matters as 0 (concealed kong) vs 1..3 (melded).
* verbose results are ``(points_each, count, zh_name, en_name)``.
"""

from __future__ import annotations

from MahjongGB import MahjongFanCalculator

WINDS = "ESWN"
_SUIT_CODE = {"m": "W", "s": "T", "p": "B"}
_HONOUR_CODE = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
_Z_CODE = {str(i + 1): code for i, code in enumerate(("F1", "F2", "F3", "F4", "J1", "J2", "J3"))}

# Chinese fan name (the reference's fan_name table) -> canonical English name (fans.csv).
ZH_TO_EN = {
    "大四喜": "Big Four Winds",
    "大三元": "Big Three Dragons",
    "绿一色": "All Green",
    "九莲宝灯": "Nine Gates",
    "四杠": "Four Kongs",
    "连七对": "Seven Shifted Pairs",
    "十三幺": "Thirteen Orphans",
    "清幺九": "All Terminals",
    "小四喜": "Little Four Winds",
    "小三元": "Little Three Dragons",
    "字一色": "All Honors",
    "四暗刻": "Four Concealed Pungs",
    "一色双龙会": "Pure Terminal Chows",
    "一色四同顺": "Quadruple Chow",
    "一色四节高": "Four Pure Shifted Pungs",
    "一色四步高": "Four Pure Shifted Chows",
    "三杠": "Three Kongs",
    "混幺九": "All Terminals and Honors",
    "七对": "Seven Pairs",
    "七星不靠": "Greater Honors and Knitted Tiles",
    "全双刻": "All Even Pungs",
    "清一色": "Full Flush",
    "一色三同顺": "Pure Triple Chow",
    "一色三节高": "Pure Shifted Pungs",
    "全大": "Upper Tiles",
    "全中": "Middle Tiles",
    "全小": "Lower Tiles",
    "清龙": "Pure Straight",
    "三色双龙会": "Three-Suited Terminal Chows",
    "一色三步高": "Pure Shifted Chows",
    "全带五": "All Five",
    "三同刻": "Triple Pung",
    "三暗刻": "Three Concealed Pungs",
    "全不靠": "Lesser Honors and Knitted Tiles",
    "组合龙": "Knitted Straight",
    "大于五": "Upper Four",
    "小于五": "Lower Four",
    "三风刻": "Big Three Winds",
    "花龙": "Mixed Straight",
    "推不倒": "Reversible Tiles",
    "三色三同顺": "Mixed Triple Chow",
    "三色三节高": "Mixed Shifted Pungs",
    "无番和": "Chicken Hand",
    "妙手回春": "Last Tile Draw",
    "海底捞月": "Last Tile Claim",
    "杠上开花": "Out with Replacement Tile",
    "抢杠和": "Robbing the Kong",
    "双暗杠": "Two Concealed Kongs",
    "碰碰和": "All Pungs",
    "混一色": "Half Flush",
    "三色三步高": "Mixed Shifted Chows",
    "五门齐": "All Types",
    "全求人": "Melded Hand",
    "双箭刻": "Two Dragon Pungs",
    "全带幺": "Outside Hand",
    "不求人": "Fully Concealed Hand",
    "双明杠": "Two Melded Kongs",
    "和绝张": "Last Tile",
    "箭刻": "Dragon Pung",
    "圈风刻": "Prevalent Wind",
    "门风刻": "Seat Wind",
    "门前清": "Concealed Hand",
    "平和": "All Chows",
    "四归一": "Tile Hog",
    "双同刻": "Double Pung",
    "双暗刻": "Two Concealed Pungs",
    "暗杠": "Concealed Kong",
    "断幺": "All Simples",
    "一般高": "Pure Double Chow",
    "喜相逢": "Mixed Double Chow",
    "连六": "Short Straight",
    "老少副": "Two Terminal Chows",
    "幺九刻": "Pung of Terminals or Honors",
    "明杠": "Melded Kong",
    "缺一门": "One Voided Suit",
    "无字": "No Honors",
    "独听・边张": "Edge Wait",
    "独听・嵌张": "Closed Wait",
    "独听・单钓": "Single Wait",
    "自摸": "Self-Drawn",
    "花牌": "Flower Tiles",
    "明暗杠": "Concealed Kong and Melded Kong",
}

# The reference's English names that differ from fans.csv (all others are identical).
REF_EN_TO_EN = {"Robbing The Kong": "Robbing the Kong", "Two Dragons Pungs": "Two Dragon Pungs"}

FLOWER_TILES = "Flower Tiles"


def _parse_tiles(text: str, where: str) -> list[str]:
    tiles: list[str] = []
    digits = ""
    for i, ch in enumerate(text):
        if ch.isdigit():
            if ch == "0":
                raise ValueError(f"bad rank 0 in {where} at {i}")
            digits += ch
        elif ch in _SUIT_CODE:
            if not digits:
                raise ValueError(f"suit letter {ch!r} without digits in {where} at {i}")
            tiles.extend(_SUIT_CODE[ch] + d for d in digits)
            digits = ""
        elif ch == "z":
            if not digits:
                raise ValueError(f"'z' without digits in {where} at {i}")
            for d in digits:
                if d not in _Z_CODE:
                    raise ValueError(f"bad honour {d}z in {where} at {i}")
                tiles.append(_Z_CODE[d])
            digits = ""
        elif ch in _HONOUR_CODE:
            if digits:
                raise ValueError(f"digits without a suit before {ch!r} in {where} at {i}")
            tiles.append(_HONOUR_CODE[ch])
        else:
            raise ValueError(f"unexpected {ch!r} in {where} at {i}")
    if digits:
        raise ValueError(f"digits without a suit at the end of {where}")
    return tiles


def _next_code(code: str) -> str | None:
    if code[0] in "WTB" and code[1] != "9":
        return code[0] + str(int(code[1]) + 1)
    return None


def parse_notation(text: str) -> tuple[list[tuple[str, list[str], bool]], list[str]]:
    s = "".join(text.split())
    declared: list[tuple[str, list[str], bool]] = []
    i = 0
    while i < len(s) and s[i] in "[{":
        close = "]" if s[i] == "[" else "}"
        j = s.find(close, i + 1)
        if j < 0:
            raise ValueError(f"unclosed {s[i]!r} at {i}")
        tiles = _parse_tiles(s[i + 1:j], f"set at {i}")
        is_concealed_kong = s[i] == "{"
        if len(tiles) == 4 and len(set(tiles)) == 1:
            kind = "kong"
        elif is_concealed_kong:
            raise ValueError(f"{{...}} at {i} must be four identical tiles")
        elif len(tiles) == 3 and len(set(tiles)) == 1:
            kind = "pung"
        elif len(tiles) == 3:
            a, b, c = sorted(tiles)
            if _next_code(a) != b or _next_code(b) != c:
                raise ValueError(f"set at {i} is not a chow, pung or kong")
            kind = "chow"
            tiles = [a, b, c]
        else:
            raise ValueError(f"set at {i} is not a chow, pung or kong")
        declared.append((kind, tiles, is_concealed_kong))
        i = j + 1
    if len(declared) > 4:
        raise ValueError("more than four declared sets")
    concealed = _parse_tiles(s[i:], "concealed tiles")
    expected = 14 - 3 * len(declared)
    if len(concealed) != expected:
        raise ValueError(f"{len(concealed)} concealed tiles where {expected} belong")
    return declared, concealed


def to_reference_args(case: dict) -> dict:
    declared, concealed = parse_notation(case["hand"])
    packs = []
    for kind, tiles, is_concealed_kong in declared:
        if kind == "chow":
            packs.append(("CHI", tiles[1], 1))
        elif kind == "pung":
            packs.append(("PENG", tiles[0], 1))
        else:
            packs.append(("GANG", tiles[0], 0 if is_concealed_kong else 1))
    return {
        "pack": tuple(packs),
        "hand": tuple(concealed[:-1]),
        "winTile": concealed[-1],
        "flowerCount": int(case.get("flowers", 0)),
        "isSelfDrawn": bool(case.get("self_drawn", False)),
        "is4thTile": bool(case.get("last_tile", False)),
        "isAboutKong": bool(case.get("kong", False)),
        "isWallLast": bool(case.get("wall_last", False)),
        "seatWind": WINDS.index(case.get("seat_wind", "E")),
        "prevalentWind": WINDS.index(case.get("prevalent_wind", "E")),
        "verbose": True,
    }


def english_name(zh: str, en: str) -> str:
    """Canonical English name of a reference fan; checks the two name tables agree."""
    name = ZH_TO_EN[zh]
    if REF_EN_TO_EN.get(en, en) != name:
        raise AssertionError(f"reference fan {zh!r}/{en!r} maps to {name!r}")
    return name


def score_from_raw(raw) -> dict:
    """Our result dict from a verbose reference result tuple."""
    fans = sorted((english_name(zh, en), int(points), int(count)) for points, count, zh, en in raw)
    flower_points = sum(p * c for name, p, c in fans if name == FLOWER_TILES)
    fan_points = sum(p * c for name, p, c in fans if name != FLOWER_TILES)
    return {"fans": fans, "fan_points": fan_points, "flower_points": flower_points,
            "total": fan_points + flower_points}


def reference_score(case: dict) -> dict | None:
    args = to_reference_args(case)
    try:
        raw = MahjongFanCalculator(**args)
    except TypeError as exc:
        if "NOT_WIN" in str(exc):
            return None
        raise ValueError(f"reference refused {case['hand']!r}: {exc}") from exc
    return score_from_raw(raw)


# ---------------------------------------------------------------------------------------------
# Comparing an engine result with the reference (shared by the differential test and bench/mcr_diff.py)



def _fan_counter(fans) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, _points, count in fans:
        if name != FLOWER_TILES and count:
            out[name] = out.get(name, 0) + int(count)
    return out


def _label(name: str, count: int) -> str:
    return name if count == 1 else f"{name} x{count}"


def compare(ref: dict | None, engine: dict) -> tuple | None:
    """Difference signature between a reference result and an engine result, or None when they agree.

    ``engine`` is ``{"ok": True, "fans": [(name, points, count)], "fan_points": int, "total": int}`` or
    ``{"ok": False, "code": str, "error": str}``. Fans are compared without "Flower Tiles"; an engine fan's
    ``points`` may be per fan or per fan times count. Totals are compared as well (the engine's total
    includes flowers, as the reference's does).
    The signature is ``(missing, extra, other)``: tuples of labels of fans the reference scores and the
    engine does not, the reverse, and other differences (points, totals, errors).
    """
    if ref is None:
        if not engine.get("ok"):
            return None
        return ((), (), ("reference: not a win; engine scored it",))
    if not engine.get("ok"):
        return ((), (), (f"engine error {engine.get('code')}",))
    ref_fans = _fan_counter(ref["fans"])
    eng_fans = _fan_counter(engine["fans"])
    missing = tuple(sorted(_label(n, c - eng_fans.get(n, 0)) for n, c in ref_fans.items()
                           if c > eng_fans.get(n, 0)))
    extra = tuple(sorted(_label(n, c - ref_fans.get(n, 0)) for n, c in eng_fans.items()
                         if c > ref_fans.get(n, 0)))
    other = []
    ref_units = {name: points for name, points, _ in ref["fans"]}
    for name, points, count in engine["fans"]:
        unit = ref_units.get(name)
        if unit is not None and points not in (unit, unit * count):
            other.append(f"points of {name}: {points} (reference {unit})")
    if not missing and not extra:
        if engine.get("fan_points") != ref["fan_points"]:
            other.append(f"fan_points {engine.get('fan_points')} != {ref['fan_points']}")
        if engine.get("total") != ref["total"]:
            other.append(f"total {engine.get('total')} != {ref['total']}")
    if missing or extra or other:
        return (missing, extra, tuple(other))
    return None


def describe_signature(sig: tuple) -> str:
    missing, extra, other = sig
    parts = []
    if missing:
        parts.append("missing: " + ", ".join(missing))
    if extra:
        parts.append("extra: " + ", ".join(extra))
    if other:
        parts.append("; ".join(other))
    return " | ".join(parts)


def format_fans(fans) -> str:
    return ", ".join(f"{_label(n, c)} ({p})" for n, p, c in fans) or "-"


def format_case(case: dict) -> str:
    flags = [k for k in ("self_drawn", "last_tile", "wall_last", "kong") if case.get(k)]
    return (f"{case['hand']}  seat={case['seat_wind']} prevalent={case['prevalent_wind']} "
            f"flowers={case['flowers']} flags={','.join(flags) or '-'}")


def disagreement_report(cases, refs, engines, show: int = 30) -> tuple[float, str]:
    """Agreement percentage and a printable report grouping disagreements by signature."""
    groups: dict[tuple, list[int]] = {}
    for i, (ref, eng) in enumerate(zip(refs, engines, strict=True)):
        sig = compare(ref, eng)
        if sig is not None:
            groups.setdefault(sig, []).append(i)
    n = len(cases)
    bad = sum(len(v) for v in groups.values())
    pct = 100.0 * (n - bad) / n if n else 100.0
    lines = [f"agreement: {n - bad}/{n} = {pct:.3f}%  ({len(groups)} disagreement groups)"]
    for sig, idx in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:show]:
        i = idx[0]
        ref, eng = refs[i], engines[i]
        lines.append(f"\n[{len(idx)}x] {describe_signature(sig)}")
        lines.append(f"    e.g. {format_case(cases[i])}")
        if ref is not None:
            lines.append(f"    reference: {format_fans(ref['fans'])} = {ref['total']}")
        if eng.get("ok"):
            lines.append(f"    engine:    {format_fans(eng['fans'])} = {eng.get('total')}")
        else:
            lines.append(f"    engine:    error {eng.get('code')}: {eng.get('error')}")
    if len(groups) > show:
        lines.append(f"\n... {len(groups) - show} more groups")
    return pct, "\n".join(lines)
