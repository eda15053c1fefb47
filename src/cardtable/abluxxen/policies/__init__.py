"""Abluxxen's trained policy files, played by the bots `ppo` (`ppo-basic-4p.npz`, make train)
and `learned` (`learned-basic-4p.npz`, make train-strong: imitation, then PPO against the
medium level): see bots/trained.py."""
