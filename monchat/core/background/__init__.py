"""The background track (DESIGN §7a): interest profile, reflect's inbox, diary, knowledge gaps."""
