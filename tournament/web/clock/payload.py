"""The clock as JSON, one shape for the API, the projector and the referee board (the API contract)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from tournament.services.play.clock import BoardRow, ClockState


def iso_utc(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with its offset, to the millisecond (the projector corrects its clock with it)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC).isoformat(timespec="milliseconds")


def clock_json(clock: ClockState) -> dict[str, Any]:
    return {
        "state": clock.state,
        "duration_seconds": clock.duration_seconds,
        "remaining_seconds": clock.remaining_seconds,
        "ends_at": iso_utc(clock.ends_at),
        "warning": clock.warning,
        "server_time": iso_utc(clock.server_time),
        "tables": [
            {"table": row.table, "extra_seconds": row.extra_seconds, "remaining_seconds": row.remaining_seconds,
             "time_called": row.time_called, "hand_in_progress": row.hand_in_progress}
            for row in clock.tables
        ],
    }


def board_json(clock: ClockState, rows: list[BoardRow]) -> dict[str, Any]:
    """The clock plus every table's progress, in the board's order (tables needing a referee first)."""
    return {
        "clock": clock_json(clock),
        "tables": [
            {"table": row.table, "mode": row.mode, "entered": row.entered, "last_hand": row.last_hand,
             "current_hand": row.current_hand, "extra_seconds": row.clock.extra_seconds,
             "remaining_seconds": row.clock.remaining_seconds, "over_time": row.over_time,
             "time_called": row.clock.time_called, "hand_in_progress": row.clock.hand_in_progress,
             "needs_referee": row.needs_referee, "reason": str(row.reason), "disputed": row.disputed,
             "unconfirmed": row.unconfirmed,
             "disputes": [{"hand": d.hand, "player_id": d.player_id, "reason": d.reason} for d in row.disputes]}
            for row in rows
        ],
    }


def board_key(rows: list[BoardRow]) -> str:
    """What the referee board shows of its tables but the seconds counting down (their order, reasons, hands,
    extra time, time calls, disputes), as a short digest: the board's page redraws itself when it changes."""
    shown = [[row.table, str(row.reason), row.entered, row.current_hand, row.clock.extra_seconds,
              row.clock.time_called, row.clock.hand_in_progress, row.needs_referee, row.over_time,
              [[d.hand, d.player_id, d.reason] for d in row.disputes]] for row in rows]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]
