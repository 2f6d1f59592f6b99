package manifests

import (
	"fmt"
	"net"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// An agent block declares a command-line agent `osbench solve` runs on
// tasks (docs/agents.md): what to run, its environment, its budget and the
// network endpoints it may reach. It lives in the same files as
// repositories, so validate and fmt treat it alike; unlike a repository it
// has no preset and nothing late-bound: the whole declaration is known at
// load time and is the agent's part of the solve step's key.
//
//	agent "NAME" {
//	  command    = ["prog", "arg"]     # run in the task workspace
//	  env        = { K = "v" }         # in the key
//	  secret_env = ["API_KEY"]         # passed by name, not in the key
//	  files      = ["agent.sh"]        # copied in; their content is in the key
//	  budget {
//	    wall  = "2h"                   # killed after this
//	    steps = 100                    # model calls; over it the agent is ended
//	    cost  = 2.5                    # USD the agent reports; over it, ended
//	  }
//	  network {
//	    allow = ["llm.example:443"]    # the only endpoints it may reach
//	  }
//	}
type Agent struct {
	Name      string
	Command   []string
	Env       map[string]string
	SecretEnv []string
	// Wall is the wall-clock budget of one attempt; 0 is DefaultAgentWall.
	Wall time.Duration
	// Steps is the step budget (0: none declared): the agent is told
	// (OSBENCH_MAX_STEPS), and osbench ends it past that many model calls,
	// counted by its proxy where the calls are plain HTTP, or reported by
	// the agent (steps/agentsolve/budget.go).
	Steps int
	// Cost is the budget in US dollars (0: none declared), enforced on
	// what the agent reports spending: osbench cannot see prices.
	Cost float64
	// Allow lists host:port endpoints, sorted, each once.
	Allow []string
	// Files are the agent's own files (a script, a prompt), absolute paths
	// resolved against the declaring file's directory: their content
	// enters the key, so editing the agent reruns it, and the agent finds
	// them in $OSBENCH_AGENT_DIR under their base names.
	Files     []string
	DeclRange hcl.Range
}

// DefaultAgentWall is the wall budget of an agent that declares none.
const DefaultAgentWall = 2 * time.Hour

// maxAgentSteps bounds budget.steps; the paper's runs use 100.
const maxAgentSteps = 100_000

// maxAgentCost bounds budget.cost (USD): past it a number is more likely a
// typo (cents for dollars) than a budget.
const maxAgentCost = 100_000

var agentSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "command", Required: true}, {Name: "env"}, {Name: "secret_env"}, {Name: "files"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "budget"}, {Type: "network"}},
}

var agentBudgetSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "wall"}, {Name: "steps"}, {Name: "cost"}},
}

var agentNetworkSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "allow", Required: true}},
}

// decodeAgentBlock decodes and checks one agent block; ok is false when it
// had errors.
func decodeAgentBlock(block *hcl.Block, sc *scope) (*Agent, bool, hcl.Diagnostics) {
	a := &Agent{Name: block.Labels[0], DeclRange: block.DefRange, Wall: DefaultAgentWall}
	diags := checkBlockName("agent", block)
	content, d := block.Body.Content(agentSchema)
	diags = append(diags, d...)

	cmd, d := decodeAttr(content.Attributes["command"], sc.ctx, asAgentCommand)
	diags = append(diags, d...)
	if cmd != nil {
		a.Command = cmd.Value
	}
	diags = append(diags, envCallWarnings(content.Attributes["command"], sc)...)
	env, d := decodeAttr(content.Attributes["env"], sc.ctx, asStringMap)
	diags = append(diags, d...)
	diags = append(diags, envCallWarnings(content.Attributes["env"], sc)...)
	if env != nil {
		a.Env = env.Value
	}
	secret, d := decodeAttr(content.Attributes["secret_env"], sc.ctx, asSecretEnv)
	diags = append(diags, d...)
	if secret != nil {
		a.SecretEnv = secret.Value
		for _, n := range secret.Value {
			if _, both := a.Env[n]; both {
				diags = append(diags, errorAt(secret.Range, "Invalid secret_env", fmt.Sprintf(
					"%s is in secret_env and in env; a variable is either a secret or part of the key.", n)))
			}
		}
	}

	files, d := decodeAttr(content.Attributes["files"], sc.ctx, asAgentFiles)
	diags = append(diags, d...)
	if files != nil && !files.Broken {
		for _, f := range files.Value {
			a.Files = append(a.Files, filepath.Join(sc.dir, filepath.FromSlash(f)))
		}
	}

	budget, d := singleBlock(content.Blocks, "budget")
	diags = append(diags, d...)
	if budget != nil {
		bc, d := budget.Body.Content(agentBudgetSchema)
		diags = append(diags, d...)
		wall, d := decodeAttr(bc.Attributes["wall"], sc.ctx, asDuration)
		diags = append(diags, d...)
		if wall != nil && !wall.Broken {
			a.Wall = wall.Value.Value
		}
		steps, d := decodeAttr(bc.Attributes["steps"], sc.ctx, asAgentSteps)
		diags = append(diags, d...)
		if steps != nil && !steps.Broken {
			a.Steps = steps.Value
		}
		cost, d := decodeAttr(bc.Attributes["cost"], sc.ctx, asAgentCost)
		diags = append(diags, d...)
		if cost != nil && !cost.Broken {
			a.Cost = cost.Value
		}
	}
	network, d := singleBlock(content.Blocks, "network")
	diags = append(diags, d...)
	if network != nil {
		nc, d := network.Body.Content(agentNetworkSchema)
		diags = append(diags, d...)
		allow, d := decodeAttr(nc.Attributes["allow"], sc.ctx, asEndpoints)
		diags = append(diags, d...)
		if allow != nil && !allow.Broken {
			a.Allow = allow.Value
		}
	}
	return a, !diags.HasErrors(), diags
}

