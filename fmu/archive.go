package fmu

import (
	"archive/zip"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// Archive is the content of a .fmu: the model description, the binary for
// each platform folder, and the resources.
type Archive struct {
	ModelDescription []byte
	// Binaries maps a platform folder ("linux64") to the library file path.
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
	if err := addBytes(z, "modelDescription.xml", a.ModelDescription); err != nil {
		return err
	}
	// Sorted entries make the archive reproducible.
	for _, platform := range slices.Sorted(maps.Keys(a.Binaries)) {
		if err := addFile(z, "binaries/"+platform+"/"+a.ModelIdentifier+libraryExt(platform), a.Binaries[platform]); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Resources)) {
		if err := addBytes(z, "resources/"+filepath.ToSlash(name), a.Resources[name]); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return fmt.Errorf("writing FMU: %w", err)
	}
	return nil
}

func libraryExt(platform string) string {
	switch platform {
	case "win64", "win32":
		return ".dll"
	case "darwin64":
		return ".dylib"
	}
	return ".so"
}

func addBytes(z *zip.Writer, name string, data []byte) error {
	w, err := z.Create(name)
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
	w, err := z.Create(name)
	if err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("writing FMU entry %s: %w", name, err)
	}
	return nil
}
