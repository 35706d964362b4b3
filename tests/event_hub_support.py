"""A minimal hub on 127.0.0.1 that speaks the table's side of docs/events-protocol.md (for the kiosk's
event tests while the hub's own endpoints are built elsewhere): ``GET /api/v1/kiosk/assignment``,
``POST /api/v1/kiosk/assignment/{uuid}/ack`` and, to receive a table's results, ``POST /api/v1/uploads``
(kept as sent, answered ``verified``). A player's join at a table: the assignment answer's ``joinable``
list and ``POST /api/v1/kiosk/events/{uuid}/entrants``, answered by the key (the same key: the same
answer) with ``join_answer`` or, by default, joined. Loopback only; one kiosk token.
"""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOKEN = "event-table-token"


def pairing_body(*, players: tuple[tuple[str, str], tuple[str, str]], name: str = "Friday Swiss",
                 fmt: str = "swiss", round_: int | None = 3, bank: float = 90, delay: float = 5,
                 balances: int = 60, berserk: bool = False, key: str | None = None) -> dict[str, Any]:
    """A pairing as the hub sends it (``players``: (uuid, name) for seat 0, then seat 1)."""
    return {"uuid": key or str(uuid.uuid4()), "event": {"uuid": "0192aaaa-0000-7000-8000-000000000001",
                                                        "name": name, "format": fmt},
            "round": round_, "players": [{"uuid": u, "name": n} for u, n in players],
            "settings": {"bank_seconds": bank, "delay_seconds": delay, "balances": balances},
            "berserk": berserk, "acknowledge_by": 1_764_700_000.0}


class EventHub:
    """The fake hub's state: the pairing it gives, how it answers acknowledgements, what it received."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pairing: dict[str, Any] | None = None
        self.moved: set[str] = set()
        """Pairings whose acknowledgement is answered 409 (moved to another table or cancelled)."""
        self.acks: list[str] = []
        self.asks = 0
        self.uploads: list[dict[str, Any]] = []
        self.down = False
        """Answer 503 to everything (the hub's database away)."""
        self.joinable: list[dict[str, Any]] | None = []
        """The events taking entries (None: the field left out, as an older hub does)."""
        self.joins: list[tuple[str, dict[str, Any]]] = []
        """Every join received: (event uuid, body), in order (retries too)."""
        self.join_answer: dict[str, Any] | None = None
        """The answer to the next new key (None: joined); an answer given once is kept for its key."""
        self.join_status = 200
        """The status of the answers to joins (a 5xx: the join is not taken)."""
        self.answers: dict[str, dict[str, Any]] = {}
        self.hold = threading.Event()
        """Set: an assignment request is held (not answered) until ``release`` is set (a hub that hangs)."""
        self.held = threading.Event()
        """Set once a request is being held."""
        self.release = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="event-hub", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> EventHub:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def give(self, pairing: dict[str, Any] | None) -> None:
        with self.lock:
            self.pairing = pairing

    def matches(self) -> list[dict[str, Any]]:
        """Every match uploaded so far."""
        with self.lock:
            return [m for body in self.uploads for m in body.get("matches", [])]


def _handler(hub: EventHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _answer(self, status: int, value: Any) -> None:
            body = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _authorised(self) -> bool:
            if hub.down:
                self._answer(503, {"error": {"code": "unavailable", "message": "the hub's database is away"}})
                return False
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                self._answer(401, {"error": {"code": "unauthorised", "message": "no such kiosk token"}})
                return False
            return True

        def do_GET(self) -> None:
            if not self._authorised():
                return
            if self.path != "/api/v1/kiosk/assignment":
                self._answer(404, {"error": {"code": "not_found", "message": "no such page"}})
                return
            if hub.hold.is_set():
                hub.held.set()
                hub.release.wait(30)
            with hub.lock:
                hub.asks += 1
                answer: dict[str, Any] = {"pairing": hub.pairing}
                if hub.joinable is not None:
                    answer["joinable"] = hub.joinable
                self._answer(200, answer)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not self._authorised():
                return
            parts = self.path.split("/")
            if self.path == "/api/v1/uploads":
                body = json.loads(raw)
                with hub.lock:
                    hub.uploads.append(body)
                self._answer(200, {"players": [{"uuid": p["uuid"], "result": "stored"} for p in body["players"]],
                                   "matches": [{"uuid": m["uuid"], "status": "verified"} for m in body["matches"]]})
                return
            if len(parts) == 7 and parts[1:5] == ["api", "v1", "kiosk", "assignment"] and parts[6] == "ack":
                key = parts[5]
                with hub.lock:
                    hub.acks.append(key)
                    if key in hub.moved:
                        self._answer(409, {"error": {"code": "moved", "message": "the pairing was moved to table 2"}})
                    elif hub.pairing is None or hub.pairing["uuid"] != key:
                        self._answer(404, {"error": {"code": "not_found", "message": "not this table's pairing"}})
                    else:
                        self._answer(200, {"acknowledged": True})
                return
            if len(parts) == 7 and parts[1:5] == ["api", "v1", "kiosk", "events"] and parts[6] == "entrants":
                self._join(parts[5], json.loads(raw))
                return
            self._answer(404, {"error": {"code": "not_found", "message": "no such page"}})

        def _join(self, event: str, body: dict[str, Any]) -> None:
            with hub.lock:
                hub.joins.append((event, body))
                if hub.join_status != 200:
                    self._answer(hub.join_status, {"error": {"code": "unavailable", "message": "the hub is away"}})
                    return
                key = body["key"]
                if key not in hub.answers:
                    name = next((e["name"] for e in hub.joinable or [] if e["uuid"] == event), "?")
                    hub.answers[key] = hub.join_answer or {
                        "result": "joined", "reason": None, "message": "joined", "round": None,
                        "event": {"uuid": event, "name": name, "format": "arena"}, "player": body["player"]}
                    hub.join_answer = None
                self._answer(200, hub.answers[key])

    return Handler
