"""The terminal front end: `cardtable play` and `cardtable replay` (typer + rich + prompt_toolkit)."""
