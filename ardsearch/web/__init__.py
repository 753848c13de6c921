"""The browser front end (`ardsearch serve`): see server.py."""
