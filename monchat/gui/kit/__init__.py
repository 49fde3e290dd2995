"""Small widgets and helpers every window shares: scroll pages, colours checked for contrast, icons."""
