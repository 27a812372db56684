package fmu

import "testing"

// Resource locations as importers on Windows and Linux pass them: the
// slash before a drive letter belongs to the URI, percent-encoding is
// decoded, a host names a UNC share on Windows and is refused elsewhere.
func TestResourcePathForms(t *testing.T) {
	cases := []struct {
		location string
		windows  bool
		want     string
	}{
		{"file:///C:/Users/Crane%20Lab/Hoist/resources", true, `C:\Users\Crane Lab\Hoist\resources`},
		{"file:///c:/a%25b/%E2%82%AC/resources/", true, `c:\a%b\€\resources\`},
		{"file:/D:/fmu/resources", true, `D:\fmu\resources`},
		{"file://localhost/C:/fmu/resources", true, `C:\fmu\resources`},
		{"file:C:/fmu/resources", true, `C:\fmu\resources`},
		{`file:///C:\Program Files\fmu\resources`, true, `C:\Program Files\fmu\resources`},
		{"file://server/share/fmu/resources", true, `\\server\share\fmu\resources`},
		{"FILE:///Z:/tmp/x", true, `Z:\tmp\x`},
		{"file://C:/x/res", true, `C:\x\res`},
		{"file:///C:/Projects/C#/Hoist/resources", true, `C:\Projects\C#\Hoist\resources`},
		{"file:///C:/a?b/resources", true, `C:\a?b\resources`},
		{"file:///C:/x%3Fy%23z/", true, `C:\x?y#z\`},
		{"file:///tmp/C#/res", false, "/tmp/C#/res"},
		{`C:\Users\x\resources\`, true, `C:\Users\x\resources\`},
		{"file:///tmp/a%20b/resources", false, "/tmp/a b/resources"},
		{"file:/tmp/x", false, "/tmp/x"},
		{"file://localhost/tmp/x", false, "/tmp/x"},
		{"/tmp/plain", false, "/tmp/plain"},
	}
	for _, c := range cases {
		got, err := resourcePath(c.location, c.windows)
		if err != nil || got != c.want {
			t.Errorf("resourcePath(%q, windows=%v) = %q, %v; want %q", c.location, c.windows, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "file://remote/x", "file:///tmp/%zz"} {
		if got, err := resourcePath(bad, false); err == nil {
			t.Errorf("resourcePath(%q) = %q, want an error", bad, got)
		}
	}
}
