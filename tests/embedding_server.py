"""A real local HTTP server speaking the OpenAI embeddings API, with a toy model, for the tests.

Each text's vector is a hashed bag of words (64 dimensions), plus a few hand-made "concepts" so
that words of related meaning land near each other ("drink" and "beer"). Deterministic, and
nothing is downloaded. ``fail`` makes it answer 500; ``requests`` records what it was asked.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIMENSIONS = 64
CONCEPTS = {"drink": "beverage", "drinks": "beverage", "beer": "beverage", "wine": "beverage",
            "afraid": "fear", "fear": "fear", "dislikes": "fear", "flying": "fear"}


def vector(text: str) -> list[float]:
    values = [0.0] * DIMENSIONS
    for word in re.findall(r"\w+", text.casefold()):
        for token in (word, CONCEPTS.get(word)):
            if token:
                bucket = int.from_bytes(hashlib.sha256(token.encode()).digest()[:4], "big") % DIMENSIONS
                values[bucket] += 1.0 if token == word else 3.0
    return values


class EmbeddingServer:
    """Serve ``POST /v1/embeddings`` on 127.0.0.1 at a free port while in use (a context manager)."""

    def __init__(self, model: str = "toy-embed"):
        self.model = model
        self.fail = False
        self.requests: list[list[str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path != "/v1/embeddings" or server.fail:
                    self.send_response(500 if server.fail else 404)
                    self.end_headers()
                    return
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                server.requests.append(texts)
                answer = {"object": "list", "model": body["model"],
                          "data": [{"object": "embedding", "index": i, "embedding": vector(t)}
                                   for i, t in enumerate(texts)]}
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> EmbeddingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    @property
    def texts(self) -> list[str]:
        return [t for batch in self.requests for t in batch]
