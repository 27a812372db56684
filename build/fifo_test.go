package main

import "syscall"

// mkfifo makes a named pipe at path (the tests' non-regular file).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
