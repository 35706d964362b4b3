"""JournalKeeper's store-failure branches that the other keeper tests do not reach, on a real SQLite
file with real kernel errors: a damaged page met by ``resume`` in a folder where the damaged file
cannot be moved aside, and a fresh start that the folder refuses. In both the table goes on, the
banner says why, and the next attempt once the folder takes changes again loses nothing."""

from __future__ import annotations

from pathlib import Path

from journal_support import S, Wall, damage_table_page, kept_table, new_table, play_until, read_only_folder

from kiosk.store.journal import Journal
from kiosk.store.keeper import JournalKeeper

NOT_SAVING = ("Results are not being saved: {why}. Matches can still be played; the kiosk keeps trying to save "
              "them.")
CANNOT_MOVE = "it cannot be moved aside ({error})"


def open_keeper(path: Path, now: int = 1000 * S) -> JournalKeeper:
    return JournalKeeper.open(path, "boot-a", now, wall_clock=Wall())


def test_a_damaged_page_met_by_resume_where_the_file_cannot_be_moved_aside_is_repaired_later(tmp_path: Path) -> None:
    folder = tmp_path / "card"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    with Journal.open(path) as j:
        unfinished = new_table(j, seed=81)
        play_until(unfinished, lambda m: len(unfinished.recorder.rows) >= 6)
    keeper = open_keeper(path)
    assert keeper.journal is not None
    damage_table_page(keeper.journal, "entries")
    with read_only_folder(folder):
        assert keeper.resume(unfinished.now + S) is None  # the damaged page, and the move aside refused
        state = keeper.state
        assert not state.saving and state.problem is not None and state.problem.msgid == NOT_SAVING
        why = state.problem.params["why"]
        assert why.msgid == CANNOT_MOVE and why.params["error"] == "Read-only file system"
        assert sorted(p.name for p in folder.iterdir() if ".corrupt-" in p.name) == []  # nothing moved
        assert keeper.take_notices() == []
        assert keeper.sync(None, unfinished.now + 3 * S).saving is False  # still refused, tried again
    state = keeper.sync(None, unfinished.now + 10 * S)  # the folder takes changes again: repaired
    assert state.saving and state.problem is None
    assert [p.name for p in folder.iterdir() if ".corrupt-" in p.name]  # the damaged file, moved aside now
    notices = [n.msgid for n in keeper.take_notices()]
    assert "Results are being saved again; nothing played in the meantime was lost." in notices
    assert keeper.journal is not None and keeper.journal.matches() == []  # a new file: no backup to restore
    table = kept_table(keeper, seed=82, now=unfinished.now + 11 * S)  # the kiosk goes on
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    assert keeper.state.saving and len(keeper.journal.commands(table.recorder.match_id)) == len(table.recorder.rows)
    keeper.close()


def test_a_fresh_start_the_folder_refuses_keeps_the_match_and_writes_it_into_the_journal_later(tmp_path: Path) -> None:
    folder = tmp_path / "card"
    folder.mkdir()
    path = folder / "journal.sqlite3"
    keeper = open_keeper(path)
    table = kept_table(keeper, seed=83)
    play_until(table, lambda m: len(table.recorder.rows) >= 4)
    assert keeper.state.saving
    with read_only_folder(folder):
        state = keeper.start_fresh(table.now + S)
        assert not state.saving and state.problem is not None and state.problem.msgid == NOT_SAVING
        assert state.problem.params["why"].msgid == CANNOT_MOVE
        assert keeper.journal is None and path.exists()  # closed, and still where it was
        play_until(table, lambda m: len(table.recorder.rows) >= 8)  # the match goes on, kept in memory
        assert not keeper.state.saving and keeper.state.unsaved > 0
    state = keeper.sync(table.match, table.now + 120 * S)  # past the back-off, the folder writable again
    assert state.saving and state.unsaved == 0
    assert keeper.journal is not None and keeper.journal.path == path  # the same journal, opened again
    assert not [p for p in folder.iterdir() if ".old-" in p.name]  # nothing set aside: the owner may ask again
    assert len(keeper.journal.commands(table.recorder.match_id)) == len(table.recorder.rows)  # nothing lost
    keeper.close()
