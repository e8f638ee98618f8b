"""Marshmallow schemas of the JSON API: they validate request bodies and feed the OpenAPI document.

Types are checked strictly (a string is not a number, 1 is not `true`) so that a wrong type is a 422
naming the field; rules that need the database (is this player at that table?) stay in the services.
"""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate

from tournament.constants import LANGUAGES, MAX_ID, MAX_SEED
from tournament.mcr.wincontext import MAX_FLOWERS
from tournament.models import HANDS_PER_SESSION
from tournament.models.tournaments import (
    DRAW_PRIORITIES,
    DRAW_SEPARATIONS,
    END_RULES,
    ENTRY_MODES,
    RULESET_LABELS,
    TIE_BREAKS,
)
from tournament.services.people.registration.players import LIMITS as PLAYER_LIMITS
from tournament.services.people.registration.players import MAX_FIXED_TABLE
from tournament.services.people.tournaments import LIMITS as TOURNAMENT_LIMITS
from tournament.services.play.penalties import MAX_PENALTY
from tournament.text import LINES_CONTROLS, ONE_LINE_CONTROLS
from tournament.timezones import zone_choices

ID = validate.Range(min=1, max=MAX_ID)
COUNTRY_MAX = 100  # a country's longest name (CLDR) is under 60 characters
# Text a person types holds no control character (tournament.text): one line, or lines (line feeds, carriage
# returns and tabs allowed); *_NOT_BLANK: with something in it. The services trim the text, refuse it empty and
# refuse a control character (a 400 naming the field).
ONE_LINE = f"^[^{ONE_LINE_CONTROLS}]*$"
ONE_LINE_NOT_BLANK = f"^[^{ONE_LINE_CONTROLS}]*[^\\s{ONE_LINE_CONTROLS}][^{ONE_LINE_CONTROLS}]*$"
LINES = f"^[^{LINES_CONTROLS}]*$"
LINES_NOT_BLANK = f"^[^{LINES_CONTROLS}]*[^\\s{LINES_CONTROLS}][^{LINES_CONTROLS}]*$"


def documented(**rules: Any) -> dict[str, Any]:
    """JSON Schema keywords for the OpenAPI document only: the service checks the rule (a 400 naming the
    field, as the web forms say it), the document states it so that clients and schemathesis know it."""
    return rules


def limits(name: str) -> dict[str, int]:
    low, high = TOURNAMENT_LIMITS[name]
    return documented(minimum=low, maximum=high)


class StrictInteger(fields.Integer):
    """A JSON integer: no strings, no floats, no booleans (Python counts True as 1)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """A JSON boolean: `true` or `false` only (not 1, "yes" or "on")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class BodySchema(Schema):
    """Request bodies ignore keys they do not know, so clients may send extra context."""

    class Meta:
        unknown = EXCLUDE


class EmptySchema(BodySchema):
    """`{}`: the action needs no data."""


class ErrorSchema(Schema):
    error = fields.String(required=True, metadata={"description": "What went wrong, for a person."})
    field = fields.String(metadata={"description": "The body field to blame, when there is one (a.b.0.c)."})


# ----------------------------------------------------------------------------- accounts, tournaments


class UserSchema(Schema):
    id = fields.Integer()
    email = fields.String()
    name = fields.String()
    role = fields.String()


