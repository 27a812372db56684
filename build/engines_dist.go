//go:build cablefmu_dist

package main

import (
	"embed"
	"fmt"
	"io"
	"strings"

	"github.com/cablefmu/cablefmu/build/exporter"
	"github.com/cablefmu/cablefmu/fmu"
)

// carried holds the engines scripts/dist.sh compiled into build/engines
// before building this command.
//
//go:embed engines
var carried embed.FS

// distSource is the SourceHash of the tree the command was built from,
// set by scripts/dist.sh (-ldflags -X main.distSource=…): the command
// exports only with engines of the same sources, so that a command built
// by hand over engines of an older tree cannot write FMUs that differ from
// what its own code would.
var distSource string

// engineSource returns the engines the command carries.
func engineSource() source { return carriedEngines{} }

type carriedEngines struct{}

// matched refuses engines of other sources than the command's.
func (carriedEngines) matched() error {
	b, err := carried.ReadFile("engines/" + exporter.SourceFile)
	have := strings.TrimSpace(string(b))
	switch {
	case err != nil:
		return fmt.Errorf("this cablefmu carries engines of unknown sources: build it with bash scripts/dist.sh")
	case distSource == "":
		return fmt.Errorf("this cablefmu was built by hand, not by scripts/dist.sh, so its engines (sources %s) may not match its code: build it with bash scripts/dist.sh", have)
	case have != distSource:
		return fmt.Errorf("this cablefmu's engines come from sources %s, its code from %s: build it with bash scripts/dist.sh", have, distSource)
	}
	return nil
}

func (c carriedEngines) load(p exporter.Platform) (exporter.Engine, error) {
	if err := c.matched(); err != nil {
		return exporter.Engine{}, err
	}
	b, err := carried.ReadFile("engines/" + exporter.EngineFile(p))
	if err != nil {
		return exporter.Engine{}, fmt.Errorf("this cablefmu carries no %s engine (build it with scripts/dist.sh)", p.Name)
	}
	lib, err := fmu.OpenLibrary(b)
	if err != nil {
		return exporter.Engine{}, fmt.Errorf("the %s engine: %w", p.Name, err)
	}
	return exporter.Engine{Platform: p, Library: lib}, nil
}

// have lists the platforms whose engines the command carries.
func (c carriedEngines) have() []exporter.Platform {
	var ps []exporter.Platform
	for _, p := range exporter.Platforms() {
		if _, err := carried.ReadFile("engines/" + exporter.EngineFile(p)); err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

func (c carriedEngines) describe() string {
	if err := c.matched(); err != nil {
		return err.Error()
	}
	parts := []string{"sources " + distSource}
	for _, p := range c.have() {
		e, err := c.load(p)
		if err != nil {
			parts = append(parts, p.Name+" "+err.Error())
			continue
		}
		parts = append(parts, p.Name+" engine "+e.ID())
	}
	return strings.Join(parts, ", ")
}

func (carriedEngines) compiles() bool { return false }

func (c carriedEngines) defaults() string {
	var names []string
	for _, p := range c.have() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

func (c carriedEngines) engines(platforms []exporter.Platform, _ io.Writer) ([]exporter.Engine, error) {
	if platforms == nil {
		platforms = c.have()
	}
	var engines []exporter.Engine
	for _, p := range platforms {
		e, err := c.load(p)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return engines, nil
}
