"""Make the harness modules (handgen, reference, audit) importable by the tests of this folder,
whether pytest imports them as rootless modules or as a package; and the generated hands the tests share,
built once per module."""

import random
import sys
from pathlib import Path

import pytest

from tests.helpers import AUDIT_HANDS, HANDGEN_HANDS, RESULT_SHAPE_HANDS, mixed_lines

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

HANDGEN_SEED = 20240601
AUDIT_SEED = 808


@pytest.fixture(scope="module")
def corpus():
    """HANDGEN_HANDS random hands (seed HANDGEN_SEED): (cases, their forms, the reference calculator's results)."""
    import handgen
    import reference

    rng = random.Random(HANDGEN_SEED)
    cases, forms = [], []
    for _ in range(HANDGEN_HANDS):
        case, form = handgen.random_hand_ex(rng)
        cases.append(case)
        forms.append(form)
    results = [reference.reference_score(c) for c in cases]
    return cases, forms, results


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    """RESULT_SHAPE_HANDS random hands (seed 4242), as handgen gives them."""
    import handgen

    return handgen.random_hands(RESULT_SHAPE_HANDS, 4242)


@pytest.fixture(scope="module")
def report():
    """The ruleset audit (tests/mcr/audit.py) of AUDIT_HANDS random hands (seed AUDIT_SEED)."""
    import audit
    import handgen

    return audit.run(handgen.random_hands(AUDIT_HANDS, AUDIT_SEED))


@pytest.fixture(scope="module")
def payload() -> bytes:
    """2500 generated hands with the bad lines among them, one JSON line each, as --jsonl reads them."""
    lines = mixed_lines(2500, 5)
    return ("\n".join(lines)).encode()  # the last line has no newline: it still gets an answer
