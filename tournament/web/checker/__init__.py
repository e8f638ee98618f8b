"""The public hand checker: a page and a JSON endpoint that score a hand with the fan engine."""
