// Package scenario holds what the model plugins share to read a
// scenario's "config": strict decoding with messages that name the key,
// the collection of every error at once, and the rope's material data.
// The crane shared by the hoist family is package hoist's.
package scenario

import (
	"encoding/json"
	"errors"

	"github.com/cablefmu/cablefmu/fmu"
)

// Decode reads a scenario's model settings into cfg strictly
// (fmu.DecodeStrict): unknown keys (with the nearest valid key), keys
// given twice, null, values of the wrong type and arrays of the wrong
// length are errors naming the key, so that a misspelt, repeated or
// incomplete setting is not silently taken as zero or as its last value.
// Such an error is an *fmu.PositionError in the config with "config: "
// before its message; returned as it is by the model's Configure,
// fmu.Registry.Configure places it in the scenario's file.
func Decode(raw json.RawMessage, cfg any) error {
	if len(raw) == 0 {
		return errors.New(`"config" is missing`)
	}
	if err := fmu.DecodeStrict(raw, cfg); err != nil {
		return fmu.WithContext("config", err)
	}
	return nil
}
