package compat

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind names a warning.
type Kind string

// The warnings.
const (
	// BackcompatBroadcast: broadcastable operands of different shapes and
	// equal element counts (PyTorch's backcompat broadcast warning).
	BackcompatBroadcast Kind = "backcompat_broadcast"
	// DeprecatedPointwise: the legacy 1-D fallback was used.
	DeprecatedPointwise Kind = "deprecated_pointwise"
)

// The warnings' texts, as PyTorch's expand_outplace words them.
const (
	BackcompatBroadcastText = "self and other do not have the same shape, but are broadcastable, and have the same number of elements.  Changing behavior in a backwards incompatible manner to broadcasting rather than viewing as 1-dimensional."
	DeprecatedPointwiseText = "self and other not broadcastable, but have the same number of elements.  Falling back to deprecated pointwise behavior."
)

// Warning is one emitted warning.
type Warning struct {
	Kind    Kind
	Message string
	Caller  string // file:line of the first caller outside tensorplay
}

// Sink receives warnings. Implementations must be safe for concurrent use.
type Sink interface {
	Warn(w Warning)
}

var sink atomic.Pointer[Sink]

func init() {
	var s Sink = &onceSink{logger: slog.New(slog.NewTextHandler(os.Stderr, nil))}
	sink.Store(&s)
}

// SetSink installs s as the warning sink and returns the previous sink.
func SetSink(s Sink) (previous Sink) {
	return *sink.Swap(&s)
}

// Warn emits a warning of kind k with text msg to the current sink.
func Warn(k Kind, msg string) {
	(*sink.Load()).Warn(Warning{Kind: k, Message: msg, Caller: caller()})
}

// caller returns the file:line of the first frame outside this module's
// library packages: the user's call site.
func caller() string {
	pcs := make([]uintptr, 16)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.Contains(f.Function, "tensorplay/tensorplay/") || strings.Contains(f.File, "_test.go") {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		if !more {
			return fmt.Sprintf("%s:%d", f.File, f.Line)
		}
	}
}

// onceSink logs each (kind, call site) once, like Python's default warning
// filter.
type onceSink struct {
	logger *slog.Logger
	seen   sync.Map
}

func (s *onceSink) Warn(w Warning) {
	key := string(w.Kind) + "@" + w.Caller
	if _, dup := s.seen.LoadOrStore(key, true); dup {
		return
	}
	s.logger.Warn(w.Message, "kind", string(w.Kind), "caller", w.Caller)
}

// Recorder is a Sink that keeps every warning.
type Recorder struct {
	mu       sync.Mutex
	warnings []Warning
}

// Warn records w.
func (r *Recorder) Warn(w Warning) {
	r.mu.Lock()
	r.warnings = append(r.warnings, w)
	r.mu.Unlock()
}

// Warnings returns the recorded warnings in order.
func (r *Recorder) Warnings() []Warning {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Warning(nil), r.warnings...)
}

// Kinds returns the kinds of the recorded warnings in order.
func (r *Recorder) Kinds() []Kind {
	var ks []Kind
	for _, w := range r.Warnings() {
		ks = append(ks, w.Kind)
	}
	return ks
}

// Capture installs a new Recorder as the sink and returns it with a
// function that restores the previous sink.
func Capture() (*Recorder, func()) {
	r := &Recorder{}
	prev := SetSink(r)
	return r, func() { SetSink(prev) }
}
