package corpusreport

import "testing"

func TestWithCurated(t *testing.T) {
	const md = "# The bundled real corpus\n\n| table |\n"
	for _, tc := range []struct{ name, old, want string }{
		{"no old file", "", md},
		{"old table only", "# The bundled real corpus\n\n| old table |\n", md},
		{"a curated section kept", "# The bundled real corpus\n\n| old |\n\n## A curator's first day\n\n| repo | unedited |\n",
			md + "\n## A curator's first day\n\n| repo | unedited |\n"},
		{"every section after the first kept", "# x\n\n## One\n\na\n\n## Two\n\nb\n", md + "\n## One\n\na\n\n## Two\n\nb\n"},
		{"a heading word inside a line is no section", "# x\n\ntext ## not a heading\n", md},
		{"a deeper heading is no section", "# x\n\n### Deeper\n", md},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WithCurated(md, tc.old); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
