"""The browser files of Abluxxen, served by the game server at /games/abluxxen/ (GameInfo.web),
as a plugin's are: the game's module (abluxxen.js), the rules it reads to offer a decision
(abluxxen-rules.js), its styles (abluxxen.css) and its rules page's data (rules.<lang>.json)."""
