"""A player's own page, opened by their private link: their table, confirmations, disputes and (players' entry) the hand form."""
