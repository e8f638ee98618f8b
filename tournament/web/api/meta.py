"""What the API says about itself: the version of the software answering.

    GET /api/v1/version    {"version": "0.1.0", "api": "v1"}: no token needed (a monitor, a client checking
                           what it talks to; the pages' footer shows the same version)
"""

from __future__ import annotations

from marshmallow import Schema, fields

from tournament.version import __version__
from tournament.web.api.common import api_blueprint

API_VERSION = "v1"

bp = api_blueprint("api_meta", "The software answering: its version.", bearer=False)


class VersionSchema(Schema):
    version = fields.String(required=True, metadata={
        "description": "The app's version (the wheel's, `mcr-tournament --version`), as in every page's footer.",
        "example": __version__})
    api = fields.String(required=True, metadata={"description": "The API's version: the paths' prefix, /api/v1.",
                                                 "example": API_VERSION})


@bp.route("/version", methods=["GET"])
@bp.doc(security=[])
@bp.response(200, VersionSchema)
def get_version():
    """The version of the software answering. Needs no token; it reads nothing of the database, so it also
    tells a health check that the app is up."""
    return {"version": __version__, "api": API_VERSION}
