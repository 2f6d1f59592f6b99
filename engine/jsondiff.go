package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// jsonChanges finds up to max leaf paths where two JSON documents differ, so
// explain can say `argv[5]: "-timeout=5m" → "-timeout=6m"` instead of
// printing two whole command lines. ok is false when either side is not
// JSON (for example an output digest).
func jsonChanges(oldJSON, newJSON string, max int) (changes []Change, ok bool) {
	var a, b any
	if !decodeJSON(oldJSON, &a) || !decodeJSON(newJSON, &b) {
		return nil, false
	}
	walkDiff("", a, b, &changes, max)
	return changes, true
}

func decodeJSON(s string, v *any) bool {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	return dec.Decode(v) == nil
}

func walkDiff(path string, a, b any, out *[]Change, max int) {
	if len(*out) >= max {
		return
	}
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range av {
				keys[k] = true
			}
			for k := range bv {
				keys[k] = true
			}
			sorted := make([]string, 0, len(keys))
			for k := range keys {
				sorted = append(sorted, k)
			}
			sort.Strings(sorted)
			for _, k := range sorted {
				walkDiff(joinPath(path, k), av[k], bv[k], out, max)
			}
			return
		}
	case []any:
		if bv, ok := b.([]any); ok && len(av) == len(bv) {
			for i := range av {
				walkDiff(path+"["+strconv.Itoa(i)+"]", av[i], bv[i], out, max)
			}
			return
		}
	}
	as, bs := render(a), render(b)
	if as != bs {
		*out = append(*out, Change{Component: path, Old: as, New: bs})
	}
}

func joinPath(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

func render(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
