"""Run-directory files: atomic writes, periodic checkpoints with their resume state, and resuming.

Layout of a run directory::

    config.yaml                   the resolved config of the run
    checkpoints/step_<T>.zip      periodic MaskablePPO checkpoints (T = timesteps, 10 digits)
    checkpoints/step_<T>.json     resume state saved with it (timesteps, stage, pool, best score, ...)
    pool/snapshot_<T>.zip         self-play snapshots
    best_model.zip / .json        the best model by evaluation win rate, and its evaluation
    final_model.zip               the model at the end of training
    evaluations.json, metrics.csv, learning_curve.png, tb/
    run.lock                      held (``fcntl.flock``) by the one process training in the directory

Every file is written atomically: to a temporary file in the same directory, flushed to disk, then
moved over the target with ``os.replace``, so a crash leaves either the old or the new file. The
state JSON is written after its checkpoint, so a JSON always names a complete zip. Files damaged
anyway (a full disk, a copy cut short) are found before a resume: :func:`latest_checkpoint` skips a
checkpoint whose zip or JSON does not read and reports it, falling back to the newest sound one.

One process at a time trains in a run directory: :func:`lock_run_dir` takes an exclusive
``flock`` on ``run.lock`` (which names the holder's pid). The operating system drops the lock when
its process ends, however it ends, so a crashed run never leaves a stale lock behind.

:func:`model_zip_problem` and :func:`model_spaces` (from :mod:`pirate_envs.networks.checkpoint_policy`, which
the arena shares) check a MaskablePPO zip cheaply (no torch) before anything expensive is built from it.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from pirate_envs.networks.checkpoint_policy import model_spaces
from pirate_envs.policies.base import check_spaces

CHECKPOINT_DIR = "checkpoints"
POOL_DIR = "pool"
LOCK_NAME = "run.lock"
_STEP_NAME = re.compile(r"^step_(\d{10})\.json$")


def _file_mode() -> int:
    """The mode an ordinary new file gets (0o666 less the umask); mkstemp's files are 0o600."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def _atomic_file(path: Path, suffix: str = ".tmp") -> Iterator[IO[bytes]]:
    """A binary handle on a temporary file next to ``path``; on success it is synced and moved over
    ``path`` with ``os.replace``, on any error it is removed and ``path`` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=suffix)
    try:
        with os.fdopen(fd, "w+b") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    with _atomic_file(path) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode())


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def atomic_save_model(model: Any, path: Path) -> None:
    """``model.save`` into a temporary file next to ``path``, then ``os.replace`` it into place."""
    with _atomic_file(path, suffix=".zip.tmp") as handle:
        model.save(handle)


def step_name(timesteps: int) -> str:
    return f"step_{timesteps:010d}"


def save_checkpoint(model: Any, run_dir: Path, state: dict[str, Any], keep: int) -> Path:
    """Write ``checkpoints/step_<T>.zip`` then its state JSON; keep only the newest ``keep`` pairs."""
    folder = Path(run_dir) / CHECKPOINT_DIR
    name = step_name(int(state["timesteps"]))
    zip_path = folder / f"{name}.zip"
    atomic_save_model(model, zip_path)
    atomic_write_json(folder / f"{name}.json", state)
    for old_json in checkpoint_states(run_dir)[:-keep]:
        old_json.with_suffix(".zip").unlink(missing_ok=True)
        old_json.unlink(missing_ok=True)
    return zip_path


def checkpoint_states(run_dir: Path) -> list[Path]:
    """State JSONs of complete checkpoints (zip present), oldest first."""
    folder = Path(run_dir) / CHECKPOINT_DIR
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if _STEP_NAME.match(p.name) and p.with_suffix(".zip").is_file()]
    return sorted(found, key=lambda p: p.name)


def latest_checkpoint(
    run_dir: Path, on_damaged: Callable[[Path, str], None] | None = None
) -> tuple[Path, dict[str, Any]] | None:
    """``(zip path, state)`` of the newest sound checkpoint of a run, or None.

    A checkpoint whose zip or state JSON does not read (truncated, not a zip, not JSON) is skipped
    for the next older one; ``on_damaged(file, problem)`` hears about each one skipped.
    """
    for state_path in reversed(checkpoint_states(run_dir)):
        zip_path = state_path.with_suffix(".zip")
        state, problem = _read_state(state_path)
        bad_file = state_path
        if problem is None:
            problem, bad_file = model_zip_problem(zip_path), zip_path
        if problem is None:
            return zip_path, state
        if on_damaged is not None:
            on_damaged(bad_file, problem)
    return None


def _read_state(path: Path) -> tuple[dict[str, Any], str | None]:
    try:
        state = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError) as err:
        return {}, f"cannot be read ({err})"
    except json.JSONDecodeError as err:
        return {}, f"is not valid JSON ({err}; truncated?)"
    if not isinstance(state, dict) or not isinstance(state.get("timesteps"), int):
        return {}, "is not a checkpoint state (a JSON object with 'timesteps')"
    return state, None


def set_aside(path: Path) -> Path:
    """Rename a damaged file to ``<name>.damaged`` (kept for inspection, never picked up or pruned)."""
    target = path.with_name(path.name + ".damaged")
    os.replace(path, target)
    return target


# --- model zips -------------------------------------------------------------------------------------
def model_zip_problem(path: str | Path) -> str | None:
    """Why the file at ``path`` is not a readable SB3 model zip (missing, truncated, corrupt), or None."""
    path = Path(path)
    if not path.is_file():
        return "does not exist" if not path.exists() else "is not a file"
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if "data" not in names or "policy.pth" not in names:
                return "is a zip but not a MaskablePPO model (no 'data' and 'policy.pth' inside)"
            broken = archive.testzip()
    except zipfile.BadZipFile as err:
        return f"is not a readable zip ({err}; truncated or corrupt?)"
    except (OSError, EOFError) as err:
        return f"cannot be read ({err}; truncated?)"
    if broken is not None:
        return f"is corrupt ({broken!r} inside fails its checksum)"
    return None


def model_zip_unfit(path: str | Path, game: Any) -> str | None:
    """Why the model zip at ``path`` cannot play ``game`` (unreadable, or made for other observation
    and action spaces), read without torch in milliseconds; None if it can."""
    problem = model_zip_problem(path)
    if problem is not None:
        return f"checkpoint file {str(path)!r} {problem}"
    spaces = model_spaces(path)
    wanted = (tuple(game.observation_shape), int(game.num_actions))
    if spaces is None:
        return None
    return check_spaces(f"checkpoint {path}", spaces, wanted, f"{game.game_id} with {game.num_players} players")


def recorded_env_id(path: str | Path) -> tuple[str, Path] | None:
    """The env id a model zip's own run files record, and the file that says so: its state JSON
    (``step_<T>.json``) or the ``config.yaml`` of its folder or run directory; None if none does."""
    path = Path(path)
    sidecar = path.with_suffix(".json")
    state, problem = _read_state(sidecar) if sidecar.is_file() else ({}, "none")
    if problem is None and isinstance(state.get("env_id"), str):
        return state["env_id"], sidecar
    folders = [path.parent]
    if path.parent.name in (CHECKPOINT_DIR, POOL_DIR):
        folders.append(path.parent.parent)
    for folder in folders:
        config_path = folder / "config.yaml"
        if not config_path.is_file():
            continue
        import yaml

        try:
            env_id = (yaml.safe_load(config_path.read_text()) or {}).get("env", {}).get("id")
        except (OSError, yaml.YAMLError, AttributeError):
            continue
        if isinstance(env_id, str):
            return env_id, config_path
    return None


# --- the run lock -----------------------------------------------------------------------------------
class RunDirBusy(RuntimeError):
    """Another live process holds the run directory's lock."""


class RunLock:
    """The exclusive lock of one run directory (see :func:`lock_run_dir`); :meth:`release` drops it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock_run_dir(run_dir: Path) -> RunLock:
    """Create ``run_dir`` if needed and take its lock; raises :class:`RunDirBusy` if a live process
    holds it, ``OSError`` if the directory cannot be created or written.

    The lock file stays after release (deleting a locked file races with the next taker); what
    counts is the ``flock``, which dies with its process.
    """
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 200).decode(errors="replace").strip() or "unknown process"
        os.close(fd)
        raise RunDirBusy(f"{str(run_dir)!r} is in use by another training process ({holder})") from None
    except BaseException:
        os.close(fd)
        raise
    try:
        os.ftruncate(fd, 0)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        os.write(fd, f"pid {os.getpid()} on {socket.gethostname()} since {stamp}\n".encode())
    except BaseException:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        raise
    return RunLock(path, fd)
