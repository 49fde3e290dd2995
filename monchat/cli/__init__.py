"""The terminal face of monchat: ``main`` builds the parser; one module per command family."""
