"""codemode package."""
