"""``cardcore serve``: the web table (needs the ``web`` extra; imported only when it runs)."""

from __future__ import annotations

import importlib.util
import ipaddress
from pathlib import Path

import click

__all__ = ["serve_cmd"]


def _lan_address(host: str) -> str | None:
    """The address other machines reach this server at: ``host`` itself, or for a wildcard
    (0.0.0.0, ::) the address of the interface that leads to the network (found by pointing
    a UDP socket at a private address: nothing is sent), ``None`` when there is none."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            addr: str = s.getsockname()[0]
        except OSError:
            return None
    return None if _is_loopback(addr) or addr == "0.0.0.0" else addr


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """``--host``: an address or a name; an empty one would bind every address unannounced."""
    value = value.strip()
    if not value or any(c.isspace() or c in "/[]@" for c in value.strip("[]")):
        raise click.BadParameter("give an address or a host name (0.0.0.0 for every address)")
    return value.strip("[]") if ":" in value else value


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    callback=_host,
    help="Address to listen on.",
)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the table in a browser.")
@click.option(
    "--profile",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Profile database (default: your data folder, e.g. "
    "~/.local/share/cardcore/profile.sqlite3).",
)
@click.option("--no-profile", is_flag=True, help="Keep no stats.")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The server's own folder: the daily deals' secret and the rooms in play, kept "
    "across restarts (default: your data folder, e.g. ~/.local/share/cardcore).",
)
@click.option(
    "--replay-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where finished games are saved as replays (default ~/.cardcore/replays).",
)
@click.option("--no-replay", is_flag=True, help="Do not save replays.")
@click.option(
    "--ai-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help="Seconds before each AI move of the turn-based games.",
)
def serve_cmd(
    host: str,
    port: int,
    open_browser: bool,
    profile: Path | None,
    no_profile: bool,
    data_dir: Path | None,
    replay_dir: Path | None,
    no_replay: bool,
    ai_delay: float,
) -> None:
    """Serve a web table for every game: play the AIs, or invite friends to a room.

    Listens on 127.0.0.1 (this computer only) unless --host says otherwise. Each room's
    invite link lets a friend take a seat; anyone who can reach the address and has a
    room's link can join that room.
    """
    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        from cardcore.web import MISSING_WEB

        raise click.ClickException(MISSING_WEB)
    import uvicorn

    from cardcore.web.app import ServerConfig, create_app, uvicorn_options
    from cardcore.web.profile import default_profile_path

    invite_base = None
    if not _is_loopback(host):
        click.echo(
            f"warning: listening on {host}: other machines on the network can reach this "
            "server; anyone with a room's invite link can take an open seat.",
            err=True,
        )
        lan = _lan_address(host)
        if lan is not None:
            invite_base = f"http://{f'[{lan}]' if ':' in lan else lan}:{port}"
            click.echo(f"friends on your network open {invite_base}/", err=True)
    allowed = () if _is_ip(host) else (host,)
    config = ServerConfig(
        allowed_hosts=allowed,
        profile=None if no_profile else (profile or default_profile_path()),
        data_dir=data_dir or default_profile_path().parent,
        replay_dir=None if no_replay else (replay_dir or Path.home() / ".cardcore" / "replays"),
        ai_delay=ai_delay,
        invite_base=invite_base,
    )
    app = create_app(config)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    click.echo(f"cardcore table at {url}  (Ctrl+C to stop)", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, **uvicorn_options())
