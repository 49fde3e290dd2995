"""Surface and filter personas: their records, the persona library, SillyTavern cards."""
