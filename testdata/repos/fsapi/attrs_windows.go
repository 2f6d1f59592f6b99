package fsapi

import (
	"io/fs"
	"syscall"
)

// attributes returns the Win32 attribute bits of the file at path.
func attributes(path string) (uint32, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return 0, &fs.PathError{Op: "GetFileAttributes", Path: path, Err: err}
	}
	attrs, err := syscall.GetFileAttributes(p)
	if err != nil {
		return 0, &fs.PathError{Op: "GetFileAttributes", Path: path, Err: err}
	}
	return attrs, nil
}

// isHidden reads FILE_ATTRIBUTE_HIDDEN; on Windows a leading dot means
// nothing.
func isHidden(path string) (bool, error) {
	attrs, err := attributes(path)
	if err != nil {
		return false, err
	}
	return attrs&syscall.FILE_ATTRIBUTE_HIDDEN != 0, nil
}

func setHidden(path string, hidden bool) error {
	attrs, err := attributes(path)
	if err != nil {
		return err
	}
	if hidden {
		attrs |= syscall.FILE_ATTRIBUTE_HIDDEN
	} else {
		attrs &^= syscall.FILE_ATTRIBUTE_HIDDEN
	}
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return &fs.PathError{Op: "SetFileAttributes", Path: path, Err: err}
	}
	if err := syscall.SetFileAttributes(p, attrs); err != nil {
		return &fs.PathError{Op: "SetFileAttributes", Path: path, Err: err}
	}
	return nil
}

// isWritable reads FILE_ATTRIBUTE_READONLY. Windows decides access through
// ACLs as well, but the attribute is what os.Chmod sets and what Explorer
// shows, and it needs no security API.
func isWritable(path string) (bool, error) {
	attrs, err := attributes(path)
	if err != nil {
		return false, err
	}
	return attrs&syscall.FILE_ATTRIBUTE_READONLY == 0, nil
}

// homeDir reads %USERPROFILE% and falls back to %HOMEDRIVE%%HOMEPATH%, which
// older services set instead.
func homeDir() (string, error) {
	if profile, ok := syscall.Getenv("USERPROFILE"); ok && profile != "" {
		return profile, nil
	}
	drive, _ := syscall.Getenv("HOMEDRIVE")
	path, _ := syscall.Getenv("HOMEPATH")
	if drive != "" && path != "" {
		return drive + path, nil
	}
	return "", ErrNoHome
}
