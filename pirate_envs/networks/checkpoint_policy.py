"""Policies backed by a trained MaskablePPO network: :class:`NetworkPolicy` and :class:`CheckpointPolicy`.

``CheckpointPolicy(path)`` loads an sb3-contrib ``MaskablePPO`` zip on the CPU and plays the
masked policy: the arg-max legal action (``deterministic=True``, the default) or a draw from the
masked action distribution made with the caller's ``rng`` (so games stay reproducible).
``NetworkPolicy`` does the same for a model already in memory (the training loop evaluates its
live model with it). torch and sb3_contrib are imported only when a checkpoint is loaded, so
``pirate_envs`` itself needs neither. Loaded networks are cached by path and file version, so
self-play pools and evaluation reuse them.

:class:`SignedLogFeatures` (built on first access, as it needs torch) is the features extractor the
training configs use: ``sign(x) * log(1 + |x|)`` of the flat observation, which keeps raw counts
(cards left, fame, turn numbers) in a range a small network trains well on. It lives here so that
every checkpoint that uses it loads wherever ``pirate_envs`` is installed.

:func:`model_spaces` reads the observation shape and action count a model zip records, without torch: what
training checks before a resume and the arena reads to offer an agent only where it can play.
"""

from __future__ import annotations

import json
import zipfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs._moved import quietly_moved
from pirate_envs.policies.base import check_spaces, legal_indices

