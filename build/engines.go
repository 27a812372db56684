package main

import (
	"io"

	"github.com/cablefmu/cablefmu/build/exporter"
)

// source is where the command's engines come from: carried inside it
// (built by scripts/dist.sh) or compiled from the source tree.
type source interface {
	// engines returns the engines of the platforms, by default (nil)
	// those the source has, saying on log what it left out and why.
	engines(platforms []exporter.Platform, log io.Writer) ([]exporter.Engine, error)
	// describe says where the engines come from, for --version.
	describe() string
	// defaults names the platforms exported when -platforms is not given.
	defaults() string
	// compiles says whether the engines are compiled from the source
	// tree (else the command carries them).
	compiles() bool
}
