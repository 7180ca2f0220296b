package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// FileProblem says in words why a file could not be opened or read: "no
// such file", "permission denied", "is a directory", ...
func FileProblem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// OutputFile is a usage error when the file an output flag names cannot be
// created later (its directory is missing, or it is a directory), so that a
// long run does not end on the error; nil for "" (no file).
func OutputFile(flagName, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Usagef("%s %s: is a directory; want a file to write", flagName, path)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return Usagef("%s %s: directory %s: %s", flagName, path, dir, FileProblem(err))
	case !st.IsDir():
		return Usagef("%s %s: %s is not a directory", flagName, path, dir)
	}
	return nil
}
