// Package fmu is the FMU runtime, independent of the C ABI: the model-plugin
// registry shared by the exporter and the runtime, instances with the FMI
// 2.0 and FMI 3.0 Co-Simulation state machines (UseFMI3 switches an
// instance to FMI 3.0's variables and names), value references bound to
// model quantities, communication steps split into internal steps with the
// inputs interpolated, FMU states, logging, and the packager that writes
// the .fmu.
//
// Package cabi turns C calls into calls on Instance; every decision lives
// here.
package fmu
