"""An actor-critic network that scores every action from the game's per-action features.

For games with per-action features (:meth:`pirate_envs.core.game.Game.action_features`), the
Gymnasium adapter's ``action_features=True`` appends them to the observation. This policy splits that
vector again:

- the observation part goes (``sign(x) log(1 + |x|)``-squashed) through the usual ``pi``/``vf`` MLPs;
- each action's logit is ``b_a(h) + <phi_a, w(h)> + <relu(U phi_a), g(h)>``, where ``h`` is the
  actor's hidden state (its latent), ``phi_a`` the action's features and ``b``, ``w``, ``g`` linear maps of ``h``:
  a per-action bias (what a flat head learns), a weight per feature (e.g. how much the seat cares for
  each ship, times the fame the action brings it) and a small learned embedding of the features for
  the interactions a linear form misses;
- the critic sees the observation part only.

With ``features_from_mask=True`` (``network.features_in_policy``) the envs give the plain observation and
the policy computes the features itself, from each row and its action mask (MaskablePPO hands the mask
to every forward pass: ``forward``, ``evaluate_actions``, ``get_distribution``): the same numbers, while
rows of the observation's size, not observation + features (potsm: 637 floats, not 10,834), are sent by
the env workers, stored in the rollout buffer and gathered into minibatches. Training computes each stored
row's legal features once per rollout (:class:`LegalFeatureRolloutBuffer`), not again in every minibatch of
every epoch: each minibatch's observations carry their rows' features (``LEGAL_FEATURES``), which the
policy reads instead of asking the engine.

Whenever the batch's masks are at hand (in either mode), the head reads the legal actions' features
alone (:class:`LegalFeatures`: ``Game.legal_action_features`` computes them, or they are taken from the
rows that carry them) and leaves an illegal action's logit at its bias, which the mask replaces: the
same logits at the legal actions, for a third of the work in potsm. Without masks (a ``NetworkPolicy``
playing from observation + features) it reads every action's row.

It is a ``MaskableActorCriticPolicy``, so sb3-contrib's ``MaskablePPO`` trains, saves and loads it
like any other; the checkpoint records the game (``env_id``, ``game_options``) so that a
:class:`~pirate_envs.networks.checkpoint_policy.NetworkPolicy` can rebuild the features from a seat's
plain observation and mask. Importing this module needs torch and sb3-contrib.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

# the attribute of a minibatch's observation tensor that holds its rows' legal features (LegalFeatureRolloutBuffer)
LEGAL_FEATURES = "legal_action_features"


class LegalFeatures(NamedTuple):
    """A batch's legal actions and their features: ``phi[i]`` is the features of action ``cols[i]`` of row
    ``rows[i]`` (the order of ``numpy.nonzero(masks)``)."""

    phi: torch.Tensor  # (legal actions in all, features)
    rows: torch.Tensor  # int64
    cols: torch.Tensor  # int64
    batch: int


class ActionFeatureExtractor(nn.Module):
    """``mlp_extractor`` of :class:`ActionFeaturePolicy`: the MLPs see the observation part. The actor's
    latent is its hidden state; ``forward_actor`` also keeps the batch's action features
    (``self.action_features``: the legal ones the policy handed it in ``given``, else a view of the
    rows') for the head, which SB3 always calls next with that latent. (Passing them inside the latent
    would copy ~10,000 floats per row forward and backward: a quarter of a potsm PPO update.)"""

    def __init__(self, base_size: int, net_arch: Any, activation_fn: type[nn.Module], signed_log: bool) -> None:
        super().__init__()
        self.base_size = base_size
        self.signed_log = signed_log
        self.inner = MlpExtractor(base_size, net_arch=net_arch, activation_fn=activation_fn, device="cpu")
        self.latent_dim_pi = self.inner.latent_dim_pi
        self.latent_dim_vf = self.inner.latent_dim_vf
        self.action_features: torch.Tensor | LegalFeatures | None = None
        self.given: LegalFeatures | None = None  # the next batch's legal features, set by the policy from its masks

    def _base(self, features: torch.Tensor) -> torch.Tensor:
        base = features[:, : self.base_size]
        return torch.sign(base) * torch.log1p(torch.abs(base)) if self.signed_log else base

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        self._keep_action_features(features)
        return self.inner(self._base(features))  # the squashed observation computed once for both MLPs

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        self._keep_action_features(features)
        return self.inner.forward_actor(self._base(features))

    def _keep_action_features(self, features: torch.Tensor) -> None:
        if self.given is not None and self.given.batch == features.shape[0]:  # the policy had the batch's masks
            self.action_features, self.given = self.given, None
        elif features.shape[1] > self.base_size:  # observation + features, no masks (a NetworkPolicy's input)
            self.action_features = features[:, self.base_size :].detach()  # inputs: no gradient needed
        else:
            raise RuntimeError("ActionFeatureExtractor: plain observations without their action features")

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.inner.forward_critic(self._base(features))


class ActionFeatureHead(nn.Module):
    """``action_net`` of :class:`ActionFeaturePolicy` (see the module docstring for the logit); reads the
    action features that ``extractor.forward_actor`` kept for the same batch."""

    def __init__(self, extractor: ActionFeatureExtractor, num_actions: int, feature_size: int, embed_dim: int) -> None:
        super().__init__()
        hidden_dim = extractor.latent_dim_pi
        self._extractor = [extractor]  # a plain reference: its parameters belong to the policy, not here
        self.num_actions = num_actions
        self.feature_size = feature_size
        self.bias = nn.Linear(hidden_dim, num_actions)
        self.weights = nn.Linear(hidden_dim, feature_size)
        self.embed = nn.Linear(feature_size, embed_dim) if embed_dim else None
        self.query = nn.Linear(hidden_dim, embed_dim) if embed_dim else None

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        features = self._extractor[0].action_features
        if isinstance(features, LegalFeatures) and features.batch == hidden.shape[0]:
            return self._legal_logits(hidden, features)
        if not isinstance(features, torch.Tensor) or features.shape[0] != hidden.shape[0]:
            raise RuntimeError("ActionFeatureHead: call mlp_extractor.forward_actor on the same batch first")
        phi = features.reshape(-1, self.num_actions, self.feature_size)
        logits = self.bias(hidden) + torch.bmm(phi, self.weights(hidden).unsqueeze(2)).squeeze(2)
        if self.embed is not None:
            embedded = torch.relu(self.embed(phi))
            logits = logits + torch.bmm(embedded, self.query(hidden).unsqueeze(2)).squeeze(2)
        return logits

    def _legal_logits(self, hidden: torch.Tensor, legal: LegalFeatures) -> torch.Tensor:
        """The same logits for the legal actions, read from their rows alone; an illegal action's logit is
        its bias (the mask replaces it). potsm has ~30 legal actions of 103: a third of the work."""
        values = (legal.phi * self.weights(hidden).index_select(0, legal.rows)).sum(-1)
        if self.embed is not None:
            embedded = torch.relu(self.embed(legal.phi))
            values = values + (embedded * self.query(hidden).index_select(0, legal.rows)).sum(-1)
        return self.bias(hidden).index_put((legal.rows, legal.cols), values, accumulate=True)


class ActionFeaturePolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy over ``observation ++ action features`` (see the module docstring).

    Extra keyword arguments: ``env_id`` and ``game_options`` (the game whose features these are:
    sizes are taken from it), ``embed_dim`` (the learned feature embedding, 0 for none) and
    ``signed_log`` (squash the observation part).
    """

    def __init__(
        self,
        observation_space: Any,
        action_space: Any,
        lr_schedule: Any,
        *,
        env_id: str,
        game_options: dict[str, Any],
        embed_dim: int = 0,
        signed_log: bool = True,
        features_from_mask: bool = False,
        **kwargs: Any,
    ) -> None:
        from pirate_envs.core.registry import game_class

        game = game_class(env_id)(**game_options)
        if not game.action_feature_size:
            raise ValueError(f"ActionFeaturePolicy: {env_id} defines no per-action features")
        expected = (game.observation_size if features_from_mask else game.augmented_observation_size,)
        if tuple(observation_space.shape) != expected or int(action_space.n) != game.num_actions:
            made_by = "make_gym(...)" if features_from_mask else "make_gym(..., action_features=True)"
            raise ValueError(
                f"ActionFeaturePolicy: {env_id} {game_options} needs observations of shape {expected} "
                f"({made_by}) and {game.num_actions} actions; got {tuple(observation_space.shape)} and {action_space}"
            )
        self.env_id = env_id
        self.game_options = dict(game_options)
        self.game = game
        self.embed_dim = int(embed_dim)
        self.signed_log = bool(signed_log)
        self.features_from_mask = bool(features_from_mask)
        self.input_shape = (game.augmented_observation_size,)  # the rows the network reads, either way
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        game = self.game
        self.mlp_extractor = ActionFeatureExtractor(
            game.observation_size, self.net_arch, self.activation_fn, self.signed_log
        )

    def _build(self, lr_schedule: Any) -> None:
        self._build_mlp_extractor()
        game = self.game
        self.action_net = ActionFeatureHead(
            self.mlp_extractor, game.num_actions, game.action_feature_size, self.embed_dim
        )
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            gains = {self.mlp_extractor: np.sqrt(2), self.action_net: 0.01, self.value_net: 1.0}
            for module, gain in gains.items():
                module.apply(partial(self.init_weights, gain=gain))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(
            env_id=self.env_id, game_options=self.game_options, embed_dim=self.embed_dim, signed_log=self.signed_log
        )
        if self.features_from_mask:  # absent from the checkpoints made before it, whose default it keeps
            data["features_from_mask"] = True
        return data

    # --- with the batch's masks, the head reads the legal actions' features alone ---
    def _give_features(self, obs: torch.Tensor, action_masks: Any) -> torch.Tensor:
        """``obs`` for the network; with the batch's masks, its legal actions' features (taken from the rows
        that carry them, or computed with ``features_from_mask``) are handed to the extractor (``given``)
        for the forward pass that follows."""
        game = self.game
        appended = obs.shape[1] > game.observation_size
        if action_masks is None:
            if appended:
                return obs  # the head reads every action's features from the rows
            raise ValueError(
                "ActionFeaturePolicy(features_from_mask=True) computes the action features from the action "
                "mask: pass action_masks (MaskablePPO does at every step; model.predict(obs, action_masks=...))"
            )
        masks = action_masks.cpu().numpy() if isinstance(action_masks, torch.Tensor) else np.asarray(action_masks)
        masks = masks.reshape(len(obs), -1).astype(bool)  # the rollout buffer keeps them as floats
        rows, cols = (torch.as_tensor(index, device=obs.device) for index in np.nonzero(masks))
        stored = getattr(obs, LEGAL_FEATURES, None)
        if stored is not None:  # computed once for the whole rollout, in the order of np.nonzero(masks)
            phi = stored
        elif appended:
            phi = obs[:, game.observation_size :].detach().reshape(len(obs), game.num_actions, -1)[rows, cols]
        else:
            observations = np.ascontiguousarray(obs.detach().cpu().numpy().reshape(len(obs), -1), dtype=np.float32)
            phi = torch.as_tensor(game.legal_action_features(observations, masks), device=obs.device)
        self.mlp_extractor.given = LegalFeatures(phi, rows, cols, len(obs))
        return obs

    def forward(self, obs: torch.Tensor, deterministic: bool = False, action_masks: Any = None) -> Any:
        return super().forward(self._give_features(obs, action_masks), deterministic, action_masks)

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor, action_masks: Any = None) -> Any:
        return super().evaluate_actions(self._give_features(obs, action_masks), actions, action_masks)

    def get_distribution(self, obs: torch.Tensor, action_masks: Any = None) -> Any:
        return super().get_distribution(self._give_features(obs, action_masks), action_masks)

    def augment(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """A seat's plain observation and mask -> this network's input."""
        return self.game.observation_with_action_features(observation, action_mask)


class FlatRolloutBuffer(MaskableRolloutBuffer):
    """sb3-contrib's masked rollout buffer for big observations: the observation array is allocated
    once, and flattened without SB3's swap of the step and env axes.

    SB3 allocates a fresh zeroed array at every rollout and copies it once more to swap the axes;
    with ~10,000 floats per observation that is 180 MB of new memory the kernel must fault in and
    zero twice per update (about 1.7 s of a 7 s potsm rollout). The swap keeps each env's steps
    together, which nothing needs once the advantages are computed (minibatches are drawn by a
    random permutation of all the rows); every array is flattened the same way, so rows stay aligned.
    Every slot of the reused array is written before it is read.
    """

    def reset(self) -> None:
        kept = getattr(self, "_kept_observations", None)
        super().reset()
        if isinstance(kept, np.ndarray) and kept.shape == self.observations.shape:
            self.observations = kept
        self._kept_observations = self.observations  # get() replaces the attribute by a flat view

    def to_torch(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        # the minibatch arrays are fresh copies already (fancy indexing): share their memory
        return torch.as_tensor(array, device=self.device)

    @staticmethod
    def swap_and_flatten(arr: np.ndarray) -> np.ndarray:
        shape = arr.shape
        if len(shape) < 3:
            shape = (*shape, 1)
        return arr.reshape(shape[0] * shape[1], *shape[2:])


class LegalFeatureRolloutBuffer(FlatRolloutBuffer):
    """:class:`FlatRolloutBuffer` for ``features_from_mask`` (plain observations): the legal actions' features
    of every stored row are computed once per rollout, when the first minibatch is drawn, and each
    minibatch's observation tensor carries its rows' share (attribute ``LEGAL_FEATURES``) for
    :meth:`ActionFeaturePolicy.evaluate_actions`. They are the numbers the policy would compute from the
    minibatch itself (``Game.legal_action_features`` works row by row), so training is unchanged; the
    engine is asked once per row and rollout instead of once per row, minibatch and epoch.

    Extra keyword arguments (``rollout_buffer_kwargs``): ``env_id`` and ``game_options``, the game whose
    features these are.
    """

    def __init__(self, *args: Any, env_id: str, game_options: dict[str, Any], **kwargs: Any) -> None:
        from pirate_envs.core.registry import game_class

        self.game = game_class(env_id)(**game_options)
        self._legal: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        super().__init__(*args, **kwargs)

    def reset(self) -> None:
        super().reset()
        self._legal = None

    def _legal_features(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Every row's legal features (in the order of ``np.nonzero(masks)``), each row's count of legal
        actions and where its features start; None for rows that are not plain observations."""
        if self._legal is None:
            rows = self.observations.reshape(-1, self.observations.shape[-1])
            if rows.shape[1] != self.game.observation_size:  # observation + features: the policy slices them
                return None
            masks = self.action_masks.reshape(len(rows), -1).astype(bool)
            counts = masks.sum(axis=1)
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            phi = self.game.legal_action_features(np.ascontiguousarray(rows, dtype=np.float32), masks)
            self._legal = (phi, counts, starts)
        return self._legal

    def _get_samples(self, batch_inds: np.ndarray, env: Any = None) -> Any:
        samples = super()._get_samples(batch_inds, env)
        legal = self._legal_features()
        if legal is not None:
            phi, counts, starts = legal
            wanted = counts[batch_inds]
            # the positions of the batch's rows' features: each row's run starts[i] .. starts[i] + counts[i]
            offsets = np.repeat(starts[batch_inds] - (np.cumsum(wanted) - wanted), wanted)
            features = torch.as_tensor(phi[np.arange(int(wanted.sum())) + offsets], device=self.device)
            setattr(samples.observations, LEGAL_FEATURES, features)
        return samples
