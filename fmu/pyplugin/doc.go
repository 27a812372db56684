// Package pyplugin binds Python plugins to FMUs: the fmu.Extension that
// checks a scenario's plugin files at export and runs them in every
// instance.
//
// A plugin file declares FMU variables (parameter, input, output; they
// appear in the model description after the model's, prefixed with the
// plugin's name, with the operations, memory and timeout parameters of
// its limits) and defines hooks: init(sim) once, step(sim) before every
// internal step, communication_point(sim) at communication points. A hook
// receives the simulation as the model shows it to plugins (plant.Plant:
// bodies to read and push, cables to read, winches to command), through
// the Python types of api.go. Plugins run in the order the scenario lists
// them, each in an interpreter of its own (package sandbox, which holds
// the limits, the instrumentation and the plugin's state); their state
// travels in FMU states (fmu.ExtraState) with the API's objects written by
// name. README.md is the reference for plugin authors.
package pyplugin
