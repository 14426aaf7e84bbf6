"""The web server (``canasta serve``): tables in a database, played in the browser.

``create_app(database_url)`` builds the FastAPI app; see docs/web.md.
"""

from __future__ import annotations

from canasta.web.app import create_app

__all__ = ["create_app"]
