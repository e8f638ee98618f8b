"""What the play adds up to: standings, ranking, progress, statistics."""
