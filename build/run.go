package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cablefmu/cablefmu/build/chart"
	"github.com/cablefmu/cablefmu/build/exporter"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/modeldesc"
	"gonum.org/v1/plot/vg"
)

// settings are repeated -set NAME=VALUE flags.
type settings map[string]float64

func (s settings) String() string { return "" }

func (s settings) Set(text string) error {
	name, value, ok := strings.Cut(text, "=")
	if !ok {
		return fmt.Errorf("%q: want NAME=VALUE", text)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("%q: the value is not a finite number", text)
	}
	s[strings.TrimSpace(name)] = x
	return nil
}

func runRun(args []string, stdout, stderr io.Writer) error {
	// Ctrl-C ends the run at the next communication point, its outputs
	// kept up to there (runUntil).
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	return runUntil(ctx, args, stdout, stderr)
}

// runUntil is run, stopped when ctx is done.
func runUntil(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flags("run", "SCENARIO_DIR [-stop T] [-step H] [-inputs table.csv] [-set NAME=VALUE] -csv out.csv [-plot out.png]",
		"Simulates the scenario in this process, as an FMI master would step its FMU: at each communication point\n"+
			"the inputs are set (their start values, or the table's, linear between its rows and held beyond them)\n"+
			"and one step of H is taken; the CSV holds the time, the inputs and every output at each point, each\n"+
			"column headed by its name and unit, \"cable.tension (N)\". A first look, not a master: the FMU gives\n"+
			"the same numbers in any FMI master that steps it so. A run that fails or is stopped (Ctrl-C) keeps its\n"+
			"outputs up to the point where it ended.", stdout)
	stop := fs.Float64("stop", 0, "the stop time (s; default the scenario's stopTime)")
	step := fs.Float64("step", 0, "the communication step (s; default the scenario's step)")
	inputs := fs.String("inputs", "", "a CSV table of inputs: a header row time,INPUT,… (each may give its unit as run's CSV does,\n\"suspension.vx (m/s)\", which must be the input's), then rows of numbers")
	set := settings{}
	fs.Var(set, "set", "a parameter's value, NAME=VALUE (repeated for several)")
	csvPath := fs.String("csv", "", "the CSV file to write")
	plotPath := fs.String("plot", "", "a PNG of the outputs to write")
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	if *csvPath == "" && *plotPath == "" {
		return usageError{"name the results: -csv out.csv and/or -plot out.png"}
	}
	c, err := exporter.Check(pos[0])
	if err != nil {
		return err
	}
	csvFile, plotFile, err := checkOutputs(c, *inputs, *csvPath, *plotPath)
	if err != nil {
		return err
	}
	// Not given, the scenario's; given, as given (0 is refused below).
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["stop"] {
		*stop = c.Scenario.StopTime
	}
	if !given["step"] {
		*step = c.Scenario.Step
	}
	if !(*stop > 0) || math.IsInf(*stop, 0) || !(*step > 0) || math.IsInf(*step, 0) {
		return usageError{fmt.Sprintf("-stop %g, -step %g: want positive, finite times", *stop, *step)}
	}
	if n := (*stop) / (*step); !(n <= maxSteps) {
		return usageError{fmt.Sprintf("-stop %g s at -step %g s is %.3g communication steps: at most %g", *stop, *step, n, float64(maxSteps))}
	}
	var table *inputTable
	if *inputs != "" {
		if table, err = readInputs(*inputs); err != nil {
			return err
		}
	}
	var recs []recorder
	if csvFile != "" {
		recs = append(recs, &csvRecorder{path: csvFile, name: *csvPath})
	}
	if plotFile != "" {
		recs = append(recs, &plotRecorder{path: plotFile, name: *plotPath, every: int(math.Ceil((*stop) / (*step) / plotPoints))})
	}
	err = simulate(ctx, c, *stop, *step, table, set, stderr, recs)
	var failed *failedStep
	switch {
	case errors.As(err, &failed):
		where := "the run failed"
		if failed.stopped {
			where = "it was stopped"
		}
		for _, path := range failed.wrote {
			fmt.Fprintf(stdout, "wrote %s up to t = %g s, where %s\n", path, failed.t, where)
		}
	case err != nil:
		return err
	default:
		for _, path := range []string{*csvPath, *plotPath} {
			if path != "" {
				fmt.Fprintln(stdout, "wrote", path)
			}
		}
	}
	return err
}