class TournamentInSchema(BodySchema):
    name = fields.String(required=True, metadata=documented(pattern=ONE_LINE_NOT_BLANK, maxLength=120))
    venue = fields.String(metadata=documented(pattern=ONE_LINE, maxLength=200))
    country = fields.String(allow_none=True, metadata=documented(pattern=ONE_LINE, maxLength=COUNTRY_MAX, description=(
        "The host country, for EMA's results workbook and the observer's report; stored and answered as EMA writes "
        "it, 3 letters (`NED`, `GER`, `FIN`). Give that code, the ISO 3166-1 alpha-2 or alpha-3 code (`NL`, "
        "`NLD`) or the country's name in English, Finnish, Swedish, Spanish, Chinese or its own language; empty or "
        "null for none (the EMA check then asks for it). A country not known so is a 400 naming `country`.")))
    start_date = fields.Date(allow_none=True)
    end_date = fields.Date(allow_none=True, metadata={"description": "Not before `start_date`."})
    ruleset = fields.String(metadata=documented(enum=list(RULESET_LABELS)))
    session_count = StrictInteger(metadata=limits("session_count"))
    session_minutes = StrictInteger(metadata=limits("session_minutes"))
    end_rule = fields.String(metadata=documented(enum=list(END_RULES)))
    warning_minutes = StrictInteger(metadata={**limits("warning_minutes"),
                                              "description": "Less than `session_minutes`."})
    appeal_minutes = StrictInteger(metadata={**limits("appeal_minutes"), "description": (
        "How long after a session finished an appeal may be filed (default 30, GB 3.12.2).")})
    false_mahjong_under_minimum = StrictInteger(metadata=limits("false_mahjong_under_minimum"))
    false_mahjong_not_winning = StrictInteger(metadata=limits("false_mahjong_not_winning"))
    table_points = fields.List(StrictInteger(metadata=limits("table_point")), metadata=documented(
        minItems=4, maxItems=4, description="1st to 4th place, not increasing: [4, 2, 1, 0]."))
    tie_breaks = fields.List(fields.String(metadata=documented(enum=list(TIE_BREAKS))),
                             metadata=documented(uniqueItems=True))
    draw_separation = fields.String(validate=validate.OneOf(list(DRAW_SEPARATIONS)), metadata={
        "description": "Who the draws keep apart at a table: teammates (`team`, the default), clubmates or nobody."})
    draw_priority = fields.String(metadata=documented(enum=list(DRAW_PRIORITIES), description=(
        "What the draws avoid first where the sizes allow no draw free of both: `repeats_first` (the default: "
        "repeat opponents, then teammates together) or `teams_first` (a team event: no two teammates at a "
        "table, at the cost of repeats). Another value is a 400 naming `draw_priority`.")))
    foul_types = fields.List(fields.String(validate=validate.Length(min=1, max=60),
                                           metadata=documented(pattern=ONE_LINE)), metadata=documented(
        minItems=1, maxItems=30, uniqueItems=True,
        description="The fouls a referee chooses from (each once, letter case apart); default: the MERS list."))
    entry_mode = fields.String(validate=validate.OneOf(list(ENTRY_MODES)), metadata={
        "description": "Who enters the hands: `referee` (the default: staff enter, players may confirm from their "
                       "links) or `players` (a player at the table enters a hand, the other three confirm; it "
                       "counts in the standings once all four, or a referee, confirmed it)."})
    penalties_affect_table_points = StrictBoolean(metadata={
        "description": "Whether penalties count in the session score that decides table points (default true, "
                       "the Green Book); false: table points from the scores before penalties (the score still "
                       "loses them)."})
    # The places of the zone database and UTC, as the settings form offers them: without the aliases (Etc/GMT+3,
    # Etc/GMT-3, GMT0, GMT-0 ...) whose names a client generator makes identical once it drops the signs.
    time_zone = fields.String(metadata=documented(enum=list(zone_choices()), description=(
        "The IANA time zone the tournament is played in (default `UTC`), e.g. `Europe/Helsinki`: times are "
        "stored in UTC and shown in it. One of the places of the zone database or `UTC`; its other names "
        "(`Etc/GMT-3`, `GMT0` ...) are taken too, but not listed. An unknown name is a 400 naming `time_zone`.")))
    language = fields.String(metadata=documented(enum=list(LANGUAGES), description=(
        "The tournament's default language (default `en`): its PDFs are in it, and its pages for a reader who "
        "chose no language and whose browser asks for none of those offered. Another code is a 400 naming "
        "`language`.")))


class TournamentSchema(Schema):
    id = fields.Integer()
    name = fields.String()
    venue = fields.String()
    country = fields.String(allow_none=True, metadata={
        "description": "The host country as EMA writes it (3 letters, e.g. `NED`); null until set."})
    start_date = fields.Date(allow_none=True)
    end_date = fields.Date(allow_none=True)
    ruleset = fields.String()
    session_count = fields.Integer()
    session_minutes = fields.Integer()
    end_rule = fields.String()
    warning_minutes = fields.Integer()
    appeal_minutes = fields.Integer()
    false_mahjong_under_minimum = fields.Integer()
    false_mahjong_not_winning = fields.Integer()
    table_points = fields.List(fields.Integer())
    tie_breaks = fields.List(fields.String())
    draw_separation = fields.String()
    draw_priority = fields.String(metadata={"description": "`repeats_first` or `teams_first`."})
    entry_mode = fields.String()
    penalties_affect_table_points = fields.Boolean()
    foul_types = fields.List(fields.String())
    time_zone = fields.String(metadata={"description": "IANA time zone: every time is shown in it."})
    language = fields.String(metadata={"description": "Default language of the pages and the PDFs (`en`, `fi`, "
                                                      "`sv`, `es`, `zh`)."})
    version = fields.Integer()


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSchema))


