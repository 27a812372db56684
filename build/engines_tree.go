//go:build !cablefmu_dist

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/cablefmu/cablefmu/build/exporter"
)

// engineSource compiles the engines from the source tree: the command as
// `go run ./build` runs it.
func engineSource() source { return tree{} }

type tree struct{}

func (tree) describe() string { return "engines compiled from the source tree at each export" }

func (tree) defaults() string { return "every platform whose C compiler is installed" }

func (tree) compiles() bool { return true }

func (tree) engines(platforms []exporter.Platform, log io.Writer) ([]exporter.Engine, error) {
	if platforms == nil {
		have, missing := exporter.Installed()
		for _, m := range missing {
			fmt.Fprintln(log, m)
		}
		if len(have) == 0 {
			return nil, errors.New("no C compiler for any platform: install gcc (bash scripts/setup.sh)")
		}
		platforms = have
	}
	root, err := exporter.ModuleRoot()
	if err != nil {
		return nil, err
	}
	var engines []exporter.Engine
	for _, p := range platforms {
		e, err := exporter.Compile(root, p)
		if err != nil {
			return nil, err
		}
		engines = append(engines, e)
	}
	return engines, nil
}
