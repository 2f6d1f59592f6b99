// Package taskpkg packages a migration task (DESIGN §2.6 and §7): the task
// record that becomes one line of tasks.jsonl, and the two trees an agent
// and an evaluator need — the masked repository as a fresh git repository
// with a single root commit, and the gold patch that restores the original.
//
// The API:
//
//	schemas.Task                          one tasks.jsonl line (schemas/task.schema.json)
//	InstanceID(repo, src, tgt)    "<repo>__<src>-to-<tgt>"
//	GroupInstanceID(…, group)     "<repo>__<src>-to-<tgt>__group<i>of<n>" for a split direction
//	Difficulty(regions, patch)    easy | medium | hard, from region lines, files and patch hunks
//	Categories(regions)           the distinct labels, false positives left out
//	Instruction(repo, src, tgt, language)
//	                              the problem statement shown to the agent
//	WriteRepo(dir, srcDir)        srcDir's files as a one-commit git repo in dir
//	GoldPatch(masked, original)   unified diff turning masked into original
//
// WriteRepo and GoldPatch run the git command with the user's and the
// system's git configuration shut out and store files byte for byte (no
// line-ending or filter conversion), so the same trees always give the same
// commit hash and the same patch, on every machine.
package taskpkg

import (
	"slices"
	"strings"

	"github.com/osbench/osbench/schemas"
)

// InstanceID names a task: the repository and the direction of migration,
// "<repository>__<source>-to-<target>".
func InstanceID(repository, source, target string) string {
	return repository + "__" + source + "-to-" + target
}

// GroupInstanceID names the task of one group of a split direction,
// "<repository>__<source>-to-<target>__group<i>of<n>"; with no group it is
// InstanceID, so a direction that is not split keeps its name.
func GroupInstanceID(repository, source, target string, group *schemas.TaskGroup) string {
	id := InstanceID(repository, source, target)
	if group != nil {
		id += "__" + group.Name()
	}
	return id
}

// The difficulty levels of DESIGN §2.6.
const (
	DifficultyEasy   = "easy"
	DifficultyMedium = "medium"
	DifficultyHard   = "hard"
)

// Difficulty grades a task by the size of its masked regions and by how
// many places its gold patch changes: hard when the regions span more than
// 100 lines or more than 5 files, or the patch has more than 10 hunks;
// medium when more than 30 lines, 2 files or 3 hunks; easy otherwise. A
// region spans End-Start+1 lines; false positives are not masked and do not
// count. Hunks stand for the functions an agent must restore: a few lines
// in each of eight functions is not an easy task.
func Difficulty(regions []schemas.VerifiedRegion, goldPatch string) string {
	lines := 0
	files := map[string]bool{}
	for _, r := range regions {
		if r.Label == schemas.LabelFalsePositive {
			continue
		}
		if r.End >= r.Start {
			lines += r.End - r.Start + 1
		}
		files[r.File] = true
	}
	hunks := patchHunks(goldPatch)
	switch {
	case lines > 100 || len(files) > 5 || hunks > 10:
		return DifficultyHard
	case lines > 30 || len(files) > 2 || hunks > 3:
		return DifficultyMedium
	}
	return DifficultyEasy
}

// patchHunks counts the hunks of a unified diff.
func patchHunks(patch string) int {
	n := 0
	for _, line := range strings.Split(patch, "\n") {
		if strings.HasPrefix(line, "@@ ") {
			n++
		}
	}
	return n
}

// Categories lists the distinct labels of the regions, sorted, without
// false-positive. The result is never nil.
func Categories(regions []schemas.VerifiedRegion) []string {
	categories := []string{}
	for _, r := range regions {
		if r.Label != schemas.LabelFalsePositive && !slices.Contains(categories, r.Label) {
			categories = append(categories, r.Label)
		}
	}
	slices.Sort(categories)
	return categories
}
