package rust

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Test code inside Rust source files: #[cfg(test)] modules, #[test] and
// #[bench] functions, and any item under a cfg that needs the test build
// (#[cfg(all(test, unix))]). It belongs to the task like a test file, so an
// evaluation puts it back before anything runs (lang.TestCode): otherwise a
// patch could empty the unit tests that judge it.

// testItem is one outermost test item of a file.
type testItem struct {
	key        string // enclosing modules and the item's head, with an occurrence number
	container  string // the enclosing modules' heads, "" at the top level
	head       string // "mod tests", "fn parses", "use super::*"
	start, end int    // byte span: the first attribute to the closing '}' or ';'
	moduleFile string // for `mod name;`: the module's name, else ""
}

// testItems lists the outermost test items of f, in file order.
func (f *rfile) testItems() []testItem {
	var items []testItem
	seen := map[string]int{}
	for i := 0; i < len(f.toks); i++ {
		if !f.itemAttrStart(i) {
			continue
		}
		attrs, q := f.attrsAt(i)
		if !isTestAttr(attrs) {
			i = q - 1
			continue
		}
		end, headEnd := f.itemEnd(q)
		if end < 0 {
			break // an unbalanced file: nothing after this is an item we can bound
		}
		it := testItem{
			container: f.containerPath(i),
			head:      f.spell(q, headEnd),
			start:     f.toks[i].start,
			end:       f.toks[end].end,
		}
		if qq := f.skipQualifiers(q); f.text(qq) == "mod" && f.text(end) == ";" && qq+2 == end {
			it.moduleFile = f.text(qq + 1)
		}
		base := it.container + "\x00" + it.head
		seen[base]++
		it.key = fmt.Sprintf("%s\x00%d", base, seen[base])
		items = append(items, it)
		i = end
	}
	return items
}

// itemAttrStart reports whether token i opens the outer attributes of an
// item: a '#' '[' at the top level or directly inside a module, trait or
// impl, right after the end of the previous item.
func (f *rfile) itemAttrStart(i int) bool {
	if f.text(i) != "#" || f.text(i+1) != "[" || f.match[i+1] < 0 {
		return false
	}
	if p := f.parent[i]; p >= 0 {
		if b := f.blocks[p]; b == nil || b.kind != rbContainer {
			return false
		}
	}
	if i == 0 {
		return true
	}
	switch f.text(i - 1) {
	case ";", "{", "}":
		return true
	}
	return false
}

// itemEnd returns the token that ends the item whose head starts at q (a
// ';', or the '}' of its body) and the end of its head (the body's '{' or
// the ';'); -1 when the file ends first.
func (f *rfile) itemEnd(q int) (end, headEnd int) {
	for k := q; k < len(f.toks); k++ {
		switch t := f.toks[k].text; {
		case t == ";":
			return k, k
		case t == "{" && f.match[k] > k:
			if b := f.blocks[k]; b != nil && b.kind != rbExpr && b.kind != rbBare {
				return f.match[k], k
			}
			k = f.match[k] // a struct literal in a const's value: the item ends at its ';'
		case (t == "(" || t == "[") && f.match[k] > k:
			k = f.match[k]
		case t == "}":
			return -1, -1 // the enclosing block closed: no end of our own
		}
	}
	return -1, -1
}

// containerPath spells the modules, traits and impls enclosing token i,
// outermost first.
func (f *rfile) containerPath(i int) string {
	var heads []string
	for _, b := range f.enclosing(i) {
		if b.kind != rbContainer {
			continue
		}
		_, q := f.attrsAt(b.headLo)
		heads = append(heads, f.spell(q, b.open))
	}
	for l, r := 0, len(heads)-1; l < r; l, r = l+1, r-1 {
		heads[l], heads[r] = heads[r], heads[l]
	}
	return strings.Join(heads, " / ")
}

