"""What the venue says about a paper: its names, its signals (decision, ratings,
area, citations, links), their text in a line and their cells in a table."""
