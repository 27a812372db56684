package exporter

import (
	"bytes"
	"debug/buildinfo"
	"debug/elf"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// FMI function counts: every binary exports both standards' C API.
const (
	fmi2Functions = 44
	fmi3Functions = 75
)

// compiled holds the engines the tests compile, once per test binary.
var compiled struct {
	sync.Once
	engines []Engine
	err     error
}

// allEngines returns the engines of every platform, compiled once per
// test binary. Outside CI a missing cross compiler skips its platform
// with the reason; in CI (CI=true) the setup script installs it, so a
// missing one fails.
func allEngines(t *testing.T) []Engine {
	t.Helper()
	have, missing := Installed()
	for _, m := range missing {
		if os.Getenv("CI") != "" {
			t.Fatal(m)
		}
		t.Log(m)
	}
	compiled.Do(func() {
		root, err := ModuleRoot()
		if err != nil {
			compiled.err = err
			return
		}
		for _, p := range have {
			e, err := Compile(root, p)
			if err != nil {
				compiled.err = err
				return
			}
			compiled.engines = append(compiled.engines, e)
		}
	})
	if compiled.err != nil {
		t.Fatal(compiled.err)
	}
	return compiled.engines
}

// inflated returns an engine's library bytes.
func inflated(t *testing.T, e Engine) []byte {
	t.Helper()
	b, err := e.Library.Inflate()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exportedFMI counts the fmi2* and fmi3* names among exports and returns
// the other names.
func exportedFMI(names []string) (n2, n3 int, others []string) {
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "fmi2"):
			n2++
		case strings.HasPrefix(n, "fmi3"):
			n3++
		default:
			others = append(others, n)
		}
	}
	return n2, n3, others
}

// checkExports fails unless names are the FMI functions and nothing else.
func checkExports(t *testing.T, name string, names []string) {
	t.Helper()
	n2, n3, others := exportedFMI(names)
	if n2 != fmi2Functions || n3 != fmi3Functions {
		t.Errorf("%s exports %d fmi2* and %d fmi3* functions, want %d and %d", name, n2, n3, fmi2Functions, fmi3Functions)
	}
	if len(others) > 0 {
		t.Errorf("%s exports %d symbols besides the FMI API: %v", name, len(others), others[:min(len(others), 10)])
	}
}

// glibcLimit is the oldest glibc the Linux binaries load on.
var glibcLimit = [2]int{2, 17}

// checkELF checks a Linux binary: an x86-64 shared object that exports
// the FMI API only, is marked not to be unloaded, needs only libc and
// libpthread, and no glibc symbol version newer than glibcLimit.
func checkELF(t *testing.T, name string, data []byte) {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not an ELF file: %v", name, err)
	}
	defer f.Close()
	if f.Type != elf.ET_DYN || f.Machine != elf.EM_X86_64 {
		t.Errorf("%s: type %v, machine %v; want ET_DYN, EM_X86_64", name, f.Type, f.Machine)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatalf("%s: dynamic symbols: %v", name, err)
	}
	var exported []string
	for _, s := range syms {
		if s.Section != elf.SHN_UNDEF && elf.ST_BIND(s.Info) != elf.STB_LOCAL {
			exported = append(exported, s.Name)
			continue
		}
		if v, ok := strings.CutPrefix(s.Version, "GLIBC_"); ok && s.Section == elf.SHN_UNDEF && newerGlibc(v) {
			t.Errorf("%s needs %s@GLIBC_%s: newer than glibc %d.%d", name, s.Name, v, glibcLimit[0], glibcLimit[1])
		}
		if slices.Contains(inLibpthread, s.Name) && s.Section == elf.SHN_UNDEF && s.Library != "libpthread.so.0" {
			t.Errorf("%s needs %s@%s from %q: glibc before 2.34 defines it in libpthread.so.0, and its loader before 2.30 looks only there", name, s.Name, s.Version, s.Library)
		}
	}
	checkExports(t, name, exported)
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(libs)
	if want := []string{"libc.so.6", "libpthread.so.0"}; !slices.Equal(libs, want) {
		t.Errorf("%s needs %v, want %v", name, libs, want)
	}
	flags, err := f.DynValue(elf.DT_FLAGS_1)
	if err != nil || len(flags) != 1 || flags[0]&uint64(elf.DF_1_NODELETE) == 0 {
		t.Errorf("%s is not marked NODELETE (DT_FLAGS_1 %v, %v)", name, flags, err)
	}
}

// inLibpthread are functions the binaries import that glibc before 2.34
// defines in libpthread.so.0 only.
var inLibpthread = []string{"pthread_attr_getstack", "pthread_attr_getstacksize", "pthread_create",
	"pthread_getattr_np", "pthread_key_create", "pthread_setspecific", "pthread_sigmask"}

