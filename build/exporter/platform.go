package exporter

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/fmu"
)

// Platform is a platform an FMU carries the engine library for.
type Platform struct {
	Name       string // the -platforms name: the FMI 2.0 folder
	FMI3Folder string // the FMI 3.0 folder
	Ext        string // the library's file extension
	goos       string
	cc         string // the C compiler cgo uses
	pkg        string // the Debian package that provides cc
}

// platforms are the platforms the exporter knows, in the order it builds
// them.
var platforms = []Platform{
	{Name: "linux64", FMI3Folder: "x86_64-linux", Ext: ".so", goos: "linux", cc: "gcc", pkg: "gcc"},
	{Name: "win64", FMI3Folder: "x86_64-windows", Ext: ".dll", goos: "windows", cc: "x86_64-w64-mingw32-gcc", pkg: "gcc-mingw-w64-x86-64"},
}

// Platforms returns every platform the exporter knows.
func Platforms() []Platform { return append([]Platform(nil), platforms...) }

// Folder is the platform's folder under binaries/ in the FMI version.
func (p Platform) Folder(version int) string {
	if version == 3 {
		return p.FMI3Folder
	}
	return p.Name
}

// LookupPlatform returns the platform of a -platforms name.
func LookupPlatform(name string) (Platform, error) {
	var known []string
	for _, p := range platforms {
		if p.Name == name {
			return p, nil
		}
		known = append(known, p.Name)
	}
	return Platform{}, fmt.Errorf("unknown platform %q (known: %s)", name, strings.Join(known, ", "))
}

// ParsePlatforms parses a -platforms list: names separated by commas,
// each once; an empty list is an error.
func ParsePlatforms(list string) ([]Platform, error) {
	var chosen []Platform
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		p, err := LookupPlatform(name)
		if err != nil {
			return nil, fmt.Errorf("-platforms: %w", err)
		}
		seen[name] = true
		chosen = append(chosen, p)
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("-platforms %q names no platform", list)
	}
	return chosen, nil
}

// Engine is one platform's engine library, the FMI C API over the
// runtime and every model: the same binary serves FMI 2.0 and 3.0 and
// every scenario (the scenario and its plugins are the FMU's resources),
// so it is built once and copied into every FMU.
type Engine struct {
	Platform Platform
	Library  fmu.Library
}

// ID is a short hash of the engine's compressed library: FMUs exported
// with engines of the same IDs hold the same binaries.
func (e Engine) ID() string {
	sum := sha256.Sum256(e.Library.Zip())
	return hex.EncodeToString(sum[:6])
}

// EngineFile is the name of a platform's engine in a folder of engines
// (the zip of its compressed library, fmu.Library.Zip).
func EngineFile(p Platform) string { return "engine-" + p.Name + ".zip" }

// WriteEngines writes engines into dir, one file each (EngineFile).
func WriteEngines(dir string, engines []Engine) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("engines folder: %w", err)
	}
	for _, e := range engines {
		if err := os.WriteFile(filepath.Join(dir, EngineFile(e.Platform)), e.Library.Zip(), 0o644); err != nil {
			return fmt.Errorf("engine for %s: %w", e.Platform.Name, err)
		}
	}
	return nil
}

// Installed returns the platforms whose C compiler is on the PATH, and a
// line for each one that is not, saying how to install it.
func Installed() (have []Platform, missing []string) {
	for _, p := range platforms {
		if _, err := exec.LookPath(p.cc); err != nil {
			missing = append(missing, fmt.Sprintf("no %s engine: %s is not installed (Debian package %s; bash scripts/setup.sh installs it)", p.Name, p.cc, p.pkg))
			continue
		}
		have = append(have, p)
	}
	return have, missing
}

// engineName is the file name the engine is linked as. A Windows DLL
// records its name in its export table, so a name of its own, not the
// model identifier the FMU gives the file, keeps the engine the same for
// every scenario.
const engineName = "cablefmu"

// profileFile is the CPU profile, relative to the module's root, that
// guides the compiler's inlining and devirtualization in the engine
// (profile-guided optimization; scripts/pgo.sh writes it from the models'
// benchmarks). It changes how fast the engine runs, not what it computes.
// Named rather than found by go build's -pgo=auto, so that a clone
// without it fails to build instead of building a slower engine.
const profileFile = "cabi/default.pgo"

