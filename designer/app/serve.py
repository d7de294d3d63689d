"""Start the app's Streamlit server in this process, with its PNG renderer loaded first.

Loading cairosvg finds the cairo library on the machine, and on Linux Python's library finder may run the C
compiler with a temporary file to do so. Done here, before the server takes any request, that happens once at
start-up; done when a browser first asks for a PNG (the Export tab), it would be the browser user's action that
made the server write to its disk, which the app never does.

Run: ``python -m designer.app.serve [streamlit options]`` (what ``rally-designer app`` runs).
"""
from __future__ import annotations

import sys
from pathlib import Path

MAIN = Path(__file__).resolve().parent / "main.py"


def command(options: list[str]) -> list[str]:
    """The ``streamlit run`` command line of the app with ``options`` after the app's own settings.

    A failure the pages do not catch shows its type only, never a traceback with the server's paths; the
    server takes no upload larger than the largest file a page accepts (the browser refuses larger files
    before sending them, and the server refuses what another client might send)."""
    from designer.app.uploads import LARGEST_MB

    return ["streamlit", "run", str(MAIN), "--client.showErrorDetails", "none",
            "--server.maxUploadSize", str(LARGEST_MB), *options]


def main(options: list[str]) -> None:
    import cairosvg  # noqa: F401  (the renderer, loaded before any request)
    from streamlit.web import cli as streamlit_cli

    sys.argv = command(options)
    sys.exit(streamlit_cli.main())


if __name__ == "__main__":
    main(sys.argv[1:])
