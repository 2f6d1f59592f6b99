package manifests

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestZZDebug(t *testing.T) {
	set, diags := Load([]string{"testdata/valid"}, testOptions())
	fmt.Println(diags)
	for _, r := range set.Repositories {
		ranges := r.Ranges
		r.Ranges = nil
		b, _ := json.MarshalIndent(r, "", " ")
		fmt.Println(string(b))
		for _, k := range sortedKeys(ranges) {
			fmt.Println("  ", k, position(ranges[k]))
		}
	}
}