# ----------------------------------------------------------------------------- players


class PlayerInSchema(BodySchema):
    first_name = fields.String(required=True, metadata=documented(
        pattern=ONE_LINE_NOT_BLANK, maxLength=PLAYER_LIMITS["first_name"]))
    last_name = fields.String(required=True, metadata=documented(
        pattern=ONE_LINE_NOT_BLANK, maxLength=PLAYER_LIMITS["last_name"]))
    country = fields.String(required=True, metadata=documented(pattern=ONE_LINE, maxLength=COUNTRY_MAX, description=(
        "The country, stored and answered as its ISO 3166-1 alpha-2 code (`FI`): give that code, the alpha-3 code "
        "(`FIN`), the code EMA's results use (`GER`, `NED`, `DEN`, `SUI` ...) or the country's name in English, "
        "Finnish, Swedish, Spanish, Chinese or its own language (`Finland`, `Suomi`, `芬兰`, `Deutschland`); "
        "letter case and accents aside. Empty for none. A country not known so is a 400 naming `country`.")))
    ema_number = fields.String(allow_none=True, metadata=documented(
        pattern=r"^\s*$|^(\s*[0-9]){8}\s*$", description="8 digits; empty or null for none."))
    club = fields.String(allow_none=True, metadata=documented(pattern=ONE_LINE, maxLength=PLAYER_LIMITS["club"]))
    team = fields.String(allow_none=True, metadata=documented(pattern=ONE_LINE, maxLength=PLAYER_LIMITS["team"]))
    substitute = StrictBoolean()
    fixed_table = StrictInteger(allow_none=True, metadata=documented(minimum=1, maximum=MAX_FIXED_TABLE, description=(
        "Access needs: the table number the player keeps in every draw and plan; null or left out for none. "
        "From 1 to the tournament's number of tables (one per four players registered or present, this one "
        "included), and one player per table: else a 400 naming `fixed_table`.")))


FIXED_TABLE_DESCRIPTION = ("The table number the player keeps in every draw and plan (access needs); null when "
                           "none.")


class PlayerSchema(Schema):
    id = fields.Integer()
    first_name = fields.String()
    last_name = fields.String()
    country = fields.String()
    ema_number = fields.String(allow_none=True)
    club = fields.String()
    team = fields.String()
    substitute = fields.Boolean()
    status = fields.String(metadata={"description": "registered, present, withdrawn or disqualified"})
    left_out_of_ema = fields.Boolean(metadata={
        "description": "Stripped from the EMA results (MERS 4.3: withdrew ill); the standings keep them."})
    fixed_table = fields.Integer(allow_none=True, metadata={"description": FIXED_TABLE_DESCRIPTION})


class PlayerListSchema(Schema):
    players = fields.List(fields.Nested(PlayerSchema))


# ----------------------------------------------------------------------------- sessions


class DrawInSchema(BodySchema):
    seed = StrictInteger(allow_none=True, validate=validate.Range(min=0, max=MAX_SEED))
    method = fields.String(validate=validate.OneOf(["balanced", "swiss"]), metadata={
        "description": "`balanced` (default): no repeat opponents, teams apart and seat winds balanced, looking "
                       "ahead at the sessions to come. `swiss`: by the standings, ranks 1-4 at table 1, 5-8 at "
                       "table 2 ... (repeats allowed); ties by a lot from the seed."})
    keep_apart = StrictBoolean(metadata={
        "description": "With `swiss`: swaps with the nearest groups so that no table seats teammates and as few as "
                       "possible seat players who met before. Default false: strict (a final)."})


class PlanInSchema(BodySchema):
    seed = StrictInteger(allow_none=True, validate=validate.Range(min=0, max=MAX_SEED), metadata={
        "description": "The plan's seed (recorded; random when left out or null)."})


class ReplanInSchema(BodySchema):
    apply = StrictBoolean(metadata={"description": "true: store the re-plan; false (default): only say whom it "
                                                   "would move."})
    expected_moved = StrictInteger(allow_none=True, validate=validate.Range(min=0, max=MAX_ID), metadata={
        "description": "With `apply`: the `moved` of the answer without it; another count now is a 409."})


