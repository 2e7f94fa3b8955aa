"""Where an output file really goes, and writing one safely.

- A new or regular file is written to a temporary ``F.partial`` in its folder and renamed
  into place, so a reader never sees half a file; a failed write leaves ``F`` as it was.
- One writer at a time: while ``F`` is written, an advisory lock (``flock``) is held on
  ``F.lock``, and a second writer of ``F`` is refused with :class:`OutputBusyError`.
- An existing character device or FIFO (``/dev/null``, ``/dev/tty``, a named pipe) and an open
  file descriptor (``/dev/stdout``, ``/dev/fd/N``) are written in place: never replaced,
  never truncated, never given a temporary file, never resumed. ``-o /dev/null`` discards. A
  descriptor of this process is written through a duplicate of it, so it shares the offset
  of everything else written there (``-o - --summary-json /dev/stderr > f 2>&1`` keeps both).
- A symbolic link is written through: the temporary file goes next to the file the link names
  and replaces that file; the link stays a link.
- A directory, a block device, a socket or an empty name is refused.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from cardcore.errors import OptionError

__all__ = [
    "OutputBusyError",
    "OutputFile",
    "OutputLock",
    "checked_output",
    "lock_path",
    "open_output",
    "output_file",
    "partial_path",
    "write_text",
]

# open file descriptors: resolving these links would name the file behind the descriptor
_DESCRIPTORS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_DESCRIPTOR_FOLDERS = ("/dev/fd/", "/proc/")
_OWN_FD = re.compile(r"/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)")


class OutputBusyError(OptionError):
    """An output that another process (or another writer in this one) is writing now."""


def partial_path(path: str) -> str:
    """Where output ``path`` is written until it is complete."""
    return path + ".partial"


def lock_path(path: str) -> str:
    """The file whose advisory lock marks output ``path`` as being written."""
    return path + ".lock"


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
    directory, a block device, a socket, an empty name or a path that cannot be looked at."""
    if not name:
        raise OptionError("an empty file name")
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


def own_descriptor(name: str) -> int | None:
    """The descriptor of this process that ``name`` names (``/dev/stdout``, ``/dev/fd/3``,
    ``/proc/self/fd/3``), else None."""
    normal = os.path.normpath(name)
    if normal in _DESCRIPTORS:
        return _DESCRIPTORS[normal]
    m = _OWN_FD.fullmatch(normal)
    if m is None or (m.group(1) is not None and int(m.group(1)) != os.getpid()):
        return None
    return int(m.group(2))


def open_output(path: str, *, append: bool = False, binary: bool = False) -> IO[Any]:
    """Opens ``path`` for writing (UTF-8 text without newline translation, or ``binary``).
    A descriptor of this process is duplicated (same offset, never truncated); an existing
    device, FIFO or another process's descriptor is opened in place without truncation
    (appending to a regular file behind it); anything else is created, or truncated unless
    ``append``."""
    fd = own_descriptor(path)
    if fd is not None:
        new = os.dup(fd)
    else:
        out = output_file(path)
        flags = os.O_WRONLY | os.O_CLOEXEC
        if out.direct:
            flags |= os.O_APPEND
        else:
            flags |= os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
        new = os.open(path, flags, 0o666)
    mode = ("a" if append else "w") + ("b" if binary else "")
    if binary:
        return os.fdopen(new, mode)
    return os.fdopen(new, mode, encoding="utf-8", newline="")


class OutputLock:
    """The advisory lock of one output ``path`` (``flock`` on :func:`lock_path`), held from
    :meth:`acquire` to :meth:`release`; the lock file is removed on release."""

    def __init__(self, path: str, name: str | None = None) -> None:
        self.path, self.name = path, name if name is not None else path
        self._fd: int | None = None

    def acquire(self) -> None:
        """Takes the lock at once or raises :class:`OutputBusyError` naming the holder."""
        if self._fd is not None:
            return
        where = lock_path(self.path)
        while True:
            fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                holder = _read_pid(fd)
                os.close(fd)
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    who = f" (process {holder})" if holder else ""
                    raise OutputBusyError(
                        f"{self.name!r} is being written by another run{who}; wait for it "
                        f"to end (its lock: {where})"
                    ) from None
                return  # a file system without locks: write unlocked, as before
            try:
                same = os.stat(where).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:  # not a lock file its last holder removed while we waited
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.remove(lock_path(self.path))
        os.close(fd)

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _read_pid(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


@contextlib.contextmanager
def _removed_on_failure(path: str) -> Iterator[None]:
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(path)
        raise


def write_text(name: str, text: str, *, exclusive: bool = False) -> None:
    """Writes ``text`` (UTF-8) to output ``name`` as the module docstring says: through a
    temporary file renamed into place (under the output's lock), or in place for a device,
    FIFO or descriptor. A failed write raises and leaves ``name`` as it was, with no
    temporary file. ``exclusive``: never replace an existing file (``FileExistsError``)."""
    out = output_file(name)
    if out.direct:
        with open_output(out.path) as f:
            f.write(text)
        return
    with OutputLock(out.path, name), _removed_on_failure(out.partial):
        with open_output(out.partial) as f:
            f.write(text)
        if exclusive:
            os.link(out.partial, out.path)
            os.remove(out.partial)
        else:
            os.replace(out.partial, out.path)
