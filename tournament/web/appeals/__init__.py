"""The staff's Appeals page: file a player's appeal, decide it (services.play.appeals)."""
