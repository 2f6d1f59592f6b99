package main

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osbench/osbench/schemas"
)

// taskCmds are the testscript commands that read tasks.jsonl:
//
//	tasklist TASKS INSTANCE FIELD [VALUE...]  the task's list FIELD (FAIL_TO_PASS,
//	                                          PASS_TO_PASS, PASS_ON_SOURCE, group.feature_groups,
//	                                          group.files, regions.file) is exactly VALUEs, in any order
//	goldpatch TASKS INSTANCE FILE             write the task's gold patch to FILE
var taskCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"tasklist": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) < 3 {
			ts.Fatalf("usage: tasklist TASKS INSTANCE FIELD [VALUE...]")
		}
		task := readTask(ts, args[0], args[1])
		var got []string
		switch args[2] {
		case "FAIL_TO_PASS":
			got = task.FailToPass
		case "PASS_TO_PASS":
			got = task.PassToPass
		case "PASS_ON_SOURCE":
			got = task.PassOnSource
		case "group.feature_groups", "group.files":
			if task.Group == nil {
				ts.Fatalf("%s has no group", args[1])
			}
			got = task.Group.FeatureGroups
			if args[2] == "group.files" {
				got = task.Group.Files
			}
		case "regions.file":
			for _, r := range task.Regions {
				if !slices.Contains(got, r.File) {
					got = append(got, r.File)
				}
			}
		default:
			ts.Fatalf("tasklist: unknown field %s", args[2])
		}
		want := append([]string{}, args[3:]...)
		got = append([]string{}, got...)
		slices.Sort(want)
		slices.Sort(got)
		if reflect.DeepEqual(got, want) == neg {
			ts.Fatalf("%s %s = %v; want %s%v", args[1], args[2], got, map[bool]string{true: "not ", false: ""}[neg], want)
		}
	},
	"goldpatch": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 3 || neg {
			ts.Fatalf("usage: goldpatch TASKS INSTANCE FILE")
		}
		task := readTask(ts, args[0], args[1])
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(task.Patch), 0o644))
	},
}

// readTask finds one task of a tasks.jsonl.
func readTask(ts *testscript.TestScript, file, instance string) schemas.Task {
	f, err := os.Open(ts.MkAbs(file))
	ts.Check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var ids []string
	for sc.Scan() {
		var t schemas.Task
		ts.Check(json.Unmarshal(sc.Bytes(), &t))
		if t.InstanceID == instance {
			return t
		}
		ids = append(ids, t.InstanceID)
	}
	ts.Check(sc.Err())
	ts.Fatalf("%s has no task %s (it has %s)", file, instance, strings.Join(ids, ", "))
	return schemas.Task{}
}

func withTaskCmds(cmds map[string]func(ts *testscript.TestScript, neg bool, args []string)) map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	for name, fn := range taskCmds {
		cmds[name] = fn
	}
	return cmds
}
