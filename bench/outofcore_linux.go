package bench

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropCache discards the file's clean pages from the page cache
// (posix_fadvise POSIX_FADV_DONTNEED), so that the next read of it comes
// from the disk.
func dropCache(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// freeBytes returns the bytes an unprivileged user may still write under dir.
func freeBytes(dir string) (int64, error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil {
		return 0, err
	}
	return int64(fs.Bavail) * int64(fs.Bsize), nil
}
