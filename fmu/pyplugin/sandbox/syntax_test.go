package sandbox_test

import (
	"testing"

	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
)

// A syntax error is refused at its line and, where gpython gives one, its
// column in characters: the parser's at the token it stopped at (a name
// or keyword from its first letter), the compiler's at the refused
// statement; an error at the file's end has no column.
func TestSyntaxErrorColumns(t *testing.T) {
	for text, want := range map[string]string{
		"def step(sim):\n    x = = 1\n": "p.py:2:9: SyntaxError: invalid syntax",
		"x = 'é' +* 2\n":                "p.py:1:10: SyntaxError: invalid syntax",
		"for x in y:\npass\n":           "p.py:2:1: SyntaxError: invalid syntax",
		"def f(:\n    pass\n":           "p.py:1:7: SyntaxError: invalid syntax",
		"x = 'abc\n":                    "p.py:1:5: SyntaxError: EOL while scanning string literal",
		"def step(sim):\n    break\n":   "p.py:2:5: SyntaxError: 'break' outside loop",
		"return 3\n":                    "p.py:1:1: SyntaxError: 'return' outside function",
		"def step(sim):\n    x = (1,\n": "p.py:3: SyntaxError: unexpected EOF while parsing",
		"def step(sim):\n    y = ü ü\n": "p.py:2:11: SyntaxError: invalid syntax",
	} {
		_, err := sandbox.Prepare("p.py", []byte(text), sandbox.NewVocabulary(nil, nil))
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
}