// failedStep is a run that failed in a step from time t (s), or was
// stopped there (Ctrl-C), its outputs kept up to t: what led to the
// failure (a boom luffed to its limit) is often what the run is for, and
// a long run stopped early has shown what it was stopped for.
type failedStep struct {
	err     error
	t       float64
	wrote   []string // the outputs written, as the user named them
	stopped bool
}

func (f *failedStep) Error() string { return f.err.Error() }
func (f *failedStep) Unwrap() error { return f.err }

// checkOutputs returns the files to write the CSV and the plot to (links
// followed; "" where not asked for), or why the run refuses them, before
// it runs: as an export refuses its output (exporter.Checked.CheckWrite),
// and an output that is the -inputs table or the other output (the
// results would replace the table, or one output the other).
func checkOutputs(c *exporter.Checked, inputs, csvPath, plotPath string) (csvFile, plotFile string, err error) {
	outs := []struct {
		flag, what, path string
		file             *string
	}{{"-csv", "the CSV file", csvPath, &csvFile}, {"-plot", "the plot", plotPath, &plotFile}}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if *o.file, err = c.CheckWrite(o.path, o.what); err != nil {
			return "", "", err
		}
		if inputs != "" && samePlace(*o.file, inputs) {
			return "", "", fmt.Errorf("%s %s is the -inputs table: name another file for %s", o.flag, o.path, o.what)
		}
	}
	if csvFile != "" && plotFile != "" && samePlace(csvFile, plotFile) {
		return "", "", fmt.Errorf("-csv %s and -plot %s name the same file: name one for each", csvPath, plotPath)
	}
	return csvFile, plotFile, nil
}

// samePlace reports whether paths a and b name the same file: the same
// file where both exist, else the same absolute path, the links of the
// folders above it that exist resolved (folders the run would still make
// included).
func samePlace(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	ra, errA := exporter.Resolved(a)
	rb, errB := exporter.Resolved(b)
	return errA == nil && errB == nil && ra == rb
}

// maxSteps bounds a run's communication steps, as the Python package's
// studies do: beyond it a stop time is a typing mistake.
const maxSteps = 10_000_000

// plotPoints is about how many points of each curve a plot keeps: more
// than a picture shows, few enough for any run's memory.
const plotPoints = 20000

// inputTable is a table of input values over time.
type inputTable struct {
	file  string
	names []string
	// units holds each column's unit where its header gives one, as run's
	// own CSV writes them ("suspension.vx (m/s)"), else "".
	units   []string
	times   []float64
	columns [][]float64 // by name
}

// splitUnit splits a column's header "name (unit)" into the name and the
// unit; a header without one is the name, with the unit "".
func splitUnit(header string) (name, unit string) {
	open := strings.LastIndexByte(header, '(')
	if open < 0 || !strings.HasSuffix(header, ")") {
		return header, ""
	}
	return strings.TrimSpace(header[:open]), strings.TrimSpace(header[open+1 : len(header)-1])
}

func readInputs(file string) (*inputTable, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("the inputs: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3) // a byte order mark, as spreadsheets save UTF-8
	}
	r := csv.NewReader(br)
	r.Comment = '#'
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty: want a header row time,INPUT,… and rows of numbers", file)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: a header row time,INPUT,… expected: %w", file, err)
	}
	seen := map[string]bool{}
	units := make([]string, len(header))
	for i := range header {
		header[i], units[i] = splitUnit(strings.TrimSpace(header[i]))
		if seen[header[i]] {
			return nil, fmt.Errorf("%s:1: column %q given twice", file, header[i])
		}
		seen[header[i]] = true
	}
	if header[0] != "time" {
		return nil, fmt.Errorf("%s:1: the first column is %q: want time", file, header[0])
	}
	if units[0] != "" && units[0] != "s" {
		return nil, fmt.Errorf("%s:1: time in %q: want seconds, \"time (s)\" or \"time\"", file, units[0])
	}
	t := &inputTable{file: file, names: header[1:], units: units[1:], columns: make([][]float64, len(header)-1)}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		line, _ := r.FieldPos(0)
		for i, s := range rec {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s:%d: %s %q is not a finite number", file, line, header[i], s)
			}
			if i == 0 {
				if n := len(t.times); n > 0 && x < t.times[n-1] {
					return nil, fmt.Errorf("%s:%d: time %g s before the row above's %g s: times must not decrease", file, line, x, t.times[n-1])
				}
				t.times = append(t.times, x)
			} else {
				t.columns[i-1] = append(t.columns[i-1], x)
			}
		}
	}
	if len(t.times) == 0 {
		return nil, fmt.Errorf("%s: a header and no rows: want rows of numbers under it", file)
	}
	return t, nil
}