class WithdrawInSchema(BodySchema):
    note = fields.String(allow_none=True, validate=validate.Length(max=200), metadata=documented(pattern=ONE_LINE))


class EmaResultInSchema(BodySchema):
    left_out = StrictBoolean(required=True, metadata={
        "description": "true: leave the (withdrawn) player out of the EMA results (MERS 4.3); false: put back."})


class FixedTableInSchema(BodySchema):
    fixed_table = StrictInteger(required=True, allow_none=True, metadata=documented(
        minimum=1, maximum=MAX_FIXED_TABLE, description=(
            "The table number the player keeps in every draw and plan (access needs), or null for none: from 1 "
            "to the tournament's number of tables (one per four players registered or present), and one player "
            "per table, else a 400 naming `fixed_table`.")))


class DisqualifyInSchema(BodySchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata=documented(pattern=ONE_LINE_NOT_BLANK))


class SeatSchema(Schema):
    wind = fields.String(metadata={"description": "E, S, W or N: the starting seat."})
    player_id = fields.Integer()


class TableSeatingSchema(Schema):
    table = fields.Integer()
    seats = fields.List(fields.Nested(SeatSchema))


class QualitySchema(Schema):
    repeat_pairs = fields.List(fields.List(fields.Integer()), metadata={
        "description": "[player, player, meetings] for each pair at this session's tables meeting again."})
    teammate_tables = fields.List(fields.Integer(), metadata={
        "description": "Tables of this session seating two or more members of one team (club)."})
    winds_balanced = fields.Boolean(metadata={
        "description": "Every player's seat winds within floor/ceil of the sessions they played so far."})


class SessionSchema(Schema):
    session = fields.Integer()
    status = fields.String(metadata={"description": "draft, published, in_play or finished"})
    seed = fields.Integer()
    planned_start = fields.String(allow_none=True, metadata={
        "description": "When the session is planned to start: ISO 8601 with the tournament's UTC offset "
                       "(2026-05-16T10:00:00+03:00); null when no time is planned."})
    tables = fields.List(fields.Nested(TableSeatingSchema))


# ----------------------------------------------------------------------------- hands


class FalseMahjongInSchema(BodySchema):
    player_id = StrictInteger(required=True, validate=ID)
    hand = fields.String(allow_none=True, validate=validate.Length(max=120))
    kind = fields.String(allow_none=True, validate=validate.OneOf(["under_minimum", "not_winning"]))
    # the claim's win context, as a win's: the engine checks `hand` under it (flowers never count)
    self_drawn = StrictBoolean()
    last_tile = StrictBoolean()
    wall_last = StrictBoolean()
    kong = StrictBoolean()


class HandInSchema(BodySchema):
    number = StrictInteger(required=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION))
    result = fields.String(required=True, validate=validate.OneOf(["win", "draw", "not_scored"]), metadata={
        "description": "not_scored: only to correct the hand a stop-immediately time call stopped, with the "
                       "false mahjongs made in it before the gong (they pay; the hand itself does not)."})
    winner_id = StrictInteger(allow_none=True, validate=ID)
    discarder_id = StrictInteger(
        allow_none=True, validate=ID, metadata={"description": "Absent or null: self-drawn."}
    )
    hand = fields.String(allow_none=True, validate=validate.Length(max=120),
                         metadata={"description": "The winning hand in the project's notation."})
    flowers = StrictInteger(validate=validate.Range(min=0, max=MAX_FLOWERS))
    last_tile = StrictBoolean()
    wall_last = StrictBoolean()
    kong = StrictBoolean()
    false_mahjongs = fields.List(fields.Nested(FalseMahjongInSchema))
    ruled_points = StrictInteger(allow_none=True, metadata={
        "description": "A referee's ruling on a win's points (8 to the engine's fan points), paid instead of the "
                       "engine's count, which stays recorded; `ruling` says why. Outside that range: 422."})
    ruling = fields.String(allow_none=True, validate=validate.Length(max=500), metadata=documented(
        pattern=ONE_LINE, description="The ruling's text; required with `ruled_points`."))


class HandCorrectionInSchema(HandInSchema):
    number = StrictInteger(validate=validate.Range(min=1, max=HANDS_PER_SESSION),
                           metadata={"description": "Defaults to the hand number of the URL."})
    version = StrictInteger(validate=ID, metadata={"description": "The version read: a stale one is a 409."})


