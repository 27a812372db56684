package docs

import (
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// Port is one variable of the FMU as the page lists it.
type Port struct {
	Name, Type, Description string
	// Unit and Display (the unit engineers read it in, with its factor
	// from the unit); Start and Range as written in the description.
	Unit, Display string
	Start, Range  string
	// Size is an FMI 3.0 array's shape ("41 × 3"), empty for a scalar.
	Size string
}

// Page is what index.html says.
type Page struct {
	ModelIdentifier, Description string
	// Model is the cable model's scenario name, Summary its line (with
	// its paper).
	Model, Summary string
	FMIVersion     string // "2.0" or "3.0"
	GUID, Engine   string
	StopTime, Step float64 // s: the default experiment and the internal step
	// Inputs, Outputs and Parameters by causality.
	Inputs, Outputs, Parameters []Port
	// Driven names the points the master drives; Winch says whether a
	// winch or drum input is a port.
	Driven  []string
	Winch   bool
	Figures []fmu.Figure
	// Picture and Raster are the picture's files beside index.html.
	Picture, Raster string
	Files           []string // the resources
}

// byCausality sorts a description's variables into the page's lists.
type byCausality struct{ inputs, outputs, parameters []Port }

func (b *byCausality) add(c modeldesc.Causality, p Port) {
	switch c {
	case modeldesc.CausalityInput:
		b.inputs = append(b.inputs, p)
	case modeldesc.CausalityOutput:
		b.outputs = append(b.outputs, p)
	case modeldesc.CausalityParameter:
		b.parameters = append(b.parameters, p)
	}
}

// Ports2 lists the variables of an FMI 2.0 model description by causality.
func Ports2(md *modeldesc.ModelDescription) (inputs, outputs, parameters []Port) {
	var b byCausality
	for _, v := range md.Variables {
		b.add(v.EffectiveCausality(), Port{Name: v.Name, Type: string(v.Type), Description: v.Description, Unit: v.Unit, Start: v.Start,
			Display: display(md.Units, v.Unit, v.DisplayUnit), Range: span(v.Min, v.Max)})
	}
	return b.inputs, b.outputs, b.parameters
}

// Ports3 lists the variables of an FMI 3.0 model description by
// causality, arrays with their shape.
func Ports3(md *modeldesc.ModelDescription3) (inputs, outputs, parameters []Port) {
	var b byCausality
	for _, v := range md.Variables {
		p := Port{Name: v.Name, Type: string(v.Type), Description: v.Description, Unit: v.Unit,
			Display: display(md.Units, v.Unit, v.DisplayUnit), Range: span(v.Min, v.Max)}
		switch {
		case len(v.Start) > 0 && v.Type == modeldesc.TypeBoolean3:
			p.Start = strconv.FormatBool(v.Start[0] != 0)
		case len(v.Start) > 0:
			p.Start = modeldesc.FormatReal(v.Start[0])
		}
		if len(v.Dimensions) > 0 {
			var dims []string
			for _, d := range v.Dimensions {
				dims = append(dims, strconv.FormatUint(d.Start, 10))
			}
			p.Size = strings.Join(dims, " × ")
		}
		b.add(v.Causality, p)
	}
	return b.inputs, b.outputs, b.parameters
}

// display names the display unit of a variable with its factor ("kN =
// N / 1000"), empty where the variable is shown in its unit.
func display(units []modeldesc.Unit, unit, name string) string {
	if name == "" || name == unit {
		return ""
	}
	for _, u := range units {
		if u.Name != unit {
			continue
		}
		for _, d := range u.Display {
			if d.Name == name {
				f := d.Factor
				if f == 0 {
					f = 1
				}
				return fmt.Sprintf("%s (%s × %s)", name, unit, trimFloat(f))
			}
		}
	}
	return name
}

func trimFloat(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func span(lo, hi *float64) string {
	switch {
	case lo == nil && hi == nil:
		return ""
	case lo == nil:
		return "≤ " + trimFloat(*hi)
	case hi == nil:
		return "≥ " + trimFloat(*lo)
	}
	return trimFloat(*lo) + " … " + trimFloat(*hi)
}

// Write returns documentation/index.html.
func (p *Page) Write() ([]byte, error) {
	var b bytes.Buffer
	if err := page.Execute(&b, p); err != nil {
		return nil, fmt.Errorf("writing documentation/index.html: %w", err)
	}
	return b.Bytes(), nil
}

// Lag returns the driven point's lag (s) at a communication step H (s):
// the runtime's (fmu.Lag).
func (p *Page) Lag(H float64) float64 { return fmu.Lag(H, p.Step) }

// ms formats seconds as milliseconds.
func ms(s float64) string { return strconv.FormatFloat(1000*s, 'f', 1, 64) + " ms" }

var page = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"ms": ms, "g": trimFloat,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.ModelIdentifier}}: a cablefmu FMU</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: .2rem; }
.sub { color: #555; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; font-size: .92rem; }
th, td { border-bottom: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f5f8; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { color: #555; font-size: .9rem; }
</style>
</head>
<body>
<h1>{{.ModelIdentifier}}</h1>
<p class="sub">FMI {{.FMIVersion}} co-simulation FMU made by cablefmu {{.Engine}} · model <code>{{.Model}}</code> · {{if eq .FMIVersion "2.0"}}GUID{{else}}instantiation token{{end}} <code>{{.GUID}}</code></p>
<p>{{.Description}}</p>

<h2 id="model">The model</h2>
<p><code>{{.Model}}</code>: {{.Summary}}.</p>
<figure>
<img src="{{.Picture}}" alt="The scenario at its start, seen from the side (x to the right, z up)" width="720" height="480"
 onerror="console.error('missing picture: ' + this.getAttribute('src')); this.replaceWith('(the picture ' + this.getAttribute('src') + ' is missing beside this page)')">
<figcaption>The scenario at its start, seen from the side (x to the right, z up); the red triangle marks the point the crane drives. The same picture as PNG: <a href="{{.Raster}}">{{.Raster}}</a>.</figcaption>
</figure>
<p>Default experiment: 0 to {{g .StopTime}} s. Internal step <code>internalStep</code> = {{ms .Step}}: the simulation steps on the grid 0, h, 2h, … whatever your communication step; between grid points Real outputs are interpolated, counts and switches keep the earlier grid point's value.</p>

<h2 id="driving">How to drive it</h2>
<ul>
{{- if .Driven}}
<li>Set the inputs before each <code>DoStep</code>. The driven point{{if gt (len .Driven) 1}}s{{end}} ({{range $i, $d := .Driven}}{{if $i}}, {{end}}<code>{{$d}}</code>{{end}}) follow{{if eq (len .Driven) 1}}s{{end}} your samples along a smooth path: position and velocity never jump, at any communication step. Each sample is reached the communication step (rounded up to internal steps) and one internal step after you set it: {{ms (.Lag 0.01)}} at steps of 10 ms, {{ms (.Lag 0.1)}} at 0.1 s.</li>
<li>Send positions and velocities (consistent with each other), or velocities alone.{{if eq .FMIVersion "2.0"}} With <code>fmi2SetRealInputDerivatives</code> of the velocities there is no lag: the path extrapolates with them.{{end}}</li>
<li>Positions alone work too: the FMU takes the velocity from the last samples and says so once (log category <code>logStatusWarning</code>).</li>
{{- end}}
{{- if .Winch}}
<li>The winch (drum) inputs are held over a communication step, or extrapolated with their derivatives, and act from the next grid point on: a step in the speed you send is a step the winch makes.</li>
{{- end}}
<li>No output responds at once to an input: outputs read after you set inputs belong to the step that ended at that communication point. There is no algebraic loop to break, and no directional derivatives.</li>
<li>Values outside a variable's range, NaN and infinities are refused with the variable named; a step the model cannot take returns an error with the reason. FMU states can be saved, restored and serialized.</li>
</ul>

<h2 id="inputs">Inputs</h2>
{{template "ports" .Inputs}}
<h2 id="outputs">Outputs</h2>
{{template "ports" .Outputs}}
<h2 id="parameters">Parameters</h2>
<p>Fixed for a run: set them before initialization.</p>
{{template "ports" .Parameters}}

{{- if .Figures}}
<h2 id="validation">Validation</h2>
<p>What the model's tests measure against closed forms and the papers (the figures of the engine that made this FMU).</p>
<table>
<tr><th>check</th><th>result</th><th>tolerance</th><th>test</th></tr>
{{- range .Figures}}
<tr><td>{{.Check}}</td><td>{{.Result}}</td><td>{{.Tolerance}}</td><td><code>{{.Test}}</code></td></tr>
{{- end}}
</table>
{{- end}}

<h2 id="files">Files</h2>
<p>The scenario travels in <code>resources/</code>: {{range $i, $f := .Files}}{{if $i}}, {{end}}<code>{{$f}}</code>{{end}}. The binary is generic: it reads them at instantiation.</p>
</body>
</html>
{{define "ports"}}{{if .}}<table>
<tr><th>name</th><th>type</th><th>unit</th><th>start</th><th>range</th><th>meaning</th></tr>
{{- range .}}
<tr><td><code>{{.Name}}</code>{{if .Size}} [{{.Size}}]{{end}}</td><td>{{.Type}}</td><td>{{.Unit}}{{if .Display}}<br><small>shown in {{.Display}}</small>{{end}}</td><td>{{.Start}}</td><td>{{.Range}}</td><td>{{.Description}}</td></tr>
{{- end}}
</table>{{else}}<p>None.</p>{{end}}{{end}}
`))
