package fmu

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DecodeStrict decodes one JSON object into v (a pointer to a struct) and
// refuses what encoding/json would accept silently and a scenario author
// would not mean: a key given twice in one object (encoding/json keeps
// the last value: "falls": 4, "falls": 12 would build 12 falls), unknown
// keys (a misspelt setting), null (encoding/json leaves the zero value),
// arrays of the wrong length for a fixed-size field (a missing z would
// become 0, a fourth size value would be dropped), missing keys of fields
// tagged `required:"true"` (a missing rope diameter would become 0), 0
// for fields tagged `zero:"default"`, whose zero the model reads as "not
// given" ("falls": 0 would build one fall, the default), and anything
// after the object; as well as what encoding/json refuses
// itself: a document that is no JSON, and a value of the wrong type.
//
// Every refusal is a *PositionError at the offending key or value (a
// missing key: at the opening brace of the object that lacks it; invalid
// JSON: at the character where the document stops being JSON), its
// message one line naming the key by its path from the document's top
// ("cable.rope.diameter") and what is expected there: an unknown key is
// refused with the nearest key the object takes (Nearest), or with the
// keys it takes when none is near. Invalid JSON is refused first, then
// a key given twice, then the first other refusal in the document's
// order.
func DecodeStrict(data []byte, v any) error {
	_, err := decodeStrict(data, v)
	return err
}

// decodeStrict is DecodeStrict, also returning the document's tree.
func decodeStrict(data []byte, v any) (*node, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if err := checkDuplicates(data, root, ""); err != nil {
		return nil, err
	}
	if err := checkShape(data, root, reflect.TypeOf(v), ""); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		// checkShape refuses what encoding/json refuses for the types
		// scenarios use; a refusal it does not foresee is placed at the
		// value encoding/json names, if any.
		off := root.off
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if _, n, exact := root.find(te.Field); exact {
				off = n.off
			}
		}
		return nil, positionAt(data, off, err)
	}
	return root, nil
}

// node is a JSON value of a document with where it stands.
type node struct {
	off     int      // byte offset of the value's first character
	kind    byte     // '{', '[', '"' (string), '0' (number), 'b' (true, false), 'n' (null)
	text    string   // a string's value, a number's or a boolean's literal
	members []member // an object's, in the document's order
	items   []*node  // an array's
}

// member is a key and its value in an object.
type member struct {
	key   string
	off   int // byte offset of the key's opening quote
	value *node
}

// parseJSON reads the document's one value into a tree; invalid JSON and
// anything after the value are refused.
func parseJSON(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var first json.RawMessage
	if err := dec.Decode(&first); err != nil {
		// json.Unmarshal refuses the same document with the offset of
		// the offending character.
		if uerr := json.Unmarshal(data, &first); uerr != nil {
			err = uerr
		}
		return nil, syntaxError(data, err)
	}
	end := int(dec.InputOffset())
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return nil, positionAt(data, len(data)-len(rest), errors.New("data after the JSON object: one object only"))
	}
	p := parser{data: data[:end]}
	return p.value(), nil
}

// syntaxError places encoding/json's refusal of invalid JSON at the
// offending character (the end of the document if it ends too early)
// and says what was expected there.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return positionAt(data, 0, err)
	}
	msg := se.Error()
	if strings.HasPrefix(msg, "unexpected end") {
		return positionAt(data, len(bytes.TrimRight(data, " \t\r\n")), fmt.Errorf("%w: the document ends inside a value (a closing '}', ']' or '\"' missing?)", se))
	}
	off := min(max(int(se.Offset)-1, 0), len(data))
	hint := ""
	switch {
	case strings.Contains(msg, "after object key:value pair"):
		hint = `want ',' or '}'`
	case strings.Contains(msg, "after object key"):
		hint = `want ':'`
	case strings.Contains(msg, "after array element"):
		hint = `want ',' or ']'`
	case strings.Contains(msg, "looking for beginning of object key string"):
		hint = `want a key in double quotes`
		if off < len(data) && data[off] == '}' {
			hint += ` (no ',' after an object's last member)`
		}
	case strings.Contains(msg, "looking for beginning of value"):
		hint = "want a value"
		if off < len(data) && data[off] == ']' {
			hint += ` (no ',' after a list's last value)`
		}
	case strings.Contains(msg, "in string literal"):
		hint = `want control characters escaped (\n, \t)`
	}
	if hint != "" {
		return positionAt(data, off, fmt.Errorf("%w, %s", se, hint))
	}
	return positionAt(data, off, se)
}

