"""Run-directory files: atomic writes, periodic checkpoints with their resume state, and resuming.

Layout of a run directory::

    config.yaml                   the resolved config of the run
    checkpoints/step_<T>.zip      periodic MaskablePPO checkpoints (T = timesteps, 10 digits)
    checkpoints/step_<T>.json     resume state saved with it (timesteps, stage, pool, best score, ...)
    pool/snapshot_<T>.zip         self-play snapshots
    best_model.zip / .json        the best model by evaluation win rate, and its evaluation
    final_model.zip               the model at the end of training
    evaluations.json, metrics.csv, learning_curve.png, tb/

Every file is written atomically: to a temporary file in the same directory, flushed to disk, then
moved over the target with ``os.replace``, so a crash leaves either the old or the new file. The
state JSON is written after its checkpoint, so a JSON always names a complete zip.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

CHECKPOINT_DIR = "checkpoints"
POOL_DIR = "pool"
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


def latest_checkpoint(run_dir: Path) -> tuple[Path, dict[str, Any]] | None:
    """``(zip path, state)`` of the newest complete checkpoint of a run, or None."""
    states = checkpoint_states(run_dir)
    if not states:
        return None
    newest = states[-1]
    return newest.with_suffix(".zip"), json.loads(newest.read_text())
