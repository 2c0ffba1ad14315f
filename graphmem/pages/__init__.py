"""What every page graphmem draws shares: the palette, the common scripts and stylesheet, vis-network.

The pictures (:mod:`visualize`, self-contained files) and the explorer (a local web app) both
draw from here, so a status looks the same in each; neither imports the other.

Internal: the pictures and the explorer read these.
"""

from __future__ import annotations

from pathlib import Path

import pyvis

from ..errors import GraphmemError

__all__ = ["STATIC", "shared_asset_path", "vis_network_dir"]

#: The folder of the scripts and stylesheet both the pictures and the explorer load.
STATIC = Path(__file__).parent / "static"
VIS_NETWORK = Path(pyvis.__file__).parent / "templates" / "lib" / "vis-9.1.2"


def shared_asset_path(name: str) -> Path:
    """The path of one of the shared static files (``common.js``, ``graph.js``, ``style.css``, ...)."""
    return STATIC / name


def vis_network_dir() -> Path:
    """The folder of vis-network's files inside the installed pyvis, checked to hold them."""
    missing = [name for name in ("vis-network.min.js", "vis-network.css")
               if not (VIS_NETWORK / name).is_file()]
    if missing:
        raise GraphmemError(
            f"vis-network is missing from the installed pyvis ({VIS_NETWORK / missing[0]}); "
            "reinstall pyvis 0.3.2: pip install --force-reinstall 'pyvis==0.3.2'"
        )
    return VIS_NETWORK