class VersionInSchema(BodySchema):
    version = StrictInteger(validate=ID, metadata={"description": "The version read: a stale one is a 409."})


class FanSchema(Schema):
    name = fields.String(metadata={"description": "As in fans.csv; flowers as 'Flower Tiles'."})
    points = fields.Integer()
    count = fields.Integer()


class FalseMahjongSchema(Schema):
    player_id = fields.Integer()
    kind = fields.String()
    hand = fields.String(allow_none=True)
    amount = fields.Integer()


class HandSchema(Schema):
    id = fields.Integer()
    number = fields.Integer()
    result = fields.String()
    winner_id = fields.Integer(allow_none=True)
    discarder_id = fields.Integer(allow_none=True)
    self_drawn = fields.Boolean()
    hand = fields.String(allow_none=True)
    flowers = fields.Integer()
    last_tile = fields.Boolean()
    wall_last = fields.Boolean()
    kong = fields.Boolean()
    fans = fields.List(fields.Nested(FanSchema))
    fan_points = fields.Integer(metadata={"description": "The engine's fan points, flowers not counted."})
    ruled_points = fields.Integer(allow_none=True, metadata={
        "description": "The referee's ruled points, paid instead of `fan_points`; null without a ruling."})
    ruling = fields.String(allow_none=True)
    total = fields.Integer(metadata={"description": "The points paid (ruled or the engine's) plus flowers."})
    payments = fields.Dict(keys=fields.String(), values=fields.Integer(),
                           metadata={"description": "Score change per player id, false mahjongs included."})
    false_mahjongs = fields.List(fields.Nested(FalseMahjongSchema))
    version = fields.Integer()
    status = fields.String(metadata=documented(enum=["pending", "confirmed", "disputed"], description=(
        "`confirmed`: all four players at the hand confirmed it (or a referee ruled it stands; in the `players` "
        "entry mode, staff entered or corrected it: the referee's word); `disputed`: a player's dispute is open; "
        "else `pending`. In the `referee` mode a staff correction starts confirmation afresh.")))
    confirmed_by = fields.List(fields.Integer(), metadata={"description": "Ids of the players who confirmed it."})


class HandListSchema(Schema):
    hands = fields.List(fields.Nested(HandSchema))


# ----------------------------------------------------------------------------- players at the table


class PlayerLinkSchema(Schema):
    token = fields.String(metadata={"description": "The player's private token (256 bits, URL-safe)."})
    url = fields.String(metadata={"description": "The player's page: opens with no login."})


class DisputeSchema(Schema):
    id = fields.Integer()
    table = fields.Integer()
    hand = fields.Integer()
    player_id = fields.Integer()
    reason = fields.String()
    opened_at = fields.String()
    hand_status = fields.String()


class DisputeListSchema(Schema):
    disputes = fields.List(fields.Nested(DisputeSchema))


class DisputeInSchema(BodySchema):
    reason = fields.String(required=True, validate=validate.Length(max=500),
                           metadata=documented(pattern=LINES_NOT_BLANK))


class PlayerViewSchema(Schema):
    player = fields.Dict(metadata={"description": "The link's player (as the players list gives one)."})
    tournament = fields.Dict(metadata={"description": "id, name, entry_mode, ruleset."})
    session = fields.Integer(allow_none=True, metadata={
        "description": "The session in play, else the next published, else the last published; null before any."})
    table = fields.Integer(allow_none=True, metadata={"description": "The player's table in that session."})
    seat_wind = fields.String(allow_none=True, metadata={
        "description": "The player's seat wind for the next hand of their table (E, S, W, N)."})
    hands = fields.List(fields.Nested(HandSchema))


# ----------------------------------------------------------------------------- penalties


class CallPenaltyInSchema(BodySchema):
    player_id = StrictInteger(required=True, validate=ID)
    amount = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_ID),
                           metadata=documented(maximum=MAX_PENALTY, description="0 is a warning."))
    foul = fields.String(allow_none=True, validate=validate.Length(max=60))


