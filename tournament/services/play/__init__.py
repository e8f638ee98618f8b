"""At the tables: the session base (session.py), scoring, the hand check, score changes, time calls, the clock, penalties, referee calls, confirmations, appeals."""
