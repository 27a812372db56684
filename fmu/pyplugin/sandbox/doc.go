// Package sandbox runs untrusted Python plugin files in gpython with
// limits that decide the same way on any machine at any load.
//
// A plugin file is checked and compiled once (Prepare, against a
// Vocabulary of the names and attributes it may use): a syntax error, a
// misspelt name or attribute, an import other than math, or a construct
// the instrumentation cannot count is refused with file:line diagnostics
// (CheckError). The compiled code is instrumented so that every loop
// pass, call, comprehension item and iterator item ticks an operations
// counter, and every operation whose cost grows with its operands (big
// integers, repetition, joins, sorts, walks over containers) is sized
// before it runs: the guards, the builtins replaced by counting versions
// (see guards in limits.go).
//
// Each plugin runs in an Interp of its own (New): a gpython context with
// restricted builtins (no files, no exec or eval, print to the FMU log),
// the guards, and the functions of the API that binds it to a model. A
// call (Run, Call) gets the Limits: an operations budget that decides,
// a memory budget on the large values built, a wall-clock timeout only as
// the last guard; past one, the call returns an error naming the limit,
// the parameter that sets it and the plugin's line. Kept measures what
// the plugin keeps between calls on a schedule of counted work. SaveState
// and LoadState write and read the plugin's data (module globals and
// class attributes, bitwise), the API's objects through Objects.
//
// The package imports nothing of the project: package pyplugin binds it
// to FMUs (the plugin API, declarations of FMU variables, hooks called at
// internal steps and communication points).
package sandbox