// newerGlibc reports a version "2.34" newer than glibcLimit.
func newerGlibc(v string) bool {
	parts := strings.Split(v, ".")
	var n [2]int
	for i := 0; i < 2 && i < len(parts); i++ {
		n[i], _ = strconv.Atoi(parts[i])
	}
	return n[0] > glibcLimit[0] || (n[0] == glibcLimit[0] && n[1] > glibcLimit[1])
}

// windowsSystemDLLs are the DLLs a Windows binary may import: those of
// every Windows installation. A mingw-w64 runtime DLL (libwinpthread-1,
// libgcc_s_seh-1) would not be on the user's machine.
var windowsSystemDLLs = []string{"kernel32.dll", "msvcrt.dll"}

// checkPE checks a Windows binary: an x86-64 DLL exporting the FMI API
// only, with undecorated names, importing only system DLLs.
func checkPE(t *testing.T, name string, data []byte) {
	t.Helper()
	f, err := pe.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s is not a PE file: %v", name, err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || f.Characteristics&pe.IMAGE_FILE_DLL == 0 {
		t.Errorf("%s: machine %#x, characteristics %#x; want an x86-64 DLL", name, f.Machine, f.Characteristics)
	}
	names, err := peExports(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkExports(t, name, names)
	for _, n := range names {
		if strings.ContainsAny(n, "@?") || strings.HasPrefix(n, "_") {
			t.Errorf("%s exports the decorated name %q", name, n)
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		if !slices.Contains(windowsSystemDLLs, strings.ToLower(l)) {
			t.Errorf("%s imports %s, which is not part of Windows", name, l)
		}
	}
}

// peExports reads the names in a PE file's export directory.
func peExports(f *pe.File) ([]string, error) {
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || len(oh.DataDirectory) <= pe.IMAGE_DIRECTORY_ENTRY_EXPORT {
		return nil, fmt.Errorf("no 64-bit optional header")
	}
	dir := oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_EXPORT]
	if dir.Size == 0 {
		return nil, fmt.Errorf("no export directory")
	}
	// read returns n bytes at a virtual address.
	read := func(rva, n uint32) ([]byte, error) {
		for _, s := range f.Sections {
			if rva >= s.VirtualAddress && rva+n <= s.VirtualAddress+max(s.VirtualSize, s.Size) {
				b := make([]byte, n)
				_, err := s.ReadAt(b, int64(rva-s.VirtualAddress))
				return b, err
			}
		}
		return nil, fmt.Errorf("address %#x outside every section", rva)
	}
	hdr, err := read(dir.VirtualAddress, 40) // IMAGE_EXPORT_DIRECTORY
	if err != nil {
		return nil, err
	}
	count := binary.LittleEndian.Uint32(hdr[24:])
	nameTable := binary.LittleEndian.Uint32(hdr[32:])
	ptrs, err := read(nameTable, 4*count)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, count)
	for i := uint32(0); i < count; i++ {
		rva := binary.LittleEndian.Uint32(ptrs[4*i:])
		b, err := read(rva, 1)
		var name []byte
		for ; err == nil && b[0] != 0; b, err = read(rva, 1) {
			name = append(name, b[0])
			rva++
		}
		if err != nil {
			return nil, err
		}
		names = append(names, string(name))
	}
	return names, nil
}

// TestEngineBuiltForBaselineCPU: an engine is built for the baseline
// x86-64 instruction set whatever GOAMD64 the caller sets (v3 fuses
// multiply-adds: other numbers, and a CPU with AVX2 needed).
func TestEngineBuiltForBaselineCPU(t *testing.T) {
	t.Setenv("GOAMD64", "v3")
	for _, p := range Platforms() {
		level := ""
		for _, kv := range engineEnv(p) {
			if v, ok := strings.CutPrefix(kv, "GOAMD64="); ok {
				level = v // the last counts
			}
		}
		if level != "v1" {
			t.Errorf("%s engine built with GOAMD64=%q, want v1", p.Name, level)
		}
	}
}

// TestEngineGuidedByTheProfile: every engine is compiled with the profile
// that guides the compiler (profileFile), as its build information
// records: without it the engine computes the same, slower.
func TestEngineGuidedByTheProfile(t *testing.T) {
	for _, e := range allEngines(t) {
		info, err := buildinfo.Read(bytes.NewReader(inflated(t, e)))
		if err != nil {
			t.Fatalf("%s engine: reading its build information: %v", e.Platform.Name, err)
		}
		pgo := ""
		for _, s := range info.Settings {
			if s.Key == "-pgo" {
				pgo = s.Value
			}
		}
		// Recorded by its name alone (-trimpath).
		if want := path.Base(profileFile); pgo != want {
			t.Errorf("%s engine built with -pgo=%q, want %q", e.Platform.Name, pgo, want)
		}
	}
}
