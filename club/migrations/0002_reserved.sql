-- Version 2 is another branch's migration (players' renames and merges); this placeholder keeps the
-- numbers contiguous on the club-page branch and is replaced by that file when the branches merge.
SELECT 1;
