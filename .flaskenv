# Read by the flask command (python-dotenv): `flask db upgrade`, `flask users ...` need no --app.
FLASK_APP=app.py
