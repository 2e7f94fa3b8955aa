"""Where an output file really goes, and writing one safely.

- A new or regular file is written to a temporary ``F.partial`` in its folder and renamed
  into place, so a reader never sees half a file.
- An existing character device or FIFO (``/dev/null``, ``/dev/tty``, a named pipe) and an open
  file descriptor (``/dev/stdout``, ``/dev/fd/N``) are written in place: never replaced,
  never given a temporary file, never resumed. ``-o /dev/null`` discards.
- A symbolic link is written through: the temporary file goes next to the file the link names
  and replaces that file; the link stays a link.
- A directory, a block device or a socket is refused.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from cardcore.errors import OptionError

__all__ = ["OutputFile", "checked_output", "output_file", "partial_path", "write_text"]

# open file descriptors: resolving these links would name the file behind the descriptor
_DESCRIPTORS = ("/dev/stdin", "/dev/stdout", "/dev/stderr")
_DESCRIPTOR_FOLDERS = ("/dev/fd/", "/proc/")


def partial_path(path: str) -> str:
    """Where output ``path`` is written until it is complete."""
    return path + ".partial"


@dataclass(frozen=True)
class OutputFile:
    """One output: ``name`` as given (for messages), ``path`` where it is written (symbolic
    links followed), ``direct`` for an existing device, FIFO or descriptor written in place,
    ``exists`` whether ``path`` is there now."""

    name: str
    path: str
    direct: bool
    exists: bool

    @property
    def partial(self) -> str:
        """The temporary file of a non-``direct`` output."""
        return partial_path(self.path)

    @property
    def is_char_device(self) -> bool:
        return self.direct and self.exists and stat.S_ISCHR(os.stat(self.path).st_mode)


def output_file(name: str) -> OutputFile:
    """Classifies output ``name``; raises :class:`~cardcore.errors.OptionError` for a
    directory, a block device, a socket or a path that cannot be looked at."""
    normal = os.path.normpath(name)
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise OptionError(f"{name!r}: {e.strerror}") from None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        return OutputFile(name, name, direct=True, exists=True)
    if normal in _DESCRIPTORS or normal.startswith(_DESCRIPTOR_FOLDERS):
        return OutputFile(name, name, direct=True, exists=mode is not None)
    if mode is not None and stat.S_ISDIR(mode):
        raise OptionError(f"{name!r} is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        raise OptionError(
            f"{name!r} is a block device or socket; write to a file, a FIFO or a character "
            "device such as /dev/null"
        )
    return OutputFile(name, os.path.realpath(name), direct=False, exists=mode is not None)


def checked_output(opt: str, name: str, *, folder_made: bool = False) -> OutputFile:
    """:func:`output_file` for option ``opt`` (named in messages), also checking that the
    folder of a file written through a temporary file is there and writable (unless the
    caller makes it: ``folder_made``)."""
    try:
        out = output_file(name)
    except OptionError as e:
        raise OptionError(f"{opt} {e}") from None
    folder = os.path.dirname(out.path)
    if out.direct or folder_made:
        return out
    if not os.path.isdir(folder):
        raise OptionError(f"{opt} {name!r}: folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"{opt} {name!r}: folder {folder!r} is not writable")
    return out


def write_text(name: str, text: str) -> None:
    """Writes ``text`` (UTF-8) to output ``name`` as the module docstring says: through a
    temporary file renamed into place, or in place for a device, FIFO or descriptor."""
    out = output_file(name)
    with open(out.path if out.direct else out.partial, "w", encoding="utf-8") as f:
        f.write(text)
    if not out.direct:
        os.replace(out.partial, out.path)
