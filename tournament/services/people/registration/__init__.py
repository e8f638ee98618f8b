"""Registering players, the check-in desk, CSV import/export and teams.

Plain arguments in, plain results out, writes flushed, committed once by the caller (the request or the
command). Who is in the next draw: `active_players` (present, not substitutes) and `available_substitutes`
(present substitutes); withdrawals and late arrivals therefore feed the next draw as soon as their status
changes.

One job per module: `players` (one player: validation, add, edit, lookup), `statuses` (the status table
and the desk's moves), `lists` (search, name order, teams, counts), `csv_io` (import and export),
`countries` (ISO codes and names). Callers import them all from here.
"""

from tournament.services.people.registration.countries import country_code, country_name, country_names
from tournament.services.people.registration.csv_io import (
    CSV_COLUMNS,
    IMPORT_COLUMNS,
    MAX_IMPORT_ROWS,
    REQUIRED_COLUMNS,
    CsvPreview,
    CsvRow,
    decode_csv,
    export_csv,
    import_csv,
    parse_csv,
)
from tournament.services.people.registration.lists import (
    active_players,
    available_substitutes,
    by_name,
    counts,
    fold,
    list_players,
    matches,
    name_order,
    search_text,
    sort_key,
    team_members,
)
from tournament.services.people.registration.players import (
    LIMITS,
    PlayerData,
    add_player,
    duplicate_problems,
    get_player,
    players_of,
    set_fixed_table,
    table_count,
    update_player,
    validate,
)
from tournament.services.people.registration.statuses import (
    STATUS_LABELS,
    TRANSITIONS,
    can_move,
    check_in,
    disqualify,
    disqualify_player,
    leave_out_of_ema,
    reinstate,
    set_status,
    undo_check_in,
    withdraw,
    withdraw_absent,
)

__all__ = [
    "CSV_COLUMNS",
    "IMPORT_COLUMNS",
    "LIMITS",
    "MAX_IMPORT_ROWS",
    "REQUIRED_COLUMNS",
    "STATUS_LABELS",
    "TRANSITIONS",
    "CsvPreview",
    "CsvRow",
    "PlayerData",
    "active_players",
    "add_player",
    "available_substitutes",
    "by_name",
    "can_move",
    "check_in",
    "counts",
    "country_code",
    "country_name",
    "country_names",
    "decode_csv",
    "disqualify",
    "disqualify_player",
    "withdraw_absent",
    "duplicate_problems",
    "export_csv",
    "fold",
    "get_player",
    "import_csv",
    "list_players",
    "matches",
    "name_order",
    "parse_csv",
    "players_of",
    "leave_out_of_ema",
    "reinstate",
    "search_text",
    "set_fixed_table",
    "set_status",
    "sort_key",
    "table_count",
    "team_members",
    "undo_check_in",
    "update_player",
    "validate",
    "withdraw",
]
