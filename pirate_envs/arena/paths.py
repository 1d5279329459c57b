"""Files the arena may open: checkpoints and replays, resolved strictly inside their directories.

A browser names a file by its path *relative to* a configured directory (``potsm_v0/model.zip``).
:func:`resolve_inside` refuses an empty or absolute path, any ``..`` or ``.`` component, a
backslash or NUL, and anything whose real path (symlinks followed) is not inside the directory's
real path; it also insists on the file's suffix. Listing walks the directory the same way, so the
browser is only ever offered paths that :func:`resolve_inside` accepts.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from pirate_envs.arena.errors import ApiError

MAX_LISTED = 500  # files listed per directory (a runs directory can be large)
MAX_PATH_LENGTH = 400


def resolve_inside(root: Path | None, relative: object, suffix: str, what: str) -> Path:
    """The real path of ``relative`` inside ``root``; an :class:`ApiError` (400/404) otherwise."""
    if root is None:
        raise ApiError(404, f"no {what} directory is configured on this server")
    if not isinstance(relative, str) or not relative:
        raise ApiError(400, f"{what} path must be a non-empty string relative to the {what} directory")
    if len(relative) > MAX_PATH_LENGTH or "\\" in relative or "\x00" in relative:
        raise ApiError(400, f"{what} path {relative[:80]!r} is not allowed: use a plain relative path with '/'")
    parts = PurePosixPath(relative).parts
    if relative.startswith("/") or PurePosixPath(relative).is_absolute():
        raise ApiError(400, f"{what} path {relative!r} is absolute; give a path relative to the {what} directory")
    if any(part in ("..", ".") for part in relative.split("/")) or not parts:
        raise ApiError(400, f"{what} path {relative!r} may not contain '..' or '.' components")
    if not relative.endswith(suffix):
        raise ApiError(400, f"{what} path {relative!r} must name a {suffix} file")
    real_root = root.resolve()
    target = (real_root / PurePosixPath(*parts)).resolve()
    if not target.is_relative_to(real_root):
        raise ApiError(400, f"{what} path {relative!r} leads outside the {what} directory")
    if not target.is_file():
        raise ApiError(404, f"no {what} file {relative!r} in the {what} directory")
    return target


def list_inside(root: Path | None, suffix: str) -> list[str]:
    """Relative paths (with '/') of the ``suffix`` files under ``root`` that :func:`resolve_inside` accepts."""
    if root is None or not root.is_dir():
        return []
    real_root = root.resolve()
    found = []
    for path in sorted(root.rglob(f"*{suffix}")):
        try:
            real = path.resolve()
        except OSError:
            continue
        if not path.is_file() or not real.is_relative_to(real_root):
            continue
        found.append(path.relative_to(root).as_posix())
        if len(found) >= MAX_LISTED:
            break
    return found