// containerCloses maps each container path of f to the offset of its
// closing brace; the top level ("") closes at the end of the file.
func (f *rfile) containerCloses() map[string]int {
	closes := map[string]int{"": len(f.src)}
	for _, open := range f.order {
		b := f.blocks[open]
		if b.kind != rbContainer || b.close < 0 {
			continue
		}
		_, q := f.attrsAt(b.headLo)
		p := f.spell(q, b.open)
		if outer := f.containerPath(open); outer != "" {
			p = outer + " / " + p
		}
		if _, dup := closes[p]; !dup {
			closes[p] = f.toks[b.close].start
		}
	}
	return closes
}

// RestoreTestCode is lang.TestCode.Restore for Rust.
func RestoreTestCode(task, patched []byte) ([]byte, []string, string) {
	ft, fp := parseRust(task), parseRust(patched)
	if isTestCfg(ft.fileCfg) {
		// #![cfg(test)]: the whole file is test code.
		if string(task) == string(patched) {
			return patched, nil, ""
		}
		return task, []string{"the whole file (#![cfg(test)])"}, ""
	}
	want := map[string]testItem{}
	for _, it := range ft.testItems() {
		want[it.key] = it
	}
	var edits []edit
	var changed []string
	matched := map[string]bool{}
	for _, it := range fp.testItems() {
		w, ok := want[it.key]
		if !ok {
			edits = append(edits, edit{Start: it.start, End: it.end})
			changed = append(changed, describe(it)+" (added by the patch, removed)")
			continue
		}
		matched[it.key] = true
		if text := string(task[w.start:w.end]); text != string(patched[it.start:it.end]) {
			edits = append(edits, edit{Start: it.start, End: it.end, Text: text})
			changed = append(changed, describe(it))
		}
	}
	var missing []testItem
	for _, it := range ft.testItems() {
		if !matched[it.key] {
			missing = append(missing, it)
		}
	}
	if len(missing) > 0 {
		// Items put back at one place go in one edit, in the task's order,
		// so the result never depends on how edits sort.
		closes := fp.containerCloses()
		inserts := map[int]*strings.Builder{}
		for _, it := range missing {
			at, ok := closes[it.container]
			if !ok {
				return nil, nil, fmt.Sprintf("test item %q cannot be put back: the patch removed its module %q", it.head, it.container)
			}
			if inserts[at] == nil {
				inserts[at] = &strings.Builder{}
			}
			inserts[at].WriteString("\n" + string(task[it.start:it.end]) + "\n")
			changed = append(changed, describe(it)+" (removed by the patch, put back)")
		}
		for at, text := range inserts {
			edits = append(edits, edit{Start: at, End: at, Text: text.String()})
		}
	}
	if len(edits) == 0 {
		return patched, nil, ""
	}
	out, err := applyEdits(patched, edits)
	if err != nil {
		return nil, nil, "its test code cannot be put back: " + err.Error()
	}
	sort.Strings(changed)
	return out, changed, ""
}

// describe names an item for the report: "mod tests", "mod a / fn t".
func describe(it testItem) string {
	if it.container == "" {
		return it.head
	}
	return it.container + " / " + it.head
}

// TestModules is lang.TestCode.Modules for Rust: the files of the
// `#[cfg(test)] mod name;` declarations of the file at p. A declaration in
// a crate or module root (lib.rs, main.rs, mod.rs) names a file beside it;
// one in src/a.rs names a file under src/a/. A #[path] attribute is not
// followed (the module is then not found here, and its file is restored
// only if it is a test file by name).
func TestModules(p string, src []byte) []string {
	f := parseRust(src)
	if isTestCfg(f.fileCfg) {
		return nil
	}
	dir := path.Dir(p)
	switch base := path.Base(p); base {
	case "lib.rs", "main.rs", "mod.rs":
	default:
		dir = path.Join(dir, strings.TrimSuffix(base, ".rs"))
	}
	var files []string
	for _, it := range f.testItems() {
		if it.moduleFile == "" || it.container != "" {
			continue // a nested `mod x;` lives under its module's directory: rare, not followed
		}
		name := strings.TrimPrefix(it.moduleFile, "r#")
		files = append(files, path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs"))
	}
	return files
}