// parser reads a tree from a document encoding/json has found valid.
type parser struct {
	data []byte
	i    int
}

func (p *parser) space() {
	for p.i < len(p.data) && strings.IndexByte(" \t\r\n", p.data[p.i]) >= 0 {
		p.i++
	}
}

func (p *parser) value() *node {
	p.space()
	n := &node{off: p.i}
	switch c := p.data[p.i]; c {
	case '{', '[':
		n.kind = c
		p.i++
		p.space()
		if p.data[p.i] == c+2 { // '}' or ']'
			p.i++
			return n
		}
		for {
			if c == '{' {
				p.space()
				m := member{off: p.i}
				m.key = p.str()
				p.space()
				p.i++ // ':'
				m.value = p.value()
				n.members = append(n.members, m)
			} else {
				n.items = append(n.items, p.value())
			}
			p.space()
			p.i++ // ',' or the closing bracket
			if p.data[p.i-1] != ',' {
				return n
			}
		}
	case '"':
		n.kind, n.text = '"', p.str()
	case 't':
		n.kind, n.text = 'b', "true"
		p.i += len(n.text)
	case 'f':
		n.kind, n.text = 'b', "false"
		p.i += len(n.text)
	case 'n':
		n.kind, n.text = 'n', "null"
		p.i += len(n.text)
	default:
		start := p.i
		for p.i < len(p.data) && strings.IndexByte("+-0123456789.eE", p.data[p.i]) >= 0 {
			p.i++
		}
		n.kind, n.text = '0', string(p.data[start:p.i])
	}
	return n
}