class RefereeCallInSchema(BodySchema):
    situation = fields.String(required=True, validate=validate.Length(max=500), metadata=documented(
        pattern=ONE_LINE_NOT_BLANK, description="What happened, as the referee heard it."))
    hand = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION))
    called_by = StrictInteger(allow_none=True, validate=ID, metadata={
        "description": "The player (of this table) who called the referee."})
    ruling = fields.String(allow_none=True, validate=validate.Length(max=500), metadata=documented(pattern=ONE_LINE))
    dead_hand_player_id = StrictInteger(allow_none=True, validate=ID, metadata={
        "description": "A player of this table whose hand the referee declared dead in `hand` (required then)."})
    penalty = fields.Nested(CallPenaltyInSchema, allow_none=True, metadata={
        "description": "A penalty or warning given at the call, to a player of this table."})


class RefereeCallSchema(Schema):
    id = fields.Integer()
    session = fields.Integer()
    table = fields.Integer()
    hand = fields.Integer(allow_none=True)
    called_by = fields.Integer(allow_none=True)
    situation = fields.String()
    ruling = fields.String()
    dead_hand_player_id = fields.Integer(allow_none=True)
    penalty_id = fields.Integer(allow_none=True)
    created_at = fields.String()
    created_by = fields.String()


class RefereeCallListSchema(Schema):
    calls = fields.List(fields.Nested(RefereeCallSchema))


class PenaltyInSchema(BodySchema):
    player_id = StrictInteger(required=True, validate=ID)
    session = StrictInteger(required=True, validate=ID)
    amount = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_ID),
                           metadata=documented(maximum=MAX_PENALTY,
                                               description="Points deducted; 0 is a warning (no score changes)."))
    foul = fields.String(allow_none=True, validate=validate.Length(max=60), metadata={
        "description": "One of the tournament's foul types (`foul_types`); the ladder counts per foul."})
    reason = fields.String(required=True, validate=validate.Length(max=500),
                           metadata=documented(pattern=ONE_LINE_NOT_BLANK))
    hand = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION))


class CancelPenaltyInSchema(BodySchema):
    reason = fields.String(required=True, validate=validate.Length(max=500),
                           metadata=documented(pattern=ONE_LINE_NOT_BLANK))


class PenaltySchema(Schema):
    id = fields.Integer()
    player_id = fields.Integer()
    session = fields.Integer()
    hand = fields.Integer(allow_none=True)
    amount = fields.Integer()
    warning = fields.Boolean(metadata={"description": "amount 0: a warning."})
    foul = fields.String(allow_none=True)
    reason = fields.String()
    given_by = fields.String(allow_none=True)
    given_at = fields.String(metadata={"description": "UTC, ISO 8601."})
    cancelled = fields.Boolean()
    cancelled_at = fields.String(allow_none=True, metadata={"description": "UTC, ISO 8601."})
    cancel_reason = fields.String(allow_none=True)


# ----------------------------------------------------------------------------- standings


class SessionResultSchema(Schema):
    session = fields.Integer()
    table_points = fields.Float(metadata={"description": "Exact to two decimals (7/3 is 2.33)."})
    score = fields.Integer()


class StandingRowSchema(Schema):
    rank = fields.Integer(metadata={"description": "Players equal on everything share a rank: 1, 2, 2, 4."})
    player_id = fields.Integer()
    name = fields.String()
    country = fields.String()
    table_points = fields.Float()
    score = fields.Integer()
    sessions = fields.List(fields.Nested(SessionResultSchema))


class StandingsSchema(Schema):
    rows = fields.List(fields.Nested(StandingRowSchema))


def first_error(messages: Any, path: tuple[str, ...] = ()) -> tuple[str | None, str]:
    """(field path, message) of the first problem in marshmallow's nested error messages."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            return first_error(value, (*path, str(key)))
    if isinstance(messages, list) and messages:
        return first_error(messages[0], path)
    field = ".".join(p for p in path if p != "_schema") or None
    return field, str(messages)


__all__ = ["ValidationError", "first_error"]


class DrawnSessionSchema(SessionSchema):
    quality = fields.Nested(QualitySchema, metadata={"description": "What the draw could not avoid."})


class PlanSchema(Schema):
    sessions = fields.List(fields.Nested(SessionSchema))


class ReplanSessionSchema(Schema):
    session = fields.Integer()
    moved = fields.List(fields.Integer(), metadata={"description": "Players who would sit (or now sit) at another "
                                                                   "table."})


class ReplanSchema(Schema):
    sessions = fields.List(fields.Nested(ReplanSessionSchema))
    moved = fields.Integer(metadata={"description": "Players who change table in some session."})
    applied = fields.Boolean()