// checkAt returns an error where column k (the input name, its unit and
// range) is outside its range at the run's start or stop time tm (end
// names which) and the table has no row there; rows at tm are checked
// as rows.
func (t *inputTable) checkAt(k int, tm float64, end, name, unit string, lo, hi *float64) error {
	ts := t.times
	r := sort.Search(len(ts), func(i int) bool { return ts[i] >= tm })
	if r < len(ts) && ts[r] == tm {
		return nil // a row: checked with the rows
	}
	x := t.at(k, tm)
	if !outside(x, lo, hi) {
		return nil
	}
	var where string
	switch {
	case r == 0:
		where = fmt.Sprintf("the first row's, at %g s, held before it", ts[0])
	case r == len(ts):
		where = fmt.Sprintf("the last row's, at %g s, held after it", ts[r-1])
	default:
		where = fmt.Sprintf("between the rows of %g and %g s", ts[r-1], ts[r])
	}
	return fmt.Errorf("%s: %s = %g at the %s time, t = %g s (%s), is outside [%s, %s] %s", t.file, name, x, end, tm, where, bound(lo, "-inf"), bound(hi, "inf"), unit)
}

// outside reports whether x lies outside the range [lo, hi] (nil: no
// bound on that side).
func outside(x float64, lo, hi *float64) bool { return lo != nil && x < *lo || hi != nil && x > *hi }

// at returns column k at time x: linear between rows, held beyond them
// (as the Python package's Table).
func (t *inputTable) at(k int, x float64) float64 {
	ts, vs := t.times, t.columns[k]
	x = t.snap(x)
	if x <= ts[0] {
		return vs[0]
	}
	if x >= ts[len(ts)-1] {
		return vs[len(vs)-1]
	}
	i := sort.Search(len(ts), func(i int) bool { return ts[i] > x })
	t0, t1 := ts[i-1], ts[i]
	if t1 == t0 {
		return vs[i]
	}
	return vs[i-1] + (vs[i]-vs[i-1])*(x-t0)/(t1-t0)
}

// snap returns the row time within rounding of x (1e-9 of it), else x:
// communication points, added up or multiplied out, fall a hair before
// or after the rows meant for them (3·0.3 < 0.9), and a jump there was
// taken a step late.
func (tb *inputTable) snap(x float64) float64 {
	ts := tb.times
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= x })
	tol := 1e-9 * max(1, math.Abs(x))
	if i < len(ts) && ts[i]-x <= tol {
		return ts[i]
	}
	if i > 0 && x-ts[i-1] <= tol {
		return ts[i-1]
	}
	return x
}

// stepSlope returns column k's slope over a step of dt from t: its mean
// over the step, up to the value just before t+dt (a jump there comes
// with the next step), not the slope where the step starts (a row between
// communication points, or a point that rounding puts a hair before a
// row, 3·0.3 < 0.9, carried a ramp past its end until the next point
// snapped it back); 0, the values held, where the table jumps within the
// step, which the mean would spread over it (a snatch written as a jump
// then peaked at 10 kN at 0.25 s steps against 54 kN).
func (tb *inputTable) stepSlope(k int, t, dt float64) float64 {
	ts, vs := tb.times, tb.columns[k]
	t, end := tb.snap(t), tb.snap(t+dt)
	mean := (tb.before(k, end) - tb.at(k, t)) / dt
	// The pieces that reach into the step: from the first that ends
	// after t to the last that starts before its end.
	for i := max(1, sort.Search(len(ts), func(i int) bool { return ts[i] > t })); i < len(ts) && ts[i-1] < end; i++ {
		a, b := ts[i-1], ts[i]
		// A jump within the step (rows of one time): held, and set at
		// the next point, as the table says it happens at once. Any
		// other change, however fast, is followed with the mean, which
		// pays out what the table does over the step: holding fast ramps
		// too (judged by their steepness against the mean) lost or gained
		// up to 0.2 m of rope a ramp, and 0.57 m over a densely sampled
		// sine.
		if a == b && vs[i] != vs[i-1] {
			return 0
		}
	}
	return mean
}

