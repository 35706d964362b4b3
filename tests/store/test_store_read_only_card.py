"""A card that turns itself read-only (ext4 ``errors=remount-ro``) on a real loop-mounted file system:
the journal says "read-only", not "input/output error" (issue 26, finding 11)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kiosk.store.errors import StoreUnavailable
from kiosk.store.journal import Journal
from kiosk.store.players import Players
from kiosk.store.sqlerrors import folder_write_errno

READ_ONLY = "the storage has become read-only (a card with errors becomes read-only by itself)"


@contextmanager
def ext4_card(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A 16 MiB ext4 image mounted (loop) with ``errors=remount-ro``; yields the mount point and the
    sysfs file that injects a file system error."""
    missing = [tool for tool in ("mkfs.ext4", "mount", "umount", "findmnt") if shutil.which(tool) is None]
    if missing or os.geteuid() != 0:
        pytest.fail(f"this test needs root and {', '.join(missing) or 'loop devices'} "
                    "(Debian packages e2fsprogs, mount, util-linux)")
    image, mount = tmp_path / "card.img", tmp_path / "card"
    with open(image, "wb") as stream:
        stream.truncate(16 * 1024 * 1024)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    mount.mkdir()
    subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(mount)], check=True)
    try:
        source = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(mount)], check=True, capture_output=True,
                                text=True).stdout.strip()
        yield mount, Path("/sys/fs/ext4") / os.path.basename(source) / "trigger_fs_error"
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_card_remounted_read_only_after_an_error_is_named_read_only(tmp_path: Path) -> None:
    with ext4_card(tmp_path) as (mount, trigger):
        journal = Journal.open(mount / "journal.sqlite3")
        try:
            players = Players(journal)
            assert folder_write_errno(mount) is None
            players.create("Ann")  # written while the card is healthy
            trigger.write_text("test error\n")  # the kernel remounts the card read-only
            with pytest.raises(StoreUnavailable) as caught:
                players.create("Ben")
            assert caught.value.why.msgid == READ_ONLY
            assert "read-only" in str(caught.value)
            assert [p.name for p in players.list()] == ["Ann"]  # reads still work
        finally:
            journal.close()