// Compile builds the engine for a platform from the module at root: the
// C ABI (package cabi) as a c-shared library. The same sources give the
// same bytes (-trimpath, the link files under a path named by their hash,
// no time stamp in the DLL), so engines compiled anywhere from one commit
// export the same FMUs. The compiler is guided by the profile
// profileFile. The host must be Linux x86-64, with the platform's C
// compiler installed.
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
func Compile(root string, p Platform) (Engine, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return Engine{}, fmt.Errorf("compiling engines on %s/%s: they are built from Linux x86-64 only", runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath(p.cc); err != nil {
		return Engine{}, fmt.Errorf("compiling the %s engine: the C compiler %s is not installed (Debian package %s; bash scripts/setup.sh installs it)", p.Name, p.cc, p.pkg)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(profileFile))); err != nil {
		return Engine{}, fmt.Errorf("compiling the %s engine: the compiler's profile: %w (bash scripts/pgo.sh writes it)", p.Name, err)
	}
	tmp, err := os.MkdirTemp("", "cablefmu-engine-")
	if err != nil {
		return Engine{}, fmt.Errorf("build folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	lib := filepath.Join(tmp, engineName+p.Ext)
	ldflags := "-s -w"
	env := engineEnv(p)
	if p.goos == "windows" {
		ldflags += " -extldflags -Wl,--no-insert-timestamp" // the same inputs give the same DLL
	}
	if p.goos == "linux" {
		link, err := linkFiles(root)
		if err != nil {
			return Engine{}, err
		}
		ldflags += " -extldflags '-L" + link + " -Wl,-z,nodelete -Wl,--no-as-needed -l:libpthread.so.0 -Wl,--as-needed" +
			" -Wl,--version-script=" + filepath.Join(link, "exports.map") + "'"
		env = append(env, "CGO_CFLAGS="+strings.TrimSpace(os.Getenv("CGO_CFLAGS")+" -O2 -g -include "+filepath.Join(link, "glibc.h")))
	}
	start := time.Now()
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-pgo="+profileFile, "-ldflags="+ldflags, "-o", lib, "./cabi")
	cmd.Dir = root
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return Engine{}, fmt.Errorf("compiling the %s engine: %w", p.Name, err)
	}
	fmt.Fprintf(os.Stderr, "built the %s engine in %.1f s\n", p.Name, time.Since(start).Seconds())
	data, err := os.ReadFile(lib)
	if err != nil {
		return Engine{}, fmt.Errorf("compiling the %s engine: %w", p.Name, err)
	}
	l, err := fmu.NewLibrary(data)
	if err != nil {
		return Engine{}, fmt.Errorf("the %s engine: %w", p.Name, err)
	}
	return Engine{Platform: p, Library: l}, nil
}

// engineEnv returns the environment the engine for p is built in: the
// caller's, with the target set, and the baseline x86-64 instruction set
// (GOAMD64=v1) whatever the caller's: with v3 the compiler fuses
// multiplications and additions, which round differently (and the engine
// would need a CPU with AVX2), so the same scenario would give other
// numbers than the tests' and than every other build's. The last of
// duplicate entries counts.
func engineEnv(p Platform) []string {
	return append(os.Environ(), "CGO_ENABLED=1", "GOARCH=amd64", "GOAMD64=v1", "GOOS="+p.goos, "CC="+p.cc)
}

// ModuleRoot returns the root of the cablefmu module the working
// directory lies in, where engines are compiled from.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("locating the cablefmu module (compiling engines needs Go and the source tree): %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("compiling engines needs the cablefmu source tree: run inside it")
	}
	return filepath.Dir(mod), nil
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

// SourceHash is a short hash of the sources an engine or the command is
// built from (the Go, C and link files, go.mod and go.sum, the profile
// that guides the compiler, the embedded example scenarios), by their
// paths and contents: the command built by
// scripts/dist.sh records it beside the engines it carries and refuses
// engines of other sources.
func SourceHash(root string) (string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "out" || rel == "build/engines") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(rel) {
		case ".go", ".c", ".h", ".s", ".map", ".mod", ".sum", ".pgo":
			files = append(files, rel)
		case ".json":
			if strings.HasPrefix(rel, "examples/") && strings.Count(rel, "/") == 2 && strings.HasSuffix(rel, "/scenario.json") {
				files = append(files, rel)
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing the sources: %w", err)
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return "", fmt.Errorf("hashing the sources: %w", err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// SourceFile names the file beside the engines that holds their
// SourceHash.
const SourceFile = "source"
