package fmu

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ArchiveTime is the modification time of every entry: a fixed, valid
// date, so that the same inputs give the same archive byte for byte (the
// zero DOS date some tools write reads as 1979 or 1980 or is refused).
var ArchiveTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// Archive is the content of a .fmu: the model description, the binary for
// each platform folder, and the resources.
type Archive struct {
	ModelDescription []byte
	// Binaries maps a platform folder ("linux64", "win64", "x86_64-linux",
	// "x86_64-windows") to its library.
	Binaries map[string]Library
	// ModelIdentifier names the binaries: binaries/<platform>/<id>.so.
	ModelIdentifier string
	// Resources maps a path inside resources/ to its content.
	Resources map[string][]byte
	// Files maps a path from the archive's root (outside binaries/ and
	// resources/, such as terminalsAndIcons/terminalsAndIcons.xml) to its
	// content.
	Files map[string][]byte
}

// Write writes the archive as a zip file at path. It writes a temporary
// file beside it and renames it into place: a failed write leaves an
// existing file at path as it was, and a reader never sees half an
// archive.
func (a *Archive) Write(path string) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing FMU: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing FMU %s: %w", path, tempErr(err))
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing FMU: %w", cerr)
		}
		if err == nil {
			// CreateTemp makes the file private; an FMU is read by others.
			if err = os.Chmod(f.Name(), 0o644); err == nil {
				err = os.Rename(f.Name(), path)
			}
			if err != nil {
				err = fmt.Errorf("writing FMU: %w", err)
			}
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	z := zip.NewWriter(f)
	if err := addBytes(z, "modelDescription.xml", a.ModelDescription, 0o644); err != nil {
		return err
	}
	// Sorted entries make the archive reproducible.
	for _, platform := range slices.Sorted(maps.Keys(a.Binaries)) {
		if err := addLibrary(z, "binaries/"+platform+"/"+a.ModelIdentifier+libraryExt(platform), a.Binaries[platform]); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Files)) {
		if err := addBytes(z, name, a.Files[name], 0o644); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Resources)) {
		if err := addBytes(z, "resources/"+filepath.ToSlash(name), a.Resources[name], 0o644); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return fmt.Errorf("writing FMU: %w", err)
	}
	return nil
}

// libraryExt is the file extension of a shared library in a platform
// folder of FMI 2.0 (win64, darwin64) or FMI 3.0 (x86_64-windows, …).
func libraryExt(platform string) string {
	switch {
	case strings.HasPrefix(platform, "win") || strings.HasSuffix(platform, "-windows"):
		return ".dll"
	case strings.HasPrefix(platform, "darwin") || strings.HasSuffix(platform, "-darwin"):
		return ".dylib"
	}
	return ".so"
}

// create adds an entry with the fixed time and a regular file's mode.
func create(z *zip.Writer, name string, mode os.FileMode) (io.Writer, error) {
	h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: ArchiveTime}
	h.SetMode(mode)
	return z.CreateHeader(h)
}

func addBytes(z *zip.Writer, name string, data []byte, mode os.FileMode) error {
	w, err := create(z, name, mode)
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	return nil
}

// Library is a shared library as an archive stores it, compressed once
// (NewLibrary): the engine library is the same in every FMU, so an
// export copies its compressed entry instead of compressing megabytes
// again. It is held as a zip of that one entry, which is also how it is
// kept on disk (OpenLibrary).
type Library struct {
	zipped []byte
	entry  *zip.File
}

// libraryEntry names the library inside a Library's zip; the archive
// names it by the model identifier.
const libraryEntry = "library"

// NewLibrary compresses a library as every archive entry is compressed.
func NewLibrary(data []byte) (Library, error) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	if err := addBytes(z, libraryEntry, data, 0o755); err != nil { // a shared library
		return Library{}, err
	}
	if err := z.Close(); err != nil {
		return Library{}, fmt.Errorf("compressing a library: %w", err)
	}
	return OpenLibrary(buf.Bytes())
}

// OpenLibrary reads a Library from its zip (Library.Zip).
func OpenLibrary(zipped []byte) (Library, error) {
	r, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil {
		return Library{}, fmt.Errorf("reading a library: %w", err)
	}
	if len(r.File) != 1 || r.File[0].Name != libraryEntry || r.File[0].Method != zip.Deflate {
		return Library{}, fmt.Errorf("reading a library: want one deflated entry %q", libraryEntry)
	}
	return Library{zipped: zipped, entry: r.File[0]}, nil
}

// Zip returns the library's zip, as OpenLibrary reads it.
func (l Library) Zip() []byte { return l.zipped }

// Size returns the library's size in bytes, uncompressed.
func (l Library) Size() uint64 { return l.entry.UncompressedSize64 }

// Inflate returns the library's bytes, checked against their checksum.
func (l Library) Inflate() ([]byte, error) {
	rc, err := l.entry.Open()
	if err != nil {
		return nil, fmt.Errorf("inflating a library: %w", err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("inflating a library: %w", err)
	}
	return data, nil
}

// addLibrary adds a library's compressed entry under name.
func addLibrary(z *zip.Writer, name string, lib Library) error {
	if lib.entry == nil {
		return fmt.Errorf("writing FMU entry %s: no library", name)
	}
	src, err := lib.entry.OpenRaw()
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	h := lib.entry.FileHeader
	h.Name = name
	w, err := z.CreateRaw(&h)
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	if _, err := io.Copy(w, src); err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	return nil
}

// tempErr is the error of creating a temporary file beside an output,
// without the temporary's name, which the user never gave: "permission
// denied" for a folder the user cannot write in.
func tempErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot write in its folder %s: %w", filepath.Dir(pe.Path), pe.Err)
	}
	return err
}
