"""The one grammar of policy specs: what a text (or object) given as a policy names, decided without loading it.

Every place that accepts a policy (``make_gym(opponents=...)``, ``--policies``, ``--opponents``,
``--policy``, ladder entries) reads it through :func:`parse_policy_spec`;
:func:`pirate_envs.policies.base.resolve_policy` then builds the :class:`~pirate_envs.policies.base.Policy`.

In the order they are tried (``spec`` → kind: what it names):

- ``random`` → ``random``: uniform over the legal actions;
- ``heuristic`` → ``heuristic``: the game's heuristic bot;
- ``shipped`` → ``shipped``: the game's shipped agent (:mod:`pirate_envs.shipped`);
- ``ismcts[:k=v,...]`` → ``ismcts``: the IS-MCTS bot (:func:`~.ismcts.parse_ismcts_spec`);
- ``flatmc[:k=v,...]`` → ``flatmc``: flat Monte Carlo (:func:`~.flatmc.parse_flatmc_spec`);
- ``puct[:k=v,...]`` → ``puct``: PUCT over determinisations with a network's prior (:func:`~.puct.parse_puct_spec`);
- ``rllib:PATH[#MODULE]`` → ``rllib``: one module of an RLlib checkpoint directory;
- ``module:callable`` → ``import``: a Policy object, a class made with no arguments, or a function
  ``f(observation, action_mask, rng) -> int``;
- an existing directory → ``rllib``: an RLlib checkpoint (its default module);
- ``PATH.zip``, a text with ``/``, an existing file → ``checkpoint``: a MaskablePPO checkpoint file;
- a ``pathlib.Path`` → ``checkpoint`` or ``rllib`` as above: never a bot name;
- an object with ``act`` → ``object``: used as it is; a callable → ``callable``.

The rules are tried in that order, so the names win: a file literally named ``heuristic`` is
``./heuristic`` (or a ``Path``), and ``ismcts:...``/``flatmc:...``/``puct:...``/``rllib:...`` are never imported.
Only a text that is none of the named forms is looked up on disk (is it a directory, a file?);
nothing is imported or loaded here. A bot's parameters (``iterations=``, ``rollouts=``...) are checked
by the bot's own parser when it is built, which names the allowed keys.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pirate_envs.shipped import SHIPPED

SEARCH_BOTS = ("ismcts", "flatmc", "puct")  # spec heads of the search bots
NAMED = ("random", "heuristic", SHIPPED)  # specs that are a name alone
RLLIB = "rllib"  # the head of ``rllib:PATH[#MODULE]``
CHECKPOINT_KINDS = ("checkpoint", RLLIB)  # kinds that name files or directories on disk
KINDS = (*NAMED, *SEARCH_BOTS, *CHECKPOINT_KINDS, "import", "object", "callable")
POLICY_KINDS = (
    "random",
    "heuristic",
    "ismcts[:iterations=N,rollout=random|heuristic,exploration=C,time_budget=S]",
    "flatmc[:rollouts=N,rollout=heuristic|random]",
    "puct[:iterations=N,exploration=C,rollout=heuristic|random,prior=shipped|PATH.zip]",
    "shipped (the game's shipped agent)",
    "a checkpoint path (.zip)",
    "an RLlib checkpoint directory (or rllib:PATH[#MODULE])",
    "module:callable",
    "a Policy object",
    "a callable",
)
# the forms in one line, for command-line help
SYNOPSIS = (
    "random | heuristic | shipped | ismcts[:k=v,...] | flatmc[:k=v,...] | puct[:k=v,...] | PATH.zip | RLlib dir | "
    "module:callable"
)
_IMPORT = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")  # package.module:attribute


@dataclass(frozen=True)
class PolicySpec:
    """A classified policy spec (see the module docstring for the kinds).

    ``text`` is the spec as written (``str(path)`` for a ``Path``; the object's name for an object);
    ``params`` the ``key=value,...`` part of a search bot; ``path`` the file or directory of a
    checkpoint, as written; ``module_id`` the ``#MODULE`` of an ``rllib:`` spec; ``target`` the
    ``(module, attribute)`` of an ``import``; ``value`` the object or callable given.
    """

    kind: str
    text: str
    params: str = ""
    path: str | None = None
    module_id: str | None = None
    target: tuple[str, str] | None = None
    value: Any = None

    @property
    def on_disk(self) -> bool:
        """Whether the spec names a checkpoint file or directory."""
        return self.kind in CHECKPOINT_KINDS


def did_you_mean(text: str) -> str:
    """`` (did you mean 'ismcts'?)`` when the head of ``text`` is a near miss of a spec name, else ``""``."""
    head = re.match(r"\s*([\w.-]*)", text).group(1).lower()  # up to the first ':', ';', '=', space...
    close = difflib.get_close_matches(head, (*NAMED, *SEARCH_BOTS, RLLIB), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close and close[0] != text else ""


def unknown_policy_error(text: str) -> ValueError:
    """The error for a text that is no policy spec: what was wrong, a close name if any, and the allowed forms."""
    return ValueError(f"unknown policy {text!r}{did_you_mean(text)}; expected one of: {', '.join(POLICY_KINDS)}")


def _parse_text(text: str, as_path: bool) -> PolicySpec:
    if not text.strip():
        raise unknown_policy_error(text)
    if not as_path:
        if text in NAMED:
            return PolicySpec(text, text)
        head, colon, rest = text.partition(":")
        if head in NAMED:
            raise ValueError(f"{head!r} takes no parameters; got {text!r}; expected one of: {', '.join(POLICY_KINDS)}")
        if head in SEARCH_BOTS:
            return PolicySpec(head, text, params=rest)
        if head == RLLIB and colon:
            path, _, module_id = rest.partition("#")
            if not path:
                raise ValueError(f"{text!r} names no directory; write rllib:PATH or rllib:PATH#MODULE")
            return PolicySpec(RLLIB, text, path=path, module_id=module_id or None)
        if _IMPORT.fullmatch(text):
            return PolicySpec("import", text, target=(head, rest))
    path = Path(text)
    if path.is_dir():
        return PolicySpec(RLLIB, text, path=text)
    if as_path or text.endswith(".zip") or "/" in text or os.sep in text or path.exists():
        return PolicySpec("checkpoint", text, path=text)
    raise unknown_policy_error(text)


def object_name(policy: Any) -> str:
    """The readable name of a policy object or function: its ``name``, its ``__name__`` or its type's name."""
    return str(getattr(policy, "name", None) or getattr(policy, "__name__", None) or type(policy).__name__)


def parse_policy_spec(spec: Any) -> PolicySpec:
    """Classify ``spec`` (a text, a ``Path``, a Policy object or a callable) without loading anything.

    A text that is none of the forms raises ``ValueError`` naming it and the allowed forms (and a close
    name, for a typo such as ``heuristc``); so does an object that is neither a policy nor callable.
    A :class:`PolicySpec` is returned as it is.
    """
    if isinstance(spec, PolicySpec):
        return spec
    if isinstance(spec, str):
        return _parse_text(spec, as_path=False)
    if isinstance(spec, Path):
        return _parse_text(str(spec), as_path=True)
    name = object_name(spec)
    if hasattr(spec, "act"):
        return PolicySpec("object", name, value=spec)
    if callable(spec):
        return PolicySpec("callable", name, value=spec)
    raise ValueError(f"cannot use {spec!r} as a policy; expected one of: {', '.join(POLICY_KINDS)}")
