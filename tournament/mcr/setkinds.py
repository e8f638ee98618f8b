"""Set kinds: the one definition shared by the parser (declared sets), the decomposition (concealed
sets) and the scorer. Plain ints, so they index the scorer's tables (``combinations.NOTA[kind]``)."""

from __future__ import annotations

CHOW, PUNG, KONG, PAIR = 0, 1, 2, 3
KIND_NAMES = ("chow", "pung", "kong", "pair")  # for messages and readers: KIND_NAMES[CHOW] == "chow"