_CACHE_SIZE = 64
_network_cache: OrderedDict[tuple[str, int, int], Any] = OrderedDict()


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: unreadable, or made for another game shape."""


class CheckpointNotFoundError(CheckpointError, FileNotFoundError):
    """The checkpoint path names no file."""


class NetworkPolicy:
    """Plays the masked action distribution of an SB3 actor-critic policy network.

    When the actor is a plain MLP (flatten features, Linear/Tanh/ReLU layers, linear action head —
    what ``MlpPolicy`` builds), its weights are copied into numpy at construction and single
    observations are scored without torch, which is ~10x faster at batch size 1; the copy means
    later training of ``network`` is not seen. Other architectures run through torch.
    """

    def __init__(self, network: Any, deterministic: bool = True, name: str = "network") -> None:
        self.network = network
        self.deterministic = deterministic
        self.name = name
        self.num_actions: int = int(network.action_space.n)
        self._layers, self._input_transform = _numpy_actor(network)
        # the rows the network reads (an action-feature network that computes its features from the mask
        # still reads observation + features: ActionFeaturePolicy.input_shape)
        self._input_shape = tuple(getattr(network, "input_shape", network.observation_space.shape))
        self._flat_size = int(np.prod(self._input_shape))
        # An action-feature network (networks/action_feature_policy.py) is given the seat's plain
        # observation and mask and builds its input itself.
        self._augment = getattr(network, "augment", None)
        if self._augment is not None:
            self.observation_shape: tuple[int, ...] = tuple(network.game.observation_shape)
        else:
            self.observation_shape = tuple(network.observation_space.shape)

    def check_compatible(self, observation_shape: tuple[int, ...], num_actions: int, where: str = "") -> None:
        """Raise :class:`CheckpointError` when this network was trained for other spaces."""
        problem = check_spaces(
            self.name, (self.observation_shape, self.num_actions), (observation_shape, num_actions), where
        )
        if problem:
            raise CheckpointError(problem)

    def action_logits(self, observations: np.ndarray) -> np.ndarray:
        """Unmasked action logits, shape (batch, num_actions), for a batch of network inputs
        (:meth:`network_input`: the observations themselves unless the network uses action features)."""
        batch = np.asarray(observations, dtype=np.float32).reshape(-1, self._flat_size)
        if self._layers is not None:
            hidden = batch if self._input_transform is None else self._input_transform(batch)
            for weight, bias, activation in self._layers:
                hidden = hidden @ weight
                hidden += bias
                if activation is not None:
                    hidden = activation(hidden)
            return hidden
        import torch

        network = self.network
        with torch.no_grad():
            tensor = torch.as_tensor(batch.reshape(-1, *self._input_shape))
            features = network.pi_features_extractor(tensor)
            latent = network.mlp_extractor.forward_actor(features)
            logits = network.action_net(latent)
        return logits.numpy()

    def choose(self, logits: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        legal_logits = logits[legal].astype(np.float64)
        if self.deterministic:
            return int(legal[int(np.argmax(legal_logits))])
        weights = np.exp(legal_logits - legal_logits.max())
        cumulative = np.cumsum(weights)
        pick = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
        return int(legal[min(pick, legal.size - 1)])

    def network_input(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The network's input rows for a batch of plain observations and their masks."""
        observations = np.asarray(observations, dtype=np.float32).reshape(-1, *self.observation_shape)
        if self._augment is None:
            return observations
        masks = np.asarray(action_masks).reshape(len(observations), -1)
        return np.stack([self._augment(o, m) for o, m in zip(observations, masks, strict=True)])

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        return self.choose(self.action_logits(self.network_input(observation, action_mask))[0], action_mask, rng)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray, rng: np.random.Generator) -> list[int]:
        """One action per row; a single forward pass for the whole batch, and the choices made for all
        rows at once: the same actions, from the same draws of ``rng``, as :meth:`choose` row by row."""
        logits = self.action_logits(self.network_input(observations, action_masks))
        return self.choose_batch(logits, np.asarray(action_masks, dtype=bool).reshape(logits.shape), rng)

    def choose_batch(self, logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> list[int]:
        """:meth:`choose` for every row of ``logits`` (masks of the same shape, each row with a legal action).

        Illegal entries get weight exactly 0, so the running sums over all actions equal those over the
        legal ones (adding 0.0 changes no bit), and ``rng.random(n)`` gives the ``n`` draws of ``n`` calls.
        """
        if not masks.any(axis=1).all():
            raise ValueError("an action mask allows no action: that seat is not to act")
        masked = np.where(masks, logits.astype(np.float64), -np.inf)
        if self.deterministic:
            return np.argmax(masked, axis=1).tolist()
        weights = np.exp(masked - masked.max(axis=1, keepdims=True))
        cumulative = np.cumsum(weights, axis=1)
        targets = rng.random(len(masked)) * cumulative[:, -1]
        picks = (cumulative <= targets[:, None]).sum(axis=1)
        last_legal = masks.shape[1] - 1 - np.argmax(masks[:, ::-1], axis=1)
        return np.minimum(picks, last_legal).tolist()

    def __repr__(self) -> str:
        return f"NetworkPolicy({self.name}, deterministic={self.deterministic})"


class CheckpointPolicy(NetworkPolicy):
    """A MaskablePPO checkpoint (``.zip``) as a policy; see the module docstring."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        self.path = Path(path)
        super().__init__(load_network(self.path), deterministic=deterministic, name=f"checkpoint {self.path}")

    def __repr__(self) -> str:
        return f"CheckpointPolicy({str(self.path)!r}, deterministic={self.deterministic})"

    def __reduce__(self):
        # Pickle by path (subprocess vec envs): the network is reloaded, from the cache when possible.
        return (CheckpointPolicy, (str(self.path), self.deterministic))


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def signed_log(x: np.ndarray) -> np.ndarray:
    """``sign(x) * log(1 + |x|)``, elementwise (the numpy twin of :class:`SignedLogFeatures`)."""
    return np.sign(x) * np.log1p(np.abs(x))


def _define_signed_log_features() -> type:
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class SignedLogFeatures(BaseFeaturesExtractor):
        """Flat observation squashed by ``sign(x) * log(1 + |x|)`` (0 -> 0, 1 -> 0.69, 50 -> 3.9)."""

        def __init__(self, observation_space: Any) -> None:
            super().__init__(observation_space, int(np.prod(observation_space.shape)))

        def forward(self, observations: torch.Tensor) -> torch.Tensor:
            flat = torch.flatten(observations, start_dim=1)
            return torch.sign(flat) * torch.log1p(torch.abs(flat))

    SignedLogFeatures.__module__ = __name__
    SignedLogFeatures.__qualname__ = "SignedLogFeatures"
    return SignedLogFeatures


def signed_log_features_class() -> type:
    """The :class:`SignedLogFeatures` class (defined once, on first use)."""
    if "SignedLogFeatures" not in globals():
        globals()["SignedLogFeatures"] = _define_signed_log_features()
    return globals()["SignedLogFeatures"]


def __getattr__(name: str) -> Any:
    # SignedLogFeatures subclasses a torch module, so it is defined on first use; pickles of saved
    # models name it by this module and attribute, which lands here when they are loaded.
    if name == "SignedLogFeatures":
        return signed_log_features_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _numpy_actor(network: Any) -> tuple[list[tuple[np.ndarray, np.ndarray, Any]] | None, Any]:
    """The actor as numpy ``(weight, bias, activation)`` layers and the input transform, or
    ``(None, None)`` when it is not a plain MLP over a flat or signed-log observation."""
    import torch
    from stable_baselines3.common.torch_layers import FlattenExtractor

    extractor = getattr(network, "pi_features_extractor", None)
    policy_net = getattr(getattr(network, "mlp_extractor", None), "policy_net", None)
    head = getattr(network, "action_net", None)
    transforms = {FlattenExtractor: None, signed_log_features_class(): signed_log}
    if type(extractor) not in transforms or not isinstance(policy_net, torch.nn.Sequential):
        return None, None
    if not isinstance(head, torch.nn.Linear):
        return None, None
    activations = {torch.nn.Tanh: np.tanh, torch.nn.ReLU: _relu}
    layers: list[tuple[np.ndarray, np.ndarray, Any]] = []
    for module in policy_net:
        if isinstance(module, torch.nn.Linear):
            layers.append([_weights(module), _bias(module), None])
        elif type(module) in activations and layers and layers[-1][2] is None:
            layers[-1][2] = activations[type(module)]
        else:
            return None, None
    layers.append([_weights(head), _bias(head), None])
    return [tuple(layer) for layer in layers], transforms[type(extractor)]


def _weights(linear: Any) -> np.ndarray:
    return linear.weight.detach().cpu().numpy().T.astype(np.float32).copy()


def _bias(linear: Any) -> np.ndarray:
    if linear.bias is None:
        return np.zeros(linear.out_features, dtype=np.float32)
    return linear.bias.detach().cpu().numpy().astype(np.float32).copy()


def load_network(path: str | Path) -> Any:
    """The policy network of the MaskablePPO zip at ``path`` (CPU, eval mode), cached by file version."""
    path = Path(path)
    try:
        stat = path.resolve().stat()
    except FileNotFoundError:
        raise CheckpointNotFoundError(f"checkpoint file {str(path)!r} does not exist") from None
    if not path.is_file():
        raise CheckpointNotFoundError(f"checkpoint path {str(path)!r} is not a file")
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key in _network_cache:
        _network_cache.move_to_end(key)
        return _network_cache[key]
    network = _load_uncached(path)
    _network_cache[key] = network
    while len(_network_cache) > _CACHE_SIZE:
        _network_cache.popitem(last=False)
    return network


def model_spaces(path: str | Path) -> tuple[tuple[int, ...], int] | None:
    """(observation shape, number of actions) recorded in an SB3 model zip's ``data``, read without
    torch; None when the zip does not record them in a readable form. For an action-feature network
    the shape is that of the plain observation of the game it records (what it is given to play)."""
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
        shape = data["observation_space"]["_shape"]
        actions = data["action_space"]["n"]
        kwargs = data.get("policy_kwargs") or {}
        if isinstance(kwargs.get("env_id"), str) and isinstance(kwargs.get("game_options"), dict):
            # an action-feature network (networks/action_feature_policy.py) plays from the plain observation
            from pirate_envs.core.registry import game_class

            shape = game_class(kwargs["env_id"])(**kwargs["game_options"]).observation_shape
        return tuple(int(n) for n in shape), int(actions)
    except (OSError, KeyError, TypeError, ValueError, zipfile.BadZipFile):
        return None


def load_maskable_ppo(path: str | Path, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path, **kwargs)``; a model pickled before the modules moved (release 0.x) loads
    without a warning: its pickled class paths are data, not the caller's imports (pirate_envs/_moved.py)."""
    from sb3_contrib import MaskablePPO

    with quietly_moved():
        return MaskablePPO.load(path, **kwargs)


def _load_uncached(path: Path) -> Any:
    try:
        import sb3_contrib  # noqa: F401
    except ImportError as err:
        raise ImportError(
            f"loading the checkpoint {str(path)!r} needs sb3-contrib and torch: pip install 'pirate_envs[train]'"
        ) from err
    # Schedules are closures pickled at save time; playing needs none of them.
    constant = 0.0
    custom_objects = {"learning_rate": constant, "lr_schedule": lambda _: constant, "clip_range": lambda _: constant}
    try:
        model = load_maskable_ppo(path, device="cpu", custom_objects=custom_objects)
    except Exception as err:  # zipfile, pickle, torch and key errors all mean "not a usable checkpoint"
        raise CheckpointError(
            f"could not load {str(path)!r} as a MaskablePPO checkpoint: {type(err).__name__}: {err}"
        ) from err
    network = model.policy
    network.set_training_mode(False)
    return network
