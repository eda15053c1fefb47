"""The browser files of Kombio, served by the game server at /games/kombio/ (GameInfo.web), as a
plugin's are: the game's module (kombio.js), its styles (kombio.css) and its rules
page's data (rules.<lang>.json)."""
