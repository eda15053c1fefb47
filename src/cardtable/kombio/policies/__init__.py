"""Kombio's trained policy file, played by the bot `learned` (`learned-basic-4p.npz`, make
train-learned with `--game kombio`): see bots/trained.py."""
