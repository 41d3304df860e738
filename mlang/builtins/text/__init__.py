"""Text: string functions, regular expressions, sprintf and printing."""
