"""Memory as the user sees it: browser, review queue, inbox, graph, lint."""
