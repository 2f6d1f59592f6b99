package manifests

// Merging lays a manifest's repository block over its preset: an attribute
// the manifest writes replaces the preset's, a block both write merges
// attribute by attribute, and a block only one of them writes is kept whole.
// Every setting keeps the range it was written at, so the merged result
// still says which file supplied each value.

// pick returns top when it is written and base otherwise.
func pick[T any](base, top *T) *T {
	if top != nil {
		return top
	}
	return base
}

func mergeSettings(base, top settings) settings {
	merged := settings{
		Language:  pick(base.Language, top.Language),
		Toolchain: pick(base.Toolchain, top.Toolchain),
		FlakyRuns: pick(base.FlakyRuns, top.FlakyRuns),
		Split:     pick(base.Split, top.Split),
		Verifier:  pick(base.Verifier, top.Verifier),
		Masker:    pick(base.Masker, top.Masker),
		LM:        pick(base.LM, top.LM),
		User:      pick(base.User, top.User),
		Env:       pick(base.Env, top.Env),
		SecretEnv: pick(base.SecretEnv, top.SecretEnv),
		Params:    layerParams(base.Params, top.Params),
	}
	topByName := make(map[string]*platformBlock, len(top.Platforms))
	for _, p := range top.Platforms {
		topByName[p.Name] = p
	}
	for _, p := range base.Platforms {
		merged.Platforms = append(merged.Platforms, mergePlatform(p, topByName[p.Name]))
		delete(topByName, p.Name)
	}
	for _, p := range top.Platforms {
		if _, onlyInTop := topByName[p.Name]; onlyInTop {
			merged.Platforms = append(merged.Platforms, p)
		}
	}
	return merged
}

func mergePlatform(base, top *platformBlock) *platformBlock {
	if base == nil || top == nil {
		return pick(base, top)
	}
	return &platformBlock{
		Name:      top.Name,
		Executor:  pick(base.Executor, top.Executor),
		Toolchain: pick(base.Toolchain, top.Toolchain),
		User:      pick(base.User, top.User),
		Env:       pick(base.Env, top.Env),
		SecretEnv: pick(base.SecretEnv, top.SecretEnv),
		Params:    layerParams(base.Params, top.Params),
		Build:     mergeBuild(base.Build, top.Build),
		Test:      mergeTest(base.Test, top.Test),
		Coverage:  mergeCoverage(base.Coverage, top.Coverage),
		DeclRange: top.DeclRange,
	}
}

// pickWith returns top when useTop, else base.
func pickWith[T any](useTop bool, base, top *T) *T {
	if useTop {
		return top
	}
	return base
}

// layerParams keeps every params layer: they are laid key by key when a
// platform's commands are evaluated (params.go), not replaced whole.
func layerParams(base, top []*paramLayer) []*paramLayer {
	return append(append([]*paramLayer(nil), base...), top...)
}

func mergeBuild(base, top *buildBlock) *buildBlock {
	if base == nil || top == nil {
		return pick(base, top)
	}
	return &buildBlock{
		Command:   pick(base.Command, top.Command),
		Shell:     pick(base.Shell, top.Shell),
		Dir:       pick(base.Dir, top.Dir),
		Timeout:   pick(base.Timeout, top.Timeout),
		DeclRange: top.DeclRange,
	}
}

func mergeTest(base, top *testBlock) *testBlock {
	if base == nil || top == nil {
		return pick(base, top)
	}
	return &testBlock{
		Command: pick(base.Command, top.Command),
		Compile: pick(base.Compile, top.Compile),
		Shell:   pick(base.Shell, top.Shell),
		Dir:     pick(base.Dir, top.Dir),
		Parser:  pick(base.Parser, top.Parser),
		// A late expression belongs to whichever setting won.
		ParserLate:    pickWith(top.Parser != nil, base.ParserLate, top.ParserLate),
		SkipStyleLate: pickWith(top.SkipStyle != nil, base.SkipStyleLate, top.SkipStyleLate),
		ReportLate:    pickWith(top.Report != nil, base.ReportLate, top.ReportLate),
		Timeout:       pick(base.Timeout, top.Timeout),
		EvalTimeout:   pick(base.EvalTimeout, top.EvalTimeout),
		Skip:          pick(base.Skip, top.Skip),
		SkipUnder:     pick(base.SkipUnder, top.SkipUnder),
		SkipStyle:     pick(base.SkipStyle, top.SkipStyle),
		Report:        pick(base.Report, top.Report),
		Regex:         mergeRegex(base.Regex, top.Regex),
		DeclRange:     top.DeclRange,
	}
}

func mergeRegex(base, top *regexBlock) *regexBlock {
	if base == nil || top == nil {
		return pick(base, top)
	}
	return &regexBlock{
		Pattern:   pick(base.Pattern, top.Pattern),
		Statuses:  pick(base.Statuses, top.Statuses),
		DeclRange: top.DeclRange,
	}
}

func mergeCoverage(base, top *coverageBlock) *coverageBlock {
	if base == nil || top == nil {
		return pick(base, top)
	}
	return &coverageBlock{
		Format:    pick(base.Format, top.Format),
		Path:      pick(base.Path, top.Path),
		DeclRange: top.DeclRange,
	}
}
