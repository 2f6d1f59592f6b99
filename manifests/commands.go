package manifests

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// commandInputs are the final values behind the variables that only build
// and test commands see. They exist so a preset can write a command once and
// still follow each repository's timeout, coverage file and skip list.
type commandInputs struct {
	Repository   string
	Platform     string
	Timeout      string    // as written, e.g. "10m"; "" when none
	CoverageFile string    // "" when the platform collects no coverage
	ReportFile   string    // the test block's report; "" when the parser reads the output
	SkipArgs     []string  // the runner's flags for the skip list
	Params       cty.Value // the object param (params.go); an empty object when none
	// Unknown marks inputs that could not be computed because of an error
	// already reported; commands then evaluate to unknown and stay quiet.
	Unknown bool
}

func commandVariables(in commandInputs) map[string]cty.Value {
	if in.Unknown {
		return unknownCommandVariables()
	}
	args := make([]cty.Value, len(in.SkipArgs))
	for i, a := range in.SkipArgs {
		args[i] = cty.StringVal(a)
	}
	params := in.Params
	if params == cty.NilVal {
		params = cty.EmptyObjectVal
	}
	skipArgs := cty.ListValEmpty(cty.String)
	if len(args) > 0 {
		skipArgs = cty.ListVal(args)
	}
	return map[string]cty.Value{
		"repository":    cty.StringVal(in.Repository),
		"platform":      cty.StringVal(in.Platform),
		"timeout":       cty.StringVal(in.Timeout),
		"coverage_file": cty.StringVal(in.CoverageFile),
		"report_file":   cty.StringVal(in.ReportFile),
		"skip_args":     skipArgs,
		"param":         params,
	}
}

// unknownCommandVariables stand in for the late variables while a command is
// checked before merging, and when their real values are unusable.
func unknownCommandVariables() map[string]cty.Value {
	return map[string]cty.Value{
		"repository":    cty.UnknownVal(cty.String),
		"platform":      cty.UnknownVal(cty.String),
		"timeout":       cty.UnknownVal(cty.String),
		"coverage_file": cty.UnknownVal(cty.String),
		"report_file":   cty.UnknownVal(cty.String),
		"skip_args":     cty.UnknownVal(cty.List(cty.String)),
		"param":         cty.DynamicVal,
	}
}

// checkCommandType checks a command's value as far as it is known: its type
// always, its content only when every part is known.
func checkCommandType(value cty.Value) *valueError {
	if value.IsWhollyKnown() && !value.IsNull() {
		_, _, problem := commandWords(value)
		return problem
	}
	ty := value.Type()
	switch {
	case ty == cty.DynamicPseudoType || ty == cty.String:
		return nil
	case ty.IsListType():
		if et := ty.ElementType(); et == cty.String || et == cty.DynamicPseudoType {
			return nil
		}
	case ty.IsTupleType():
		for i, et := range ty.TupleElementTypes() {
			if et != cty.String && et != cty.DynamicPseudoType {
				return &valueError{
					Detail: fmt.Sprintf("command must be a list of strings; element %d is %s.", i+1, typeName(cty.UnknownVal(et))),
					Path:   indexPath(i),
				}
			}
		}
		return nil
	}
	return invalidValue("command must be a list of strings, or one string with shell set; not %s.", typeName(cty.UnknownVal(ty)))
}

// commandWords converts a known command value: a list of strings is an argv,
// a single string is a script.
func commandWords(value cty.Value) (words []string, script bool, problem *valueError) {
	value, _ = value.UnmarkDeep()
	switch {
	case value.IsNull():
		return nil, false, invalidValue("command must not be null.")
	case value.Type() == cty.String:
		if strings.TrimSpace(value.AsString()) == "" {
			return nil, true, invalidValue("command must not be empty.")
		}
		return []string{value.AsString()}, true, nil
	}
	argv, problem := asStringList("command", value)
	if problem != nil {
		if !value.Type().IsListType() && !value.Type().IsTupleType() {
			problem.Detail = fmt.Sprintf("command must be a list of strings, or one string with shell set; not %s.", typeName(value))
		}
		return nil, false, problem
	}
	switch {
	case len(argv) == 0:
		return nil, false, invalidValue("command must not be empty.")
	case argv[0] == "":
		return nil, false, &valueError{Detail: "the program name, command's first element, must not be empty.", Path: indexPath(0)}
	}
	return argv, false, nil
}

// evalCommand evaluates a merged command with the final late variables and
// checks it against the final shell. ok is false when the command is
// unusable (and any error is in diags).
func evalCommand(c *lateCommand, in commandInputs, shell *setting[string]) (argv []string, ok bool, diags hcl.Diagnostics) {
	if c.Broken {
		return nil, false, nil
	}
	value, diags := c.Expr.Value(c.scope.commandContext(commandVariables(in)))
	if diags.HasErrors() || !value.IsWhollyKnown() {
		return nil, false, diags
	}
	words, script, problem := commandWords(value)
	if problem != nil {
		return nil, false, append(diags, errorAt(rangeOfPath(c.Expr, problem.Path), "Invalid command", problem.Detail))
	}
	if shell != nil && shell.Broken {
		return nil, false, diags
	}
	switch {
	case script && (shell == nil || shell.Value == ""):
		return nil, false, append(diags, errorAt(c.Expr.Range(), "Command needs a shell", fmt.Sprintf(
			"A command written as one string is a script: set shell to one of %s, or write the command as a list of arguments.",
			quotedList(shellNames))))
	case !script && shell != nil && shell.Value != "":
		return nil, false, append(diags, errorAt(c.Expr.Range(), "Invalid command", fmt.Sprintf(
			"With shell = %q (set at %s), command must be one script string, not a list.", shell.Value, position(shell.Range))))
	}
	return words, true, diags
}
