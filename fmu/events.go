package fmu

import "fmt"

// Events queues a simulation's event messages between communication
// points; a simulation embedding it implements EventSource.
type Events struct{ list []string }

// Add queues an event message.
func (e *Events) Add(format string, args ...any) {
	e.list = append(e.list, fmt.Sprintf(format, args...))
}

// DrainEvents implements EventSource: it returns the queued messages
// and empties the queue (the slice is valid until the next Add).
func (e *Events) DrainEvents() []string {
	l := e.list
	e.list = e.list[:0]
	return l
}
