"""The bot roster: named presets (one TOML file each), read by ardsearch.load_bot."""