// before returns column k at time x approached from before: at a jump
// (rows of the same time) the value before it.
func (tb *inputTable) before(k int, x float64) float64 {
	ts, vs := tb.times, tb.columns[k]
	x = tb.snap(x)
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= x })
	if i < len(ts) && ts[i] == x {
		return vs[i]
	}
	return tb.at(k, x)
}

// recorder takes a run's rows as they come.
type recorder interface {
	// begin gets the variables and the indices of the columns after time.
	begin(vars []fmu.Variable, columns []int) error
	row(t float64, values []float64) error
	// end finishes the output; abort removes what a failed run wrote.
	end() error
	abort()
	// file is the output as the user named it.
	file() string
}

// logLines collects the instance's warnings and errors for an error, and
// passes its events (logEvents: a wire leaving a sheave's groove, a cable
// going slack) on to events as they come.
type logLines struct {
	lines  []string
	events io.Writer
}

func (l *logLines) Log(status fmu.Status, category, message string) {
	switch {
	case status >= fmu.Warning:
		l.lines = append(l.lines, message)
		if status == fmu.Warning && l.events != nil {
			fmt.Fprintf(l.events, "warning: %s\n", message)
		}
	case category == "logEvents" && l.events != nil:
		fmt.Fprintf(l.events, "event: %s\n", message)
	}
}

// causalityWord names a causality with its article, for messages.
func causalityWord(c modeldesc.Causality) string {
	switch c {
	case modeldesc.CausalityOutput:
		return "an output"
	case modeldesc.CausalityParameter:
		return "a parameter (set it with -set)"
	}
	return "a " + string(c) + " variable"
}

