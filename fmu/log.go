package fmu

// Status is an FMI 2.0 status; the values are the standard's enumeration.
type Status int

const (
	OK Status = iota
	Warning
	Discard
	Error
	Fatal
	Pending
)

func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case Warning:
		return "Warning"
	case Discard:
		return "Discard"
	case Error:
		return "Error"
	case Fatal:
		return "Fatal"
	case Pending:
		return "Pending"
	}
	return "unknown status"
}

// Logger receives an instance's messages. The C ABI forwards them to the
// importer's logger callback.
type Logger interface {
	Log(status Status, category, message string)
}

// LogCategory is a category the FMU declares and honours.
type LogCategory struct{ Name, Description string }

// Log categories, declared in every model description. Errors and
// discards are always reported; the other categories only when enabled
// with SetDebugLogging.
var LogCategories = []LogCategory{
	{"logStatusError", "Errors: invalid arguments, calls in the wrong state, diverging simulations."},
	{"logStatusWarning", "Warnings: questionable but accepted requests."},
	{"logStatusDiscard", "Requests the FMU declines without failing (status kinds it does not track)."},
	{"logEvents", "Events of the simulation: initialization, a cable going slack or taut again, a hook block reaching the sheave."},
	{"logCalls", "Every FMI function call with its arguments."},
}

func categoryFor(s Status) string {
	switch s {
	case Error, Fatal:
		return "logStatusError"
	case Warning:
		return "logStatusWarning"
	case Discard:
		return "logStatusDiscard"
	}
	return "logEvents"
}
