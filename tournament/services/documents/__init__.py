"""What leaves the house: exports, the EMA pack, calendars, backups, the demo."""