// simulate steps an instance of the checked scenario to stop, as the
// Python package's simulate does: the inputs set at each communication
// point t_k = k·step, then one step to t_k+1 (the last one shortened to
// stop); the recorders get the time, the inputs and the outputs at each
// point.
func simulate(ctx context.Context, c *exporter.Checked, stop, step float64, table *inputTable, set settings, progress io.Writer, recs []recorder) (err error) {
	res, err := c.Resources()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "cablefmu-run-")
	if err != nil {
		return fmt.Errorf("resources folder: %w", err)
	}
	defer os.RemoveAll(dir)
	defer func() {
		var failed *failedStep
		if err != nil && !errors.As(err, &failed) {
			for _, r := range recs {
				r.abort()
			}
		}
	}()
	for name, data := range res {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("resources folder: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("resources folder: %w", err)
		}
	}
	reg, err := plugins.Builtin()
	if err != nil {
		return err
	}
	log := &logLines{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "run", GUID: c.Scenario.GUID(), ResourceLocation: dir, Logger: log, Registry: reg})
	if err != nil {
		return err
	}
	// The model's events go to the progress stream, each on its line.
	out := &progressLines{w: progress}
	log.events = out
	failed := func(what string) error {
		return fmt.Errorf("%s: %s", what, strings.Join(log.lines, "; "))
	}
	// Warnings too: driven by positions alone, the FMU says once that it
	// takes the velocity from the samples, which changes the physics.
	if in.SetDebugLogging(true, []string{"logEvents", "logStatusWarning"}) != fmu.OK {
		return failed("asking for the model's events and warnings")
	}
	vars := in.Variables()
	index := map[string]int{}
	var inputNames, params []string
	for i, v := range vars {
		index[v.Name] = i
		switch v.Causality {
		case modeldesc.CausalityInput:
			inputNames = append(inputNames, v.Name)
		case modeldesc.CausalityParameter:
			params = append(params, v.Name)
		}
	}
	var inVR []uint32 // the table's columns by value reference
	if table != nil {
		model := c.Scenario.ModelIdentifier
		for k, n := range table.names {
			i, ok := index[n]
			switch {
			case len(inputNames) == 0:
				return fmt.Errorf("%s:1: %s has no inputs: run it without -inputs", table.file, model)
			case ok && vars[i].Causality != modeldesc.CausalityInput:
				return fmt.Errorf("%s:1: %q is %s of %s, not an input: drop its column (its inputs: %s)", table.file, n, causalityWord(vars[i].Causality), model, strings.Join(inputNames, ", "))
			case !ok:
				return fmt.Errorf("%s:1: %q is not an input of %s (%s)", table.file, n, model, nearest(n, inputNames))
			}
			unit := vars[i].Unit
			if unit == "" {
				unit = "1"
			}
			if u := table.units[k]; u != "" && u != unit {
				return fmt.Errorf("%s:1: column %q in %s: %s takes %s (give the values in %s, or the header without a unit)", table.file, n, u, n, unit, unit)
			}
			// Before the run, not at the point that reaches the value
			// (the run failed there, and its outputs went with it): the
			// table's values between rows lie between theirs. Rows before
			// the start or past the stop time are not reached; the values
			// at the start and the stop are.
			v := vars[i]
			if err := table.checkAt(k, 0, "start", n, unit, v.Min, v.Max); err != nil {
				return err
			}
			if err := table.checkAt(k, stop, "stop", n, unit, v.Min, v.Max); err != nil {
				return err
			}
			for row, x := range table.columns[k] {
				if tm := table.times[row]; tm >= 0 && tm <= stop && outside(x, v.Min, v.Max) {
					return fmt.Errorf("%s: %s = %g at t = %g s is outside [%s, %s] %s", table.file, n, x, tm, bound(v.Min, "-inf"), bound(v.Max, "inf"), unit)
				}
			}
			inVR = append(inVR, uint32(i))
		}
	}
	var columns []int // inputs, then outputs
	for _, causality := range []modeldesc.Causality{modeldesc.CausalityInput, modeldesc.CausalityOutput} {
		for i, v := range vars {
			if v.Causality == causality {
				columns = append(columns, i)
			}
		}
	}
	for _, r := range recs {
		if err := r.begin(vars, columns); err != nil {
			return err
		}
	}
	start := 0.0
	if in.SetupExperiment(false, 0, start, false, 0) != fmu.OK {
		return failed("setting up the experiment")
	}
	for _, n := range slices.Sorted(maps.Keys(set)) {
		i, ok := index[n]
		switch {
		case ok && vars[i].Causality == modeldesc.CausalityInput:
			return fmt.Errorf("-set %s: an input of %s: give inputs in the -inputs table", n, c.Scenario.ModelIdentifier)
		case !ok || vars[i].Causality != modeldesc.CausalityParameter:
			return fmt.Errorf("-set %s: not a parameter of %s (%s)", n, c.Scenario.ModelIdentifier, nearest(n, params))
		}
		if in.Write([]uint32{uint32(i)}, []float64{set[n]}) != fmu.OK {
			return failed("-set " + n)
		}
	}
	if in.EnterInitializationMode() != fmu.OK {
		return failed("entering initialization")
	}
	vals := make([]float64, len(inVR))
	// The table's Real columns but positions also give their mean slopes
	// over each step (fmi2SetRealInputDerivatives), so that the FMU
	// follows the table's ramps within the step: held over it, a ramp
	// sampled at 0.1 s was a staircase whose jumps rang the rope, its peak
	// tension 54 % high. A position's slope jumps at every row: the FMU's
	// own path through the positions is smoother (a lift by positions
	// alone, given their slopes, went slack at 0.25 s steps).
	var slopeVR []uint32
	var slopeCol []int
	for k, vr := range inVR {
		if vars[vr].Kind() == modeldesc.TypeReal && vars[vr].Unit != "m" {
			slopeVR, slopeCol = append(slopeVR, vr), append(slopeCol, k)
		}
	}
	orders, slopes := make([]int32, len(slopeVR)), make([]float64, len(slopeVR))
	for k := range orders {
		orders[k] = 1
	}
	// setInputs sets the table's inputs at t and, for a step of dt > 0,
	// their slopes over it.
	setInputs := func(t, dt float64) error {
		if table == nil {
			return nil
		}
		for k := range inVR {
			vals[k] = table.at(k, t)
		}
		if in.Write(inVR, vals) != fmu.OK {
			return failed(fmt.Sprintf("setting the inputs at t = %g s", t))
		}
		if dt == 0 || len(slopeVR) == 0 {
			return nil
		}
		for j, k := range slopeCol {
			slopes[j] = table.stepSlope(k, t, dt)
		}
		if in.SetRealInputDerivatives(slopeVR, orders, slopes) != fmu.OK {
			return failed(fmt.Sprintf("setting the inputs' slopes at t = %g s", t))
		}
		return nil
	}
	if err := setInputs(start, 0); err != nil {
		return err
	}
	if in.ExitInitializationMode() != fmu.OK {
		return failed("initializing")
	}
	all := make([]float64, len(vars))
	allVR := make([]uint32, len(vars))
	for i := range allVR {
		allVR[i] = uint32(i)
	}
	row := make([]float64, len(columns))
	// The table's column of each input column (−1: none, its start value
	// throughout).
	fromTable := make([]int, len(columns))
	for k, i := range columns {
		fromTable[k] = slices.Index(inVR, uint32(i))
	}
	// A row holds the outputs at t and the inputs at t: the table's, set
	// for the step from t (the instance still holds those of the step
	// before, which would show them a step late).
	record := func(t float64) error {
		if in.Read(allVR, all) != fmu.OK {
			return failed(fmt.Sprintf("reading the outputs at t = %g s", t))
		}
		for k, i := range columns {
			row[k] = all[i]
			if j := fromTable[k]; j >= 0 {
				row[k] = table.at(j, t)
			}
		}
		for _, r := range recs {
			if err := r.row(t, row); err != nil {
				return err
			}
		}
		return nil
	}
	if err := record(start); err != nil {
		return err
	}
	steps := int(math.Ceil((stop-start)/step - 1e-9))
	began, shown := time.Now(), time.Now()
	t := start
	// keep ends a run that fails at t with the outputs written up to t,
	// the failure its error whatever else fails in ending them.
	keep := func(cause error) *failedStep {
		if out.drawn {
			out.drawn = false
			fmt.Fprintln(progress)
		}
		f := &failedStep{err: cause, t: t}
		for _, r := range recs {
			if err := r.end(); err != nil {
				f.err = fmt.Errorf("%w; and %v", f.err, err)
				continue
			}
			f.wrote = append(f.wrote, r.file())
		}
		return f
	}
	for k := 0; k < steps; {
		if ctx.Err() != nil {
			f := keep(fmt.Errorf("stopped at t = %g s", t))
			f.stopped = true
			return f
		}
		dt := min(step, stop-t)
		if err := setInputs(t, dt); err != nil {
			return keep(err)
		}
		if in.DoStep(t, dt) != fmu.OK {
			return keep(failed(fmt.Sprintf("the step at t = %g s", t)))
		}
		k++
		if k < steps {
			t = start + float64(k)*step
		} else {
			t = stop
		}
		if err := record(t); err != nil {
			return err
		}
		// A progress line on long runs only; it decides nothing.
		if now := time.Now(); now.Sub(began) > time.Second && now.Sub(shown) > 500*time.Millisecond {
			out.drawn = true
			fmt.Fprintf(progress, "\rt = %.6g s of %g s (%.0f %%)", t, stop, 100*(t-start)/(stop-start))
			shown = now
		}
	}
	if time.Since(began) > time.Second {
		out.drawn = false
		fmt.Fprintf(progress, "\rt = %g s of %g s, %d steps in %.1f s\n", stop, stop, steps, time.Since(began).Seconds())
	}
	_ = in.Terminate()
	for _, r := range recs {
		if err := r.end(); err != nil {
			return err
		}
	}
	return nil
}

