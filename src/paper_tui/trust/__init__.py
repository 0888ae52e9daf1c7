"""The trust boundary's helpers: text made inert for a terminal, gzip and XML
read within bounds, lone surrogates written escaped, files written atomically."""
