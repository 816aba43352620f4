"""The web server: lobby, seats, HTTP and WebSocket play, storage.

``create_app(db_url)`` (in :mod:`erebus.server.app`) builds the FastAPI
application; ``erebus serve`` runs it with uvicorn.
"""