// str reads a string literal and returns its value.
func (p *parser) str() string {
	start := p.i
	for p.i++; p.data[p.i] != '"'; p.i++ {
		if p.data[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
	var s string
	if err := json.Unmarshal(p.data[start:p.i], &s); err != nil {
		return string(p.data[start+1 : p.i-1]) // not reached: encoding/json has read the document
	}
	return s
}

// find returns the value at path ("cable.rope.E", "bodies[1].size[0]";
// "" is the document) and the byte offset of its key, −1 for an array's
// item or the document. Keys match as encoding/json matches them with
// fields, exactly or else case-insensitively. If the path is not in the
// document, exact is false and n is the deepest value on the way to it.
func (n *node) find(path string) (key int, v *node, exact bool) {
	key, v = -1, n
	for path != "" {
		var step string
		if path[0] == '[' {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return key, v, false
			}
			k, err := strconv.Atoi(path[1:end])
			if err != nil || v.kind != '[' || k < 0 || k >= len(v.items) {
				return key, v, false
			}
			key, v, path = -1, v.items[k], path[end+1:]
			path = strings.TrimPrefix(path, ".")
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		step, path = path[:end], strings.TrimPrefix(path[end:], ".")
		var found *member
		for i := range v.members {
			m := &v.members[i]
			if m.key == step {
				found = m
				break
			}
			if found == nil && strings.EqualFold(m.key, step) {
				found = m
			}
		}
		if found == nil {
			return key, v, false
		}
		key, v = found.off, found.value
	}
	return key, v, true
}

// checkDuplicates refuses the first key given twice in one object,
// anywhere in the document (raw parts decoded later by a model
// included), with the position of its second occurrence and the first.
// Keys equal under encoding/json's case folding count as the same:
// "mass" and "Mass" decode into the same field.
func checkDuplicates(data []byte, n *node, at string) error {
	switch n.kind {
	case '{':
		seen := map[string]member{}
		for _, m := range n.members {
			folded := foldKey(m.key)
			if first, dup := seen[folded]; dup {
				fl, fc := position(data, first.off)
				as := ""
				if first.key != m.key {
					as = fmt.Sprintf(" as %q", first.key)
				}
				return positionAt(data, m.off, fmt.Errorf("duplicate key %q (first at %d:%d%s): give each key once", join(at, m.key), fl, fc, as))
			}
			seen[folded] = m
			if err := checkDuplicates(data, m.value, join(at, m.key)); err != nil {
				return err
			}
		}
	case '[':
		for i, x := range n.items {
			if err := checkDuplicates(data, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkShape compares a JSON value with the Go type it decodes into and
// refuses, in the document's order, what DecodeStrict refuses.
func checkShape(data []byte, n *node, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.kind == 'n' {
		return positionAt(data, n.off, fmt.Errorf("%s: null is not a value (leave the key out for its default)", where(at)))
	}
	if decodesItself(t) || t.Kind() == reflect.Interface {
		return checkNoNull(data, n, at)
	}
	wrong := func(want string) error {
		return positionAt(data, n.off, fmt.Errorf("%s: %s, want %s", where(at), n.describe(), want))
	}
	switch t.Kind() {
	case reflect.Bool:
		if n.kind != 'b' {
			return wrong("true or false")
		}
	case reflect.String:
		if n.kind != '"' {
			return wrong("a string")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.kind != '0' {
			return wrong("a whole number")
		}
		if _, err := strconv.ParseInt(n.text, 10, t.Bits()); err != nil {
			lo, hi := -1<<(t.Bits()-1), 1<<(t.Bits()-1)-1
			return wrong(wholeNumber(n.text, fmt.Sprintf("[%d, %d]", lo, hi)))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n.kind != '0' {
			return wrong("a whole number ≥ 0")
		}
		if _, err := strconv.ParseUint(n.text, 10, t.Bits()); err != nil {
			return wrong(wholeNumber(n.text, fmt.Sprintf("[0, %d]", uint64(1)<<(t.Bits()-1)*2-1)))
		}
	case reflect.Float32, reflect.Float64:
		if n.kind != '0' {
			return wrong("a number")
		}
		if _, err := strconv.ParseFloat(n.text, t.Bits()); err != nil {
			largest := math.MaxFloat64
			if t.Kind() == reflect.Float32 {
				largest = math.MaxFloat32
			}
			return wrong(fmt.Sprintf("a number of size at most %g", largest))
		}
	case reflect.Array:
		if n.kind != '[' {
			return wrong(fmt.Sprintf("a list of %d values", t.Len()))
		}
		if len(n.items) != t.Len() {
			return positionAt(data, n.off, fmt.Errorf("%s: %d values, want %d", where(at), len(n.items), t.Len()))
		}
		return checkItems(data, n, t.Elem(), at)
	case reflect.Slice:
		if n.kind != '[' {
			return wrong("a list")
		}
		return checkItems(data, n, t.Elem(), at)
	case reflect.Map:
		if n.kind != '{' {
			return wrong("an object")
		}
		for _, m := range n.members {
			if err := checkShape(data, m.value, t.Elem(), join(at, m.key)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		if n.kind != '{' {
			return wrong("an object")
		}
		for _, m := range n.members {
			f, ok := fieldFor(t, m.key)
			if !ok {
				return positionAt(data, m.off, unknownKey(join(at, m.key), m.key, structKeys(t)))
			}
			if err := checkShape(data, m.value, f.Type, join(at, m.key)); err != nil {
				return err
			}
			if f.Tag.Get("zero") == "default" && m.value.kind == '0' {
				if x, err := strconv.ParseFloat(m.value.text, 64); err == nil && x == 0 {
					return positionAt(data, m.value.off, fmt.Errorf("%s: 0 is not a value (leave the key out for its default)", where(join(at, m.key))))
				}
			}
		}
		if name := missingRequired(n, t); name != "" {
			return positionAt(data, n.off, fmt.Errorf("%s: %q is missing", where(at), name))
		}
	}
	return nil
}

// decodesItself reports whether values of t are raw JSON or decode
// themselves (json.Unmarshaler, encoding.TextUnmarshaler, []byte from
// base64): their shape is theirs to check.
func decodesItself(t reflect.Type) bool {
	if t == reflect.TypeFor[json.RawMessage]() {
		return true
	}
	if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
		return true
	}
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

func checkItems(data []byte, n *node, elem reflect.Type, at string) error {
	for i, x := range n.items {
		if err := checkShape(data, x, elem, fmt.Sprintf("%s[%d]", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// wholeNumber is what a number that is not a whole number in range is
// told: written without a fraction or exponent if it is a whole number,
// in the range rng if it is outside.
func wholeNumber(text, rng string) string {
	if strings.ContainsAny(text, ".eE") {
		if x, err := strconv.ParseFloat(text, 64); err == nil && x == math.Trunc(x) {
			return "a whole number written without a fraction or exponent"
		}
		return "a whole number"
	}
	return "a whole number in " + rng
}

// describe names a value for a message: a number or a boolean by its
// literal, a string by its beginning.
func (n *node) describe() string {
	switch n.kind {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		s := n.text
		if utf8.RuneCountInString(s) > 24 {
			s = string([]rune(s)[:24]) + "…"
		}
		return fmt.Sprintf("the string %q", s)
	}
	return n.text
}

// unknownKey is the refusal of key, at path, in an object that takes
// keys: with the nearest of them if one is near, else with all.
func unknownKey(path, key string, keys []string) error {
	if near, ok := Nearest(key, keys); ok {
		return fmt.Errorf("unknown key %q (did you mean %q?)", path, near)
	}
	if len(keys) == 0 {
		return fmt.Errorf("unknown key %q (this object takes no keys)", path)
	}
	quoted := make([]string, len(keys))
	for i, k := range keys {
		quoted[i] = strconv.Quote(k)
	}
	return fmt.Errorf("unknown key %q (valid keys: %s)", path, strings.Join(quoted, ", "))
}

// missingRequired returns the key of a field tagged required:"true" that
// the object lacks, "" if none.
func missingRequired(n *node, t reflect.Type) string {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if name := missingRequired(n, f.Type); name != "" {
				return name
			}
			continue
		}
		if f.Tag.Get("required") != "true" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		found := false
		for _, m := range n.members {
			found = found || strings.EqualFold(m.key, name)
		}
		if !found {
			return name
		}
	}
	return ""
}

// checkNoNull refuses null anywhere in a value whose shape is not
// checked here (a raw part, decoded later by the model with its own
// check).
func checkNoNull(data []byte, n *node, at string) error {
	switch n.kind {
	case 'n':
		return positionAt(data, n.off, fmt.Errorf("%s: null is not a value (leave the key out for its default)", where(at)))
	case '[':
		for i, x := range n.items {
			if err := checkNoNull(data, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case '{':
		for _, m := range n.members {
			if err := checkNoNull(data, m.value, join(at, m.key)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldFor finds the struct field a JSON key decodes into, as
// encoding/json does: the tag name, else the field name, case-insensitively;
// embedded structs' fields count as the outer struct's.
func fieldFor(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			if et := embedded(f); et != nil {
				if g, ok := fieldFor(et, key); ok {
					return g, true
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// structKeys lists the keys a struct takes, in the order of its fields
// (embedded structs' in their place), leaving out the fields tagged
// schema:"-": keys kept only to be refused with a reason.
func structKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || f.Tag.Get("schema") == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			if et := embedded(f); et != nil {
				keys = append(keys, structKeys(et)...)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys = append(keys, name)
	}
	return keys
}

// embedded returns the struct type of an embedded field (through a
// pointer), nil for other embedded types.
func embedded(f reflect.StructField) reflect.Type {
	et := f.Type
	if et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct {
		return nil
	}
	return et
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func where(at string) string {
	if at == "" {
		return "the document"
	}
	return fmt.Sprintf("%q", at)
}

// Nearest returns the candidate nearest to name, for a "did you mean"
// after a misspelt key or name: the one fewest edits away (a character
// inserted, deleted, replaced, or two neighbours swapped; letters
// compared case-insensitively), the first of those in candidates' order,
// and only if it is near: at most one edit per four characters of the
// longer of the two, rounded to the nearest. ok is false when no
// candidate is near.
func Nearest(name string, candidates []string) (nearest string, ok bool) {
	best := -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d <= (max(utf8.RuneCountInString(name), utf8.RuneCountInString(c))+2)/4 && (best < 0 || d < best) {
			nearest, best = c, d
		}
	}
	return nearest, best >= 0
}

// editDistance is the optimal string alignment distance between a and
// b, in runes: insertions, deletions, replacements and swaps of
// neighbours.
func editDistance(a, b string) int {
	r, s := []rune(a), []rune(b)
	// d[i][j] is the distance between r[:i] and s[:j].
	d := make([][]int, len(r)+1)
	for i := range d {
		d[i] = make([]int, len(s)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(r); i++ {
		for j := 1; j <= len(s); j++ {
			cost := 1
			if r[i-1] == s[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && r[i-1] == s[j-2] && r[i-2] == s[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(r)][len(s)]
}

// PositionError is a refusal at a place in a JSON document: Offset (in
// bytes), Line and Column (from 1; the column counts characters, as
// editors do) of the offending token, in File if the document has a
// name. Without a name, the position is in the document that was
// decoded: for a scenario's "config", Registry.Configure places it in
// the scenario's file.
type PositionError struct {
	File         string
	Offset       int
	Line, Column int
	Err          error
}

func (e *PositionError) Error() string {
	at := fmt.Sprintf("%d:%d", e.Line, e.Column)
	if e.File != "" {
		at = e.File + ":" + at
	}
	return at + ": " + e.Err.Error()
}

func (e *PositionError) Unwrap() error { return e.Err }

// WithContext puts context ("config", `model "massless"`) before err's
// message: after the position if err is a *PositionError, so that the
// place stays at the start of the line ("scenario.json:3:5: config: …"),
// and before each line of errors joined by errors.Join.
func WithContext(context string, err error) error {
	if parts, ok := joined(err); ok {
		for i, p := range parts {
			parts[i] = WithContext(context, p)
		}
		return errors.Join(parts...)
	}
	if pe, ok := err.(*PositionError); ok {
		inner := *pe
		inner.Err = fmt.Errorf("%s: %w", context, pe.Err)
		return &inner
	}
	return fmt.Errorf("%s: %w", context, err)
}

// joined returns a copy of the errors err joins if it is errors.Join's
// (a message that is its errors' messages, a line each).
func joined(err error) ([]error, bool) {
	u, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return nil, false
	}
	parts := append([]error(nil), u.Unwrap()...)
	msgs := make([]string, len(parts))
	for i, p := range parts {
		msgs[i] = p.Error()
	}
	return parts, strings.Join(msgs, "\n") == err.Error()
}

// AtKey returns err as a *PositionError at the key of path (as
// DecodeStrict's messages name keys: "cable.rope", "bodies[1].mass") in
// the JSON document doc, for a refusal of the key itself (a key that
// moved or went); at the value for a path that ends in an index or is
// empty (the document). err is returned as it is if doc does not hold
// path or is no valid JSON.
func AtKey(doc []byte, path string, err error) error { return at(doc, path, true, err) }

// AtValue is AtKey at the value of path, for a refusal of the value.
func AtValue(doc []byte, path string, err error) error { return at(doc, path, false, err) }

func at(doc []byte, path string, key bool, err error) error {
	root, perr := parseJSON(doc)
	if perr != nil {
		return err
	}
	k, n, exact := root.find(path)
	switch {
	case !exact:
		return err
	case key && k >= 0:
		return positionAt(doc, k, err)
	}
	return positionAt(doc, n.off, err)
}

// inFile names the file of a positioned refusal in err ("scenario.json:
// 14:5: …"); other errors are returned as they are.
func inFile(name string, err error) error {
	var pe *PositionError
	if !errors.As(err, &pe) {
		return err
	}
	named := *pe
	named.File = name
	return &named
}

// positionAt returns err at byte offset off of data.
func positionAt(data []byte, off int, err error) *PositionError {
	line, col := position(data, off)
	return &PositionError{Offset: off, Line: line, Column: col, Err: err}
}

// position returns the line and column (from 1, in characters) of byte
// offset off in data.
func position(data []byte, off int) (line, col int) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:start], []byte("\n")), 1 + utf8.RuneCount(data[start:off])
}

// foldKey folds a key as encoding/json does when it matches keys with
// struct fields: ASCII letters upper-cased, other runes to the upper case
// of their lower case.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
		} else {
			r = unicode.ToUpper(unicode.ToLower(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}
