package table

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAll writes tables (nil ones skipped) to w, as Markdown when md is
// true, else as CSV, a blank line between two tables.
func WriteAll(w io.Writer, md bool, tables ...*Table) error {
	first := true
	for _, t := range tables {
		if t == nil {
			continue
		}
		if !first {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		first = false
		var err error
		if md {
			err = t.WriteMarkdown(w)
		} else {
			err = t.WriteCSV(w)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes tables to the file at path as WriteAll does,
// whole or not at all: into a new file next to it, which then replaces it
// (see ReplaceFile). The error names path.
func WriteFile(path string, md bool, tables ...*Table) error {
	err := ReplaceFile(path, func(w io.Writer) error { return WriteAll(w, md, tables...) })
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// ReplaceFile writes the file at path with fill, whole or not at all: fill
// writes a temporary file in the same directory, which is flushed, synced,
// closed and renamed over path once every step succeeded; on any error the
// temporary file is removed and path is as it was. A symbolic link is
// followed (the file it names is replaced, the link stays); a path that is
// there but is no regular file (/dev/stdout, a pipe) is written in place,
// every write checked, since there is no file to replace. A new file gets
// mode 0644, a replaced one keeps its mode.
func ReplaceFile(path string, fill func(w io.Writer) error) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return writeInPlace(target, fill)
		}
		mode = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = fillFile(f, fill)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		return errors.Join(err, os.Remove(tmp))
	}
	return nil
}

// writeInPlace writes fill into the existing file at path (a device, a
// pipe), checking every write and the close.
func writeInPlace(path string, fill func(w io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	err = fillFile(f, fill)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fillFile runs fill on a buffered writer over f and flushes it.
func fillFile(f *os.File, fill func(w io.Writer) error) error {
	bw := bufio.NewWriter(f)
	if err := fill(bw); err != nil {
		return err
	}
	return bw.Flush()
}