// progressLines writes lines to w where a progress line drawn over
// itself ("\rt = …", drawn) may stand: that line is ended first, and left
// as it stood.
type progressLines struct {
	w     io.Writer
	drawn bool
}

func (p *progressLines) Write(b []byte) (int, error) {
	if p.drawn {
		p.drawn = false
		if _, err := io.WriteString(p.w, "\n"); err != nil {
			return 0, err
		}
	}
	return p.w.Write(b)
}

// create makes a file's folder and a temporary file beside it, renamed
// into place when the output is complete.
func create(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	// Without the temporary's name, which the user never gave.
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("cannot write %s in its folder %s: %w", path, filepath.Dir(path), pe.Err)
	}
	return f, err
}

// csvRecorder writes the rows to a CSV file.
type csvRecorder struct {
	path string // the file written (links followed)
	name string // as the user named it
	f    *os.File
	w    *csv.Writer
	rec  []string
}

func (c *csvRecorder) begin(vars []fmu.Variable, columns []int) error {
	f, err := create(c.path)
	if err != nil {
		return fmt.Errorf("the CSV file: %w", err)
	}
	c.f, c.w = f, csv.NewWriter(bufio.NewWriter(f))
	// The header names each column with its unit: "cable.tension (N)".
	c.rec = []string{"time (s)"}
	for _, i := range columns {
		unit := vars[i].Unit
		if unit == "" {
			unit = "1"
		}
		c.rec = append(c.rec, vars[i].Name+" ("+unit+")")
	}
	return c.w.Write(c.rec)
}

