"""Who sits where: draws, a session's life (lifecycle), the schedule, substitutions."""
