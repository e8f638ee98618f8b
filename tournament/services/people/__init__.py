"""Who takes part: accounts, invitations, password resets, player links, tournaments and their staff, registration."""
