-- Version 1: kiosks, players (with their club ratings), matches with their journal rows, conflicts.
CREATE TABLE kiosks (
    uuid          uuid PRIMARY KEY,
    name          text NOT NULL UNIQUE,
    token_sha256  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- the roster's version: one row, bumped by every upload that changes a player or a rating
CREATE TABLE roster (
    singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    version    bigint NOT NULL
);
INSERT INTO roster VALUES (true, 0);

CREATE TABLE players (
    uuid         uuid PRIMARY KEY,
    name         text NOT NULL,
    kiosk        uuid NOT NULL REFERENCES kiosks(uuid),
    received_at  timestamptz NOT NULL DEFAULT now(),
    rating       double precision NOT NULL,
    rd           double precision NOT NULL,
    volatility   double precision NOT NULL,
    games        integer NOT NULL DEFAULT 0,
    wins         integer NOT NULL DEFAULT 0,
    losses       integer NOT NULL DEFAULT 0,
    version      bigint NOT NULL
);
CREATE INDEX players_version ON players(version);

CREATE TABLE matches (
    uuid              uuid PRIMARY KEY,
    kiosk             uuid NOT NULL REFERENCES kiosks(uuid),
    local_id          bigint NOT NULL,
    player0           uuid REFERENCES players(uuid),
    player1           uuid REFERENCES players(uuid),
    computer_level    smallint,
    created_wall      double precision NOT NULL,
    ended_wall        double precision NOT NULL,
    config            jsonb NOT NULL,
    claimed_winner    smallint,
    claimed_reason    text NOT NULL,
    claimed_balances  integer[] NOT NULL,
    status            text NOT NULL CHECK (status IN ('verified', 'rejected')),
    rejection         text,
    winner            smallint,
    reason            text,
    balances          integer[],
    rated             boolean NOT NULL,
    engine_version    text NOT NULL,
    content_sha256    text NOT NULL,
    received_at       timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'rejected') = (rejection IS NOT NULL)),
    CHECK (NOT rated OR status = 'verified')
);
CREATE INDEX matches_canonical ON matches(ended_wall, kiosk, uuid);
CREATE INDEX matches_rated ON matches(rated) WHERE rated;

CREATE TABLE match_rows (
    match         uuid NOT NULL REFERENCES matches(uuid),
    seq           integer NOT NULL,
    step          text NOT NULL,
    snapshot      text,
    snapshot_sha  text NOT NULL,
    arrival_ns    bigint NOT NULL,
    boot_id       text NOT NULL,
    wall          double precision NOT NULL,
    checksum      text NOT NULL,
    PRIMARY KEY (match, seq)
);

-- the last verified rated match folded into the stored ratings, in the canonical order
CREATE TABLE rating_state (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_wall   double precision,
    last_kiosk  uuid,
    last_match  uuid
);
INSERT INTO rating_state VALUES (true, NULL, NULL, NULL);

-- refused uploads of a key already held with other content (or by another kiosk): for the director
CREATE TABLE conflicts (
    id              bigserial PRIMARY KEY,
    kind            text NOT NULL CHECK (kind IN ('match', 'player')),
    key             uuid NOT NULL,
    kiosk           uuid NOT NULL REFERENCES kiosks(uuid),
    content_sha256  text NOT NULL,
    why             text NOT NULL,
    content         jsonb NOT NULL,
    first_seen      timestamptz NOT NULL DEFAULT now(),
    last_seen       timestamptz NOT NULL DEFAULT now(),
    times           integer NOT NULL DEFAULT 1,
    UNIQUE (kind, key, kiosk, content_sha256)
);
