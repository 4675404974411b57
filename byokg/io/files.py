"""Files byokg writes beside the user's own (a batch's settings and rewritten answers, an eval
archive's config): never through a symbolic link someone planted there.

:func:`write_fresh` writes a new file created beside the target (``O_EXCL``, mode 0600) and
renames it over the target, so a symlink at the target is replaced, never followed;
:func:`open_append` appends with ``O_NOFOLLOW`` (a symlink is an error naming the file).
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from pathlib import Path
from typing import IO

from byokg.errors import ConfigError


def write_fresh(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a freshly created file renamed over it."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".new", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def open_append(path: str | os.PathLike[str]) -> IO[str]:
    """``path`` opened to append UTF-8 text (created when missing), refusing a symlink."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(f"{path} is a symbolic link; give the path of a regular file "
                              "(byokg does not write through links)") from None
        raise ConfigError(f"cannot write {path}: {exc.strerror}") from None
    return os.fdopen(fd, "a", encoding="utf-8")
