#!/usr/bin/python3
"""tests/fakecard.py: a fake card made with FUSE, for tests/capacity_fuse.sh.

    fakecard.py MODE CLAIMED BACKING MOUNTPOINT
    fakecard.py --can       (exit 0 when this Python has fusepy and libfuse)

Mounts a file system at MOUNTPOINT that holds one file, `card`, of CLAIMED
bytes (getattr says so; it never changes size), backed by the file BACKING
of `real` bytes (its size).  MODE says what lies past `real`:

    wrap   byte x of the card is byte x mod real of BACKING (the card wraps
           around: two addresses reach the same flash)
    drop   writes past real are lost, reads there give zeros

The file is opened with direct I/O, so the kernel's page cache never answers
for it: a write that lands on another address is seen there at once.  Reads
and writes that straddle `real` (or a wrap) are split.  The daemon runs in
the foreground, single-threaded, and prints "ready" on standard output once
the mount is up (the kernel's INIT request has been answered), so that a
test can wait for that line.  Unmounting the file system ends it.
"""
import errno
import os
import stat
import sys
import time

try:  # Debian's python3-fusepy calls the module fusepy; upstream calls it fuse
    import fusepy as fuse
except ImportError:
    import fuse
if not hasattr(fuse, "Operations"):  # "fuse" was python3-fuse, another binding
    raise ImportError("no fusepy: this fuse module has no Operations")

NAME = "/card"


class FakeCard(fuse.Operations):
    use_ns = True

    def __init__(self, mode, claimed, backing):
        self.mode, self.claimed = mode, claimed
        self.fd = os.open(backing, os.O_RDWR | os.O_CLOEXEC)
        self.real = os.fstat(self.fd).st_size
        if self.real <= 0 or self.real > claimed:
            raise ValueError(f"{backing}: {self.real} bytes; want 1 to {claimed}")
        self.now = time.time_ns()

    def init(self, path):
        print("ready", flush=True)

    def destroy(self, path):
        os.close(self.fd)

    def getattr(self, path, fh=None):
        t = dict(st_atime=self.now, st_mtime=self.now, st_ctime=self.now,
                 st_uid=os.getuid(), st_gid=os.getgid())
        if path == "/":
            return dict(t, st_mode=stat.S_IFDIR | 0o755, st_nlink=2)
        if path == NAME:
            return dict(t, st_mode=stat.S_IFREG | 0o600, st_nlink=1,
                        st_size=self.claimed, st_blocks=self.claimed // 512)
        raise fuse.FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", NAME[1:]]

    def open(self, path, fi):
        if path != NAME:
            raise fuse.FuseOSError(errno.ENOENT)
        fi.direct_io = True  # no page cache: every read comes here
        fi.fh = 0
        return 0

    def truncate(self, path, length, fh=None):
        if length != self.claimed:  # a card has the size it claims
            raise fuse.FuseOSError(errno.EPERM)
        return 0

    def fsync(self, path, datasync, fh):
        # The backing file is read through the same page cache by the test,
        # and this daemon outlives every run it serves: nothing to sync.
        return 0

    def pieces(self, offset, size):
        """(backing offset or None for lost, length) covering the request"""
        end = min(offset + size, self.claimed)
        while offset < end:
            if self.mode == "wrap":
                pos = offset % self.real
                n = min(end - offset, self.real - pos)
            elif offset < self.real:
                pos, n = offset, min(end, self.real) - offset
            else:
                pos, n = None, end - offset
            yield pos, n
            offset += n

    def read(self, path, size, offset, fh):
        out = []
        for pos, n in self.pieces(offset, size):
            data = bytes(n) if pos is None else os.pread(self.fd, n, pos)
            if len(data) != n:
                raise fuse.FuseOSError(errno.EIO)
            out.append(data)
        return b"".join(out)

    def write(self, path, data, offset, fh):
        if offset >= self.claimed:
            raise fuse.FuseOSError(errno.ENOSPC)
        done = 0
        for pos, n in self.pieces(offset, len(data)):
            if pos is not None and os.pwrite(self.fd, data[done:done + n], pos) != n:
                raise fuse.FuseOSError(errno.EIO)
            done += n
        return done


def main(argv):
    if argv[1:] == ["--can"]:
        return 0
    if len(argv) != 5 or argv[1] not in ("wrap", "drop"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    card = FakeCard(argv[1], int(argv[2]), argv[3])
    # big_writes and max_write: requests of 128 KiB rather than 4 KiB
    fuse.FUSE(card, argv[4], raw_fi=True, foreground=True, nothreads=True,
              big_writes=True, max_write=131072, max_read=131072,
              fsname="fakecard")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