// asAgentCommand accepts a non-empty list of strings whose first is a
// program: an agent runs without a shell unless its command names one.
func asAgentCommand(name string, value cty.Value) ([]string, *valueError) {
	words, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	if len(words) == 0 || words[0] == "" {
		return nil, invalidValue("%s must name a program: a non-empty list whose first element is not empty.", name)
	}
	for i, w := range words {
		if strings.ContainsRune(w, 0) {
			return nil, &valueError{Detail: "a command word cannot hold a NUL byte.", Path: indexPath(i)}
		}
	}
	return words, nil
}

// asAgentFiles accepts relative slash-separated paths with distinct base
// names (they land side by side in the agent's directory).
func asAgentFiles(name string, value cty.Value) ([]string, *valueError) {
	list, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	seen := map[string]bool{}
	for i, f := range list {
		base := path.Base(f)
		switch {
		case f == "" || path.IsAbs(f) || filepath.IsAbs(f) || strings.ContainsRune(f, '\\') || base == "." || base == ".." || base == "/":
			return nil, &valueError{Detail: fmt.Sprintf("%q is not a file path relative to this file's directory.", f), Path: indexPath(i)}
		case seen[base]:
			return nil, &valueError{Detail: fmt.Sprintf("two files are named %s; the agent's directory holds them side by side.", base), Path: indexPath(i)}
		}
		seen[base] = true
	}
	return list, nil
}

func asAgentSteps(name string, value cty.Value) (int, *valueError) {
	n, problem := asWholeNumber(name, value)
	if problem == nil && (n < 1 || n > maxAgentSteps) {
		problem = invalidValue("%s must be between 1 and %d, not %d.", name, maxAgentSteps, n)
	}
	return n, problem
}

// asAgentCost accepts a positive number of US dollars.
func asAgentCost(name string, value cty.Value) (float64, *valueError) {
	if value.Type() != cty.Number {
		return 0, invalidValue("%s must be a number of US dollars, not %s.", name, typeName(value))
	}
	f, _ := value.AsBigFloat().Float64()
	if !(f > 0 && f <= maxAgentCost) {
		return 0, invalidValue("%s must be more than 0 and at most %d US dollars, not %s.", name, maxAgentCost, value.AsBigFloat().Text('g', -1))
	}
	return f, nil
}

// asEndpoints accepts host:port endpoints, the only form a CONNECT proxy
// can check: no scheme, no path, no wildcard, a port from 1 to 65535.
// They come back sorted and lower-cased, so the key does not depend on how
// the list was written.
func asEndpoints(name string, value cty.Value) ([]string, *valueError) {
	list, problem := asStringList(name, value)
	if problem != nil {
		return nil, problem
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(list))
	for i, e := range list {
		host, port, err := net.SplitHostPort(e)
		p, perr := strconv.Atoi(port)
		switch {
		case err != nil || host == "" || strings.ContainsAny(host, "/*@ ") || strings.Contains(e, "://"):
			return nil, &valueError{Detail: fmt.Sprintf("%q is not a host:port endpoint such as \"llm.example:443\".", e), Path: indexPath(i)}
		case perr != nil || p < 1 || p > 65535:
			return nil, &valueError{Detail: fmt.Sprintf("%q has no port from 1 to 65535.", e), Path: indexPath(i)}
		}
		e = strings.ToLower(net.JoinHostPort(host, strconv.Itoa(p)))
		if seen[e] {
			return nil, &valueError{Detail: fmt.Sprintf("%s is listed twice.", e), Path: indexPath(i)}
		}
		seen[e] = true
		out = append(out, e)
	}
	sort.Strings(out)
	return out, nil
}

// addAgent keeps the first agent of each name; a second is an error at its
// declaration.
func (l *loader) addAgent(a *Agent, ok bool) {
	if first, dup := l.agents[a.Name]; dup {
		l.diags = append(l.diags, errorAt(a.DeclRange, "Duplicate agent", fmt.Sprintf(
			"An agent named %q is already declared at %s; names must be unique across all manifests.",
			a.Name, position(first.DeclRange))))
		return
	}
	l.agents[a.Name] = a
	if ok {
		l.set.Agents = append(l.set.Agents, a)
	}
}
