"""The upload's shape on the wire and its limits (docs/club.md, "The upload").

An upload is ``{"players": [...], "matches": [...]}``: new players (uuid, name) and finished matches,
each with its header, its claimed result and its journal rows exactly as the journal keeps them
(the row checksums cover the kiosk's local match id, so the header carries it). Anything outside
this shape is refused whole with a 422 naming the field; more than the limits, with a 413.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from club.errors import BadRequest, TooLarge

MAX_BODY_BYTES = 4 * 1024 * 1024
"""The largest upload body (bytes); a kiosk sends one match per upload when its rows need it."""
MAX_ROWS = 5_000
"""The most journal rows in one upload (a long match has a few hundred)."""
MAX_MATCHES = 200
MAX_PLAYERS = 500

I64 = Annotated[int, Field(ge=0, lt=2**63)]


def _storable(text: str) -> str:
    """Text PostgreSQL can hold: no NUL character, no lone surrogate."""
    if "\x00" in text:
        raise ValueError("text may not contain a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError("text is not valid Unicode (a lone surrogate)") from exc
    return text


Storable = AfterValidator(_storable)
StepText = Annotated[str, Field(max_length=8192), Storable]
SnapshotText = Annotated[str, Field(max_length=262_144), Storable]
ShortText = Annotated[str, Field(max_length=128), Storable]
NameText = Annotated[str, Field(max_length=80), Storable]


Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class Row(_Strict):
    """One journal row (``entries``), as the journal keeps it: ``step`` is the row's JSON text."""

    seq: Annotated[int, Field(ge=1, le=1_000_000)]
    step: StepText
    snapshot: SnapshotText | None = None
    snapshot_sha: Hex64
    arrival_ns: I64
    boot_id: ShortText
    wall: float
    checksum: Hex64


class Config(_Strict):
    """The match configuration, ``MatchConfig.to_dict()``."""

    balances: Annotated[list[Annotated[int, Field(ge=0, le=100_000)]], Field(min_length=2, max_length=2)]
    bank_ns: Annotated[list[I64], Field(min_length=2, max_length=2)]
    delay_ns: I64
    handover: bool
    jockey: Literal[0, 1] | None


class Header(_Strict):
    """A match's row in the journal: who played, when, with what configuration."""

    local_id: Annotated[int, Field(ge=1, lt=2**63)]
    players: Annotated[list[uuid.UUID | None], Field(min_length=2, max_length=2)]
    computer_level: Annotated[int, Field(ge=1, le=4)] | None = None
    created_wall: float
    ended_wall: float
    config: Config
    event_pairing: uuid.UUID | None = None
    """The club event's pairing this match was played for (docs/events-protocol.md); absent outside events."""
    berserk: Annotated[list[Literal[0, 1]], Field(max_length=2)] | None = None
    """The seats that halved their own bank at the ready screen (an arena with berserk)."""


class Claimed(_Strict):
    """The result the kiosk recorded: winner seat (None after an abort), why, final balances."""

    winner: Literal[0, 1] | None
    reason: Literal["balance", "time", "resign", "aborted"]
    balances: Annotated[list[int], Field(min_length=2, max_length=2)]


class MatchUpload(_Strict):
    """One finished match, keyed by its uuid."""

    uuid: uuid.UUID
    header: Header
    claimed: Claimed
    rows: Annotated[list[Row], Field(min_length=1)]

    def content_sha256(self) -> str:
        """The digest that decides "the same content": canonical JSON of everything uploaded. The event
        fields count only when given, so a match uploaded before they existed keeps its digest."""
        dumped = self.model_dump(mode="json")
        for optional in ("event_pairing", "berserk"):
            if dumped["header"].get(optional) is None:
                dumped["header"].pop(optional, None)
        return canonical_sha(dumped)


class PlayerUpload(_Strict):
    """A player made at a kiosk."""

    uuid: uuid.UUID
    name: NameText

    def content_sha256(self) -> str:
        """The digest of the player's content (its name)."""
        return canonical_sha(self.model_dump(mode="json"))


class Upload(_Strict):
    """The body of ``POST /api/v1/uploads``."""

    players: Annotated[list[PlayerUpload], Field(max_length=MAX_PLAYERS)] = []
    matches: Annotated[list[MatchUpload], Field(max_length=MAX_MATCHES)] = []


def canonical_sha(value: Any) -> str:
    """SHA-256 of ``value`` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_upload(body: bytes) -> Upload:
    """The upload in ``body``; BadRequest naming the first problems, TooLarge past the limits."""
    if len(body) > MAX_BODY_BYTES:
        raise TooLarge(f"the body has {len(body)} bytes, more than {MAX_BODY_BYTES}", limit=MAX_BODY_BYTES)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from exc
    if isinstance(data, dict):
        _check_counts(data)
    try:
        upload = Upload.model_validate_json(body)
    except ValidationError as exc:
        raise BadRequest(f"the upload is not in the hub's format: {_problems(exc)}",
                         problems=_problem_list(exc)) from exc
    return upload


def _check_counts(data: dict[str, Any]) -> None:
    matches = data.get("matches")
    if isinstance(matches, list):
        if len(matches) > MAX_MATCHES:
            raise TooLarge(f"the upload has {len(matches)} matches, at most {MAX_MATCHES} in one upload",
                           limit=MAX_MATCHES)
        rows = sum(len(m["rows"]) for m in matches if isinstance(m, dict) and isinstance(m.get("rows"), list))
        if rows > MAX_ROWS:
            raise TooLarge(f"the upload has {rows} journal rows, at most {MAX_ROWS} in one upload", limit=MAX_ROWS)
    players = data.get("players")
    if isinstance(players, list) and len(players) > MAX_PLAYERS:
        raise TooLarge(f"the upload has {len(players)} players, at most {MAX_PLAYERS} in one upload",
                       limit=MAX_PLAYERS)


def _problem_list(exc: ValidationError) -> list[dict[str, str]]:
    return [{"at": ".".join(str(p) for p in err["loc"]), "problem": err["msg"]} for err in exc.errors()[:10]]


def _problems(exc: ValidationError) -> str:
    listed = _problem_list(exc)
    text = "; ".join(f"{p['at']}: {p['problem']}" for p in listed[:3])
    more = exc.error_count() - min(3, len(listed))
    return text + (f" (and {more} more)" if more > 0 else "")
