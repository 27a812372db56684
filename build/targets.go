package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// target is a platform the exporter builds the FMU binary for.
type target struct {
	name       string // the -platforms name: the FMI 2.0 folder
	fmi3Folder string // the FMI 3.0 folder
	ext        string // the library's file extension
	goos       string
	cc         string // the C compiler cgo uses
	pkg        string // the Debian package that provides cc
}

// targets are the platforms the exporter knows, in the order it builds
// them.
var targets = []target{
	{name: "linux64", fmi3Folder: "x86_64-linux", ext: ".so", goos: "linux", cc: "gcc", pkg: "gcc"},
	{name: "win64", fmi3Folder: "x86_64-windows", ext: ".dll", goos: "windows", cc: "x86_64-w64-mingw32-gcc", pkg: "gcc-mingw-w64-x86-64"},
}

// folder is the target's folder under binaries/ in the FMI version.
func (t target) folder(version int) string {
	if version == 3 {
		return t.fmi3Folder
	}
	return t.name
}

// chooseTargets parses -platforms: a comma-separated list, or empty for
// every target whose C compiler is on the PATH. The host must be Linux
// x86-64: both targets are built from there.
func chooseTargets(list string) ([]target, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return nil, fmt.Errorf("building on %s/%s: the exporter builds from Linux x86-64 only", runtime.GOOS, runtime.GOARCH)
	}
	if list == "" {
		var have []target
		for _, t := range targets {
			if _, err := exec.LookPath(t.cc); err != nil {
				fmt.Fprintf(os.Stderr, "build: no %s binary: %s is not installed (Debian package %s; bash scripts/setup.sh installs it)\n", t.name, t.cc, t.pkg)
				continue
			}
			have = append(have, t)
		}
		if len(have) == 0 {
			return nil, fmt.Errorf("no C compiler for any platform: install gcc (bash scripts/setup.sh)")
		}
		return have, nil
	}
	var chosen []target
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		var found *target
		var known []string
		for i := range targets {
			known = append(known, targets[i].name)
			if targets[i].name == name {
				found = &targets[i]
			}
		}
		if found == nil {
			return nil, fmt.Errorf("-platforms: unknown platform %q (known: %s)", name, strings.Join(known, ", "))
		}
		if _, err := exec.LookPath(found.cc); err != nil {
			return nil, fmt.Errorf("-platforms %s: the C compiler %s is not installed (Debian package %s; bash scripts/setup.sh installs it)", name, found.cc, found.pkg)
		}
		seen[name] = true
		chosen = append(chosen, *found)
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("-platforms %q names no platform", list)
	}
	return chosen, nil
}

// compile builds the C ABI (package cabi) as the target's shared library.
//
// Linux: -z nodelete keeps the library mapped after dlclose (a Go runtime
// cannot be unloaded); the version script cabi/link/exports.map exports
// the FMI functions only; cabi/link/glibc.h, forced into every C file cgo
// compiles (the Go runtime's own included), binds the few glibc functions
// whose default version is newer than 2.17 to their base version; and the
// link sees a stand-in libpthread.so.0 defining those (cabi/link/
// pthread_stub.c) before the machine's libc, so that their version
// requirement names libpthread.so.0, where glibc before 2.34 defines them
// and its loader before 2.30 looks. So the library loads on glibc 2.17
// and newer.
//
// Windows: mingw-w64 cross-compiles; the Go linker hands the linker a
// .def file of the //export'ed functions only (without one, GNU ld would
// export every global symbol), and the shim pins the DLL in memory as it
// loads (cabi/shim.c), the counterpart of -z nodelete.
func (t target) compile(lib string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		return fmt.Errorf("build folder: %w", err)
	}
	ldflags := "-s -w"
	env := append(os.Environ(), "CGO_ENABLED=1", "GOARCH=amd64", "GOOS="+t.goos, "CC="+t.cc)
	if t.goos == "windows" {
		ldflags += " -extldflags -Wl,--no-insert-timestamp" // the same inputs give the same DLL
	}
	if t.goos == "linux" {
		link, err := linkFiles(root)
		if err != nil {
			return err
		}
		ldflags += " -extldflags '-L" + link + " -Wl,-z,nodelete -Wl,--no-as-needed -l:libpthread.so.0 -Wl,--as-needed" +
			" -Wl,--version-script=" + filepath.Join(link, "exports.map") + "'"
		env = append(env, "CGO_CFLAGS="+strings.TrimSpace(os.Getenv("CGO_CFLAGS")+" -O2 -g -include "+filepath.Join(link, "glibc.h")))
	}
	start := time.Now()
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags="+ldflags, "-o", lib, "./cabi")
	cmd.Dir = root
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("compiling the FMU binary for %s: %w", t.name, err)
	}
	fmt.Fprintf(os.Stderr, "built %s binary in %.1f s\n", t.name, time.Since(start).Seconds())
	// cgo's header is not part of an FMU.
	return os.Remove(strings.TrimSuffix(lib, t.ext) + ".h")
}

// linkFiles returns a folder with the Linux link's files: glibc.h and
// exports.map copied from cabi/link, and the stand-in libpthread.so.0
// built from pthread_stub.c. The folder is named by the files' hash under
// the temporary folder, so that its path holds no space of the checkout's
// path (cgo and the linker split their flags at spaces) and is the same
// for every checkout (the path enters the build, and the same inputs must
// give the same binary).
func linkFiles(root string) (string, error) {
	src := filepath.Join(root, "cabi", "link")
	names := []string{"glibc.h", "exports.map", "pthread_stub.c", "pthread_stub.map"}
	h := sha256.New()
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n))
		if err != nil {
			return "", fmt.Errorf("link files: %w", err)
		}
		files[n] = b
		fmt.Fprintf(h, "%s %d\n", n, len(b))
		h.Write(b)
	}
	dir := filepath.Join(os.TempDir(), "cablefmu-link-"+hex.EncodeToString(h.Sum(nil))[:16])
	if strings.ContainsAny(dir, " \t'\"") {
		return "", fmt.Errorf("the temporary folder %s has a space or quote in its path, which the C toolchain's flags cannot carry: set TMPDIR to another folder", os.TempDir())
	}
	if _, err := os.Stat(filepath.Join(dir, "libpthread.so.0")); err == nil {
		return dir, nil
	}
	// Made in a folder of its own and renamed into place, so that
	// exporters running at once never see it half written.
	tmp, err := os.MkdirTemp(os.TempDir(), "cablefmu-link-")
	if err != nil {
		return "", fmt.Errorf("link files: %w", err)
	}
	defer os.RemoveAll(tmp)
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(tmp, n), b, 0o644); err != nil {
			return "", fmt.Errorf("link files: %w", err)
		}
	}
	cmd := exec.Command("gcc", "-shared", "-nostdlib", "-fPIC", "-Wl,-soname,libpthread.so.0",
		"-Wl,--version-script=pthread_stub.map", "-o", "libpthread.so.0", "pthread_stub.c")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the libpthread.so.0 stand-in: %w\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "libpthread.so.0")); statErr != nil {
			return "", fmt.Errorf("link files: %w", err)
		}
	}
	return dir, nil
}
