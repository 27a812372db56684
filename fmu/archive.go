package fmu

import (
	"archive/zip"
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
	// "x86_64-windows") to the library file path.
	Binaries map[string]string
	// ModelIdentifier names the binaries: binaries/<platform>/<id>.so.
	ModelIdentifier string
	// Resources maps a path inside resources/ to its content.
	Resources map[string][]byte
}

// Write writes the archive as a zip file at path.
func (a *Archive) Write(path string) (err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing FMU: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing FMU: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing FMU: %w", cerr)
		}
	}()
	z := zip.NewWriter(f)
	if err := addBytes(z, "modelDescription.xml", a.ModelDescription, 0o644); err != nil {
		return err
	}
	// Sorted entries make the archive reproducible.
	for _, platform := range slices.Sorted(maps.Keys(a.Binaries)) {
		if err := addFile(z, "binaries/"+platform+"/"+a.ModelIdentifier+libraryExt(platform), a.Binaries[platform]); err != nil {
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

func addFile(z *zip.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	defer f.Close()
	w, err := create(z, name, 0o755) // a shared library
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	return nil
}
