"""Abluxxen's trained policy files, played by the bots `ppo` (`ppo-basic-4p.npz`, make train)
and `learned` (`learned-basic-4p.npz`, make train-learned): see bots/trained.py."""
