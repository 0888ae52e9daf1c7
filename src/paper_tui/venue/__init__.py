"""What the venue says about a paper: its names, signals, text and cells."""
