"""A trained policy as a bot: `ppo` plays Abluxxen with the multilayer perceptron that
`python -m cardtable.rl.train` (make train) trained with MaskablePPO, run in numpy, so playing
needs neither torch nor the rl extra.

The policy file (`.npz`, default: the game's own, `abluxxen/policies/ppo-basic-4p.npz`) holds the policy
network's layers `pi.0.weight`, `pi.0.bias`, ... (tanh after each, or ReLU where `meta["activation"]`
is "relu"), the output layer
`action.weight`, `action.bias` (one logit per action id of rl/codec.py) and `meta` (JSON: game,
variant, players, training settings). The bot reads the seat's view only (`state` is the
determinization `bots.act` hands it), encodes it with the codec, and plays the legal action of
highest logit (deterministic; `sample=True` samples from the masked softmax with its seed).

    cardtable tournament --game abluxxen --bots ppo,greedy,greedy,greedy --duplicate --games 2000
    make_bot("ppo", model="path/to/policy.npz")

The bot `learned` is the same player with the game's own `learned-*.npz` (Abluxxen's: imitation
of the heuristic bot, then PPO against the medium level, make train-strong; Kombio's: imitation,
make train-learned), docs/training.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cardtable.bots.base import Bot
# the shipped policy files of `ppo` and `learned` (in each game's package) are found by
# bots/trained.py, so the lobby can tell which game a policy plays without importing this package
from cardtable.bots.trained import file_plays, policy_file
from cardtable.core import registry
from cardtable.core.errors import ConfigError
from cardtable.core.game import Decision, GameState
from cardtable.rl.codec import make_codec



class MlpPolicy:
    """The numpy copy of a trained policy network (see the module docstring)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]],
                 action: tuple[np.ndarray, np.ndarray], meta: dict):
        self.layers = layers
        self.action = action
        self.meta = meta

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32)
        relu = self.meta.get("activation", "tanh") == "relu"
        for w, b in self.layers:
            x = x @ w.T + b
            x = np.maximum(x, 0) if relu else np.tanh(x)
        w, b = self.action
        return x @ w.T + b

    def save(self, path: str | Path) -> None:
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"pi.{i}.weight"], arrays[f"pi.{i}.bias"] = w, b
        arrays["action.weight"], arrays["action.bias"] = self.action
        arrays["meta"] = np.array(json.dumps(self.meta))
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "MlpPolicy":
        try:
            data = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise ConfigError(f"cannot read the policy file {str(path)!r}: {e}") from None
        with data:
            n = sum(1 for k in data.files if k.startswith("pi.") and k.endswith(".weight"))
            layers = [(data[f"pi.{i}.weight"], data[f"pi.{i}.bias"]) for i in range(n)]
            action = (data["action.weight"], data["action.bias"])
            meta = json.loads(str(data["meta"]))
        return cls(layers, action, meta)


_CACHE: dict[str, MlpPolicy] = {}


def new_policy_file(bot: str, game: str | None, variant: str | None, players: int) -> Path:
    """Where training writes the policy of `bot` for `game` (None: the first registered),
    `variant` (None: its first) and `players`: `<bot>-<variant>-<players>p.npz` in the game's
    `policies` package. ConfigError if the game keeps none (then give a file)."""
    info = registry.info(game) if game else registry.games()[0]
    if info.policies is None:
        raise ConfigError(f"{info.title} keeps no trained policies (GameInfo.policies): "
                          "give the file to write")
    from importlib import resources

    folder = Path(str(resources.files(info.policies)))
    return folder / f"{bot}-{info.variant(variant).name}-{players}p.npz"


def load_policy(path: str | Path | None = None, bot: str = "ppo") -> MlpPolicy:
    """The policy in the file `path` (None: the shipped one of `bot`), read once."""
    path = path or policy_file(bot)
    if path is None:
        raise ConfigError(f"no policy file of {bot!r} (make train writes one)")
    key = str(Path(path).resolve())
    if key not in _CACHE:
        if not Path(key).exists():
            raise ConfigError(f"no policy file {key!r} (make train writes one)")
        _CACHE[key] = MlpPolicy.load(key)
    return _CACHE[key]


class PolicyBot(Bot):
    """The bot `ppo` (module docstring). Settings: `model` (a policy file), `sample`."""

    name = "ppo"

    def __init__(self, seed: int = 0, model: str | None = None, sample: bool = False):
        super().__init__(seed)
        self.model = model
        self.policy = load_policy(model, self.name)
        self.sample = bool(sample)
        self._codecs: dict[tuple, object] = {}

    @classmethod
    def plays(cls, game: str, players: int | None = None) -> bool:
        # the game's own policy file (none: it plays nothing there)
        return file_plays(policy_file(cls.name, game), game, players)

    def choose(self, state: GameState) -> Decision:
        meta = self.policy.meta
        if state.game != meta["game"] and self.model is None \
                and (own := policy_file(self.name, state.game)) is not None:
            self.policy = load_policy(own)                  # the game's own shipped policy
            meta = self.policy.meta
        if state.game != meta["game"]:
            raise ConfigError(f"the policy plays {meta['game']}, not {state.game}")
        key = (state.game, state.players)
        codec = self._codecs.get(key)
        if codec is None:
            codec = self._codecs[key] = make_codec(state.game, state.players,
                                                   **meta.get("codec", {}))
        view = state.view(state.to_move)
        legal = codec.legal(state, view)
        ids = sorted(legal)
        logits = self.policy.logits(codec.encode(view))[ids]
        if self.sample:
            p = np.exp(logits - logits.max())
            p /= p.sum()
            r = self.rng.below(1 << 30) / (1 << 30)
            i = min(int(np.searchsorted(np.cumsum(p), r, side="right")), len(ids) - 1)
        else:
            i = int(np.argmax(logits))
        return legal[ids[i]]


class LearnedBot(PolicyBot):
    """The bot `learned`: the same player as `ppo` (PolicyBot) with the game's own trained
    policy (rl/imitate.py, rl/finetune.py; docs/training.md). Settings: `model`, `sample`."""

    name = "learned"