func (c *csvRecorder) row(t float64, values []float64) error {
	c.rec[0] = strconv.FormatFloat(t, 'g', -1, 64)
	for j, x := range values {
		c.rec[j+1] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return c.w.Write(c.rec)
}

func (c *csvRecorder) end() error {
	c.w.Flush()
	err := c.w.Error()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replace(c.f.Name(), c.path)
	}
	if err != nil {
		os.Remove(c.f.Name())
		return fmt.Errorf("writing %s: %w", c.path, err)
	}
	return nil
}

// replace renames the complete temporary file tmp to path, with the
// permissions of the file it replaces, or 0644 (CreateTemp's are 0600:
// a result is read by others).
func replace(tmp, path string) error {
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func (c *csvRecorder) file() string { return c.name }

func (c *csvRecorder) abort() {
	if c.f != nil {
		c.f.Close()
		os.Remove(c.f.Name())
	}
}

// plotRecorder keeps every n-th row (and the last) and draws the outputs
// at the end, one panel per group of outputs that share the name before
// the first dot and a unit (load position, load velocity, cable tension,
// …), at most eight.
type plotRecorder struct {
	path    string // the file written (links followed)
	name    string // as the user named it
	every   int
	n       int
	vars    []fmu.Variable
	columns []int
	time    []float64
	rows    [][]float64
	lastT   float64
	last    []float64
}

func (p *plotRecorder) begin(vars []fmu.Variable, columns []int) error {
	p.vars, p.columns, p.every = vars, columns, max(p.every, 1)
	return nil
}

func (p *plotRecorder) row(t float64, values []float64) error {
	if p.n%p.every == 0 {
		p.time = append(p.time, t)
		p.rows = append(p.rows, slices.Clone(values))
		p.last = nil
	} else {
		p.lastT, p.last = t, slices.Clone(values)
	}
	p.n++
	return nil
}

func (p *plotRecorder) abort() {}

func (p *plotRecorder) file() string { return p.name }

func (p *plotRecorder) end() error {
	if p.last != nil {
		p.time = append(p.time, p.lastT)
		p.rows = append(p.rows, p.last)
	}
	cols := map[string][]float64{"time": p.time}
	var panels []chart.Panel
	group := map[string]int{}
	for k, i := range p.columns {
		v := p.vars[i]
		if v.Causality != modeldesc.CausalityOutput {
			continue
		}
		col := make([]float64, len(p.rows))
		for j, row := range p.rows {
			col[j] = row[k]
		}
		cols[v.Name] = col
		prefix, _, _ := strings.Cut(v.Name, ".")
		unit := v.Unit
		if unit == "" {
			unit = "1"
		}
		key := prefix + " " + unit
		if at, ok := group[key]; ok {
			panels[at].Columns = append(panels[at].Columns, v.Name)
			continue
		}
		if len(panels) == 8 {
			continue
		}
		group[key] = len(panels)
		panels = append(panels, chart.Panel{Columns: []string{v.Name}, Title: prefix, Label: unit, Scale: 1})
	}
	if len(panels) == 0 {
		return errors.New("the model has no outputs to plot")
	}
	for i := range panels {
		if len(panels[i].Columns) == 1 {
			panels[i].Title = panels[i].Columns[0]
		}
		panels[i].Label = panels[i].Title + " (" + panels[i].Label + ")"
	}
	// Drawn beside the file and renamed into place, as the CSV.
	f, err := create(p.path)
	if err != nil {
		return fmt.Errorf("the plot: %w", err)
	}
	tmp := f.Name()
	f.Close()
	if err := chart.Draw(cols, panels, 20*vg.Centimeter, vg.Length(5*len(panels)+2)*vg.Centimeter, tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := replace(tmp, p.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", p.path, err)
	}
	return nil
}
