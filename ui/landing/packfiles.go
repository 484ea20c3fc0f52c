package landing

import (
	"path"
	"strings"

	"github.com/tp-dev/tp/ui/common"
)

// runners are commands that read a file of the folder they run in without
// naming it: a sender's `make` runs the pack's Makefile.
var runners = map[string][]string{
	"make":    {"Makefile", "makefile", "GNUmakefile"},
	"npm":     {"package.json"},
	"npx":     {"package.json"},
	"yarn":    {"package.json"},
	"pnpm":    {"package.json"},
	"bun":     {"package.json"},
	"pytest":  {"conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"},
	"tox":     {"tox.ini", "pyproject.toml"},
	"nox":     {"noxfile.py"},
	"pip":     {"setup.py", "pyproject.toml", "requirements.txt"},
	"cargo":   {"Cargo.toml", "build.rs"},
	"go":      {"go.mod"},
	"rake":    {"Rakefile"},
	"just":    {"justfile", "Justfile"},
	"gradle":  {"build.gradle", "build.gradle.kts"},
	"mvn":     {"pom.xml"},
	"cmake":   {"CMakeLists.txt"},
	"docker":  {"Dockerfile", "docker-compose.yml", "compose.yaml"},
	"direnv":  {".envrc"},
	"bundle":  {"Gemfile"},
	"deno":    {"deno.json"},
	"poetry":  {"pyproject.toml"},
	"uv":      {"pyproject.toml"},
	"bazel":   {"BUILD", "BUILD.bazel", "WORKSPACE"},
	"ninja":   {"build.ninja"},
	"meson":   {"meson.build"},
	"gradlew": {"build.gradle", "build.gradle.kts"},
}

// packFilesRun names the pack's own files a command would run or have a
// tool read when it runs in the folder the luggage is unpacked to: files
// the command names (verify.sh, ./scripts/check.py) and the files a tool
// it starts reads there unnamed (make: the Makefile). Their content is the
// sender's as much as the command is, and the confirmation shows only the
// command (D12). A sender can hide a name (`sh $(echo dmVyaWZ5|base64 -d)`),
// but not without a command that reads oddly on screen.
func packFilesRun(command string, luggage []common.LuggageFile) []string {
	words := shellWords(command)
	have := map[string]bool{}
	for _, f := range luggage {
		have[f.Name] = true
	}
	var out []string
	seen := map[string]bool{}
	add := func(name, why string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name+why)
		}
	}
	for _, w := range words {
		name := path.Clean(strings.TrimPrefix(w, "./"))
		if have[name] {
			add(name, "")
		}
		for _, f := range runners[path.Base(w)] {
			if have[f] {
				add(f, " (read by "+path.Base(w)+")")
			}
		}
	}
	return out
}

// shellWords splits a command into words at blanks, quotes and the shell's
// operators: enough to find the names a command mentions, not a parser.
func shellWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\'', '"', ';', '&', '|', '(', ')', '<', '>', '`', '=', '$', '{', '}':
			return true
		}
		return false
	})
}
