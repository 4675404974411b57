"""KG-Linker prompt templates (versioned text files)."""
