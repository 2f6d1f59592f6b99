package manifests

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestAgentDecodes(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		src  string
		want Agent
	}{
		{
			name: "everything declared; endpoints sorted and lower-cased",
			src: `agent "mini" {
  command    = ["mini", "--yolo", "-t", "instruction"]
  env        = { MSWEA_MODEL = "gpt" }
  secret_env = ["OPENAI_API_KEY"]
  budget {
    wall  = "5h"
    steps = 100
    cost  = 2.5
  }
  network {
    allow = ["LLM.example:443", "127.0.0.1:8080"]
  }
}`,
			want: Agent{Name: "mini", Command: []string{"mini", "--yolo", "-t", "instruction"},
				Env: map[string]string{"MSWEA_MODEL": "gpt"}, SecretEnv: []string{"OPENAI_API_KEY"},
				Wall: 5 * time.Hour, Steps: 100, Cost: 2.5, Allow: []string{"127.0.0.1:8080", "llm.example:443"}},
		},
		{
			name: "a command alone: the default wall budget, no steps, no network",
			src:  `agent "sh" { command = ["sh", "agent.sh"] }`,
			want: Agent{Name: "sh", Command: []string{"sh", "agent.sh"}, Wall: DefaultAgentWall},
		},
		{
			name: "files resolved against the file's directory",
			src: `agent "sh" { 
  command = ["sh"]
  files = ["agent.sh", "prompts/p.txt"]
}`,
			want: Agent{Name: "sh", Command: []string{"sh"}, Wall: DefaultAgentWall,
				Files: []string{filepath.Join(wd, "agent.sh"), filepath.Join(wd, "prompts", "p.txt")}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, diags := LoadSource("agents.hcl", []byte(tc.src), testOptions())
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if len(set.Agents) != 1 {
				t.Fatalf("%d agents, want 1", len(set.Agents))
			}
			got := *set.Agents[0]
			got.DeclRange = tc.want.DeclRange
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("agent = %+v\nwant    %+v", got, tc.want)
			}
		})
	}
}

// An agent file beside repositories: both load, and a broken agent does not
// keep the repositories from loading.
func TestAgentsBesideRepositories(t *testing.T) {
	src := `agent "b" { command = ["b"] }
agent "a" { command = ["a"] }
agent "broken" { command = [] }
repository "r" {
  source { path = "repo" }
  migrate = ["linux->windows"]
  language = "go"
  platform "linux" {
    test {
      command = ["go", "test"]
      parser  = "go-test-json"
    }
  }
  platform "windows" {
    test {
      command = ["go", "test"]
      parser  = "go-test-json"
    }
  }
}`
	set, diags := LoadSource("mixed.hcl", []byte(src), testOptions())
	if len(diags.Errs()) != 1 {
		t.Errorf("diagnostics = %v, want the broken agent's one", diags)
	}
	if len(set.Agents) != 2 || set.Agents[0].Name != "a" || set.Agents[1].Name != "b" {
		t.Errorf("agents = %+v, want a, b", set.Agents)
	}
	if len(set.Repositories) != 1 {
		t.Errorf("repositories = %d, want 1", len(set.Repositories))
	}
}
