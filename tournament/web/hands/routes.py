"""Score entry for referees and organisers: sessions in play, table pages, hands, totals, penalties.

One blueprint, `hands` (`common.bp`), its views in one module per kind of work:
    sessions.py   GET   /manage/tournaments/<id>/play                          sessions to score
                  GET   /manage/tournaments/<id>/play/<n>                      a session: its tables, the check
                  POST  /manage/tournaments/<id>/play/<n>/start                publish if needed, start play
                  POST  /manage/tournaments/<id>/play/<n>/finish               close (after the check)
                  POST  /manage/tournaments/<id>/play/<n>/reopen               reopen a closed session
                  GET   /manage/tournaments/<id>/play/<n>/history              every change (organisers)
    hands.py      GET   /manage/tournaments/<id>/play/<n>/tables/<t>           the table page
                  GET|POST .../tables/<t>/hands/new                            enter a hand
                  GET|POST .../tables/<t>/hands/<k>/edit                       correct a hand
                  POST  .../tables/<t>/hands/<k>/delete                        delete a hand
                  POST  .../tables/<t>/hands/<k>/stands                        a referee: the hand stands
    totals.py     GET|POST .../tables/<t>/totals                               totals-only table
                  POST  .../tables/<t>/totals/clear                            back to hand by hand
    calls.py      POST  .../tables/<t>/substitutions                           a substitute comes in
                  POST  .../tables/<t>/calls                                   a referee's call logged
    penalties.py  GET|POST /manage/tournaments/<id>/play/penalties             penalties: list, give
                  POST  /manage/tournaments/<id>/play/penalties/<pid>/cancel   cancel one
The hand form's page (`hand_form.py`, shared with the players' page) and the blueprint with what the modules
share (`common.py`) are beside them; importing this module adds every route to the blueprint.
"""

from __future__ import annotations

from tournament.web.hands import calls, hands, penalties, sessions, totals
from tournament.web.hands.common import bp

VIEWS = (sessions, hands, totals, calls, penalties)  # imported for the routes they add to `bp`

__all__ = ["VIEWS", "bp"]
