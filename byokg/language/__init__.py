"""Language: question analysis and text helpers (what the question's words are)."""
