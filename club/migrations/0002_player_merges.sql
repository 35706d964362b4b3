-- Version 2: the director's renames and merges of players (docs/club.md, "Renames and merges").
-- History is never rewritten: matches keep the player uuids they were uploaded with; a merge maps an
-- alias uuid to a canonical one, and the ratings are recomputed under that mapping.

-- the name a kiosk uploaded (an upload is compared with it, so a rename is not a conflict)
ALTER TABLE players ADD COLUMN uploaded_name text;
UPDATE players SET uploaded_name = name;
ALTER TABLE players ALTER COLUMN uploaded_name SET NOT NULL;
-- the canonical player this one is merged into (NULL: not merged); kept equal to the active merge
ALTER TABLE players ADD COLUMN merged_into uuid REFERENCES players(uuid);
ALTER TABLE players ADD CONSTRAINT players_not_merged_into_itself CHECK (merged_into IS DISTINCT FROM uuid);

CREATE TABLE renames (
    id          bigserial PRIMARY KEY,
    player      uuid NOT NULL REFERENCES players(uuid),
    old_name    text NOT NULL,
    new_name    text NOT NULL,
    director    text NOT NULL,
    why         text NOT NULL,
    renamed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX renames_player ON renames(player);

CREATE TABLE merges (
    id          bigserial PRIMARY KEY,
    alias       uuid NOT NULL REFERENCES players(uuid),
    canonical   uuid NOT NULL REFERENCES players(uuid),
    director    text NOT NULL,
    why         text NOT NULL,
    merged_at   timestamptz NOT NULL DEFAULT now(),
    undone_by   text,
    undone_why  text,
    undone_at   timestamptz,
    CHECK (alias <> canonical),
    CHECK ((undone_at IS NULL) = (undone_by IS NULL) AND (undone_at IS NULL) = (undone_why IS NULL))
);
-- at most one merge in force per alias
CREATE UNIQUE INDEX merges_in_force ON merges(alias) WHERE undone_at IS NULL;

-- a late upload marks the stored ratings stale; they are recomputed once the uploads in flight are
-- stored (club/standings.py, settle), not once per late upload
ALTER TABLE rating_state ADD COLUMN stale boolean NOT NULL DEFAULT false;
