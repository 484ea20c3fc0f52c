package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The plugin manifests and the skill ship with tp (issue 16): each parses,
// the command .mcp.json names is tp's and starts its MCP server, the Codex
// interface has its members, and every tool the skill names exists.
func TestManifestsAndSkill(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..")
	var m struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	data, err := os.ReadFile(filepath.Join(root, ".mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf(".mcp.json: %v", err)
	}
	srv, ok := m.MCPServers["tp"]
	if !ok || srv.Command != "tp" || len(srv.Args) == 0 || srv.Args[0] != "mcp" {
		t.Fatalf(".mcp.json: want the server tp running `tp mcp`, got %+v", m.MCPServers)
	}
	// The command it names is tp's, and the subcommand exists.
	if out, err := exec.Command(tpBin, append(srv.Args, "--help")...).CombinedOutput(); err != nil || !strings.Contains(string(out), "Model Context Protocol") {
		t.Errorf("tp %s --help: %v\n%s", strings.Join(srv.Args, " "), err, out)
	}

	// agents/openai.yaml: an interface with the three members Codex reads.
	f, err := os.Open(filepath.Join(root, "skills", "tp", "agents", "openai.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	members := map[string]string{}
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			if line != "interface:" {
				t.Fatalf("openai.yaml starts %q, want interface:", line)
			}
			first = false
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || !strings.HasPrefix(line, "  ") || !strings.HasPrefix(v, `"`) || !strings.HasSuffix(v, `"`) {
			t.Fatalf("openai.yaml: %q is not an indented quoted member", line)
		}
		members[k] = strings.Trim(v, `"`)
	}
	for _, k := range []string{"display_name", "short_description", "default_prompt"} {
		if members[k] == "" {
			t.Errorf("openai.yaml: %s is missing", k)
		}
	}

	// SKILL.md: front matter with name and description (English and
	// Chinese triggers), and only tools that exist.
	skill, err := os.ReadFile(filepath.Join(root, "skills", "tp", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	front := regexp.MustCompile(`(?s)\A---\nname: (\S+)\ndescription: ([^\n]+)\n---\n`).FindSubmatch(skill)
	if front == nil || string(front[1]) != "tp" {
		t.Fatalf("SKILL.md: no front matter with name tp and a description")
	}
	if desc := string(front[2]); !strings.Contains(desc, "resume") || !strings.Contains(desc, "继续") {
		t.Errorf("SKILL.md: the description has no English and Chinese trigger phrases: %s", desc)
	}
	cs := newWorld(t, "m1").serve(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]bool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = true
	}
	for _, name := range regexp.MustCompile(`\b(?:task_passport|tp)_[a-z_]+\b`).FindAllString(string(skill), -1) {
		if !tools[name] {
			t.Errorf("SKILL.md names %s, which tp mcp does not offer", name)
		}
	}
}
