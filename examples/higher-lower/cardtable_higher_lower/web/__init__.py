"""The browser files of Higher or Lower, served by cardtable's server at /games/higher_lower/:
the game's module (higher_lower.js), its styles (higher_lower.css) and its rules page's data
(rules.<lang>.json)."""
