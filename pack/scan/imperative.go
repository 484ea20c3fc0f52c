package scan

import (
	"strings"
	"unicode/utf8"
)

// Imperatives (issue 18, D13; TaskPack 0.1 §4.5.2: "imperative sentences
// found inside are reported to the human"). A sentence led by a verb that
// directs the reader at the system, money or secrets — execute, delete,
// install, download, disable, ignore, override, transfer, wire, pay, paste,
// upload, "run" with something runnable after it, "send … to" — in English,
// and 运行, 执行, 删除, 安装, 下载, 禁用, 忽略, 覆盖, 转账, 汇款, 支付, 粘贴,
// 上传, 卸载, "发送…给/到" in Chinese, optionally after "please"/"now"/请/立即.
// Ordinary work verbs (draft, fill, review, send the numbers) are not: a next
// step or an ask is imperative by nature, and flagging them all would bury
// the real findings.
//
// The scan is linear: it visits each sentence start once and looks at most
// imperativeWindow bytes from it.

const imperativeWindow = 200

// imperativeEN are the verbs, as lower-case prefixes of the word that must
// follow a sentence start; a verb is a whole word (followed by a non-letter).
var imperativeEN = []string{
	"execute", "exec", "delete", "erase", "wipe", "install", "uninstall", "download", "disable",
	"ignore", "disregard", "override", "overwrite", "transfer", "wire", "pay", "paste", "upload",
	"exfiltrate", "chmod", "sudo", "rm", "format",
}

// runObjects are what "run" must be followed by to count: something
// runnable, not "run the numbers".
var runObjects = []string{"`", "$(", "sudo ", "curl ", "wget ", "rm ", "bash ", "sh ", "python", "node ", "powershell",
	"the attached", "the following", "the below", "the included", "the script", "this command", "this script",
	"these commands", "this code", "~/", "/", "./", "cat ", "chmod "}

var imperativeLeadEN = []string{"please ", "now ", "then ", "just ", "immediately ", "first, ", "first ", "next, ", "also "}

var imperativeZH = []string{"运行", "执行", "删除", "安装", "下载", "禁用", "忽略", "覆盖", "转账", "汇款", "支付", "付款", "粘贴", "上传", "卸载", "格式化"}

var imperativeLeadZH = []string{"请你", "请", "立即", "马上", "立刻", "现在", "先"}

type imperativeMatch struct {
	at, end int
	rule    string
}

// imperatives returns the imperative sentences of s: the offset of the verb
// and the end of what was matched.
func imperatives(s string, max int) []imperativeMatch {
	var out []imperativeMatch
	check := func(p int) {
		if m, ok := imperativeAt(s, p); ok {
			out = append(out, m)
		}
	}
	check(0)
	for i := 0; i < len(s) && len(out) < max; i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\r':
			check(i + 1)
		case (c == '.' || c == '!' || c == '?' || c == ';') && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t'):
			check(i + 2)
		case c >= 0xE0:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == '。' || r == '！' || r == '？' || r == '；' {
				check(i + n)
			}
			i += n - 1
		}
	}
	return out
}

// imperativeAt judges the sentence starting at p.
func imperativeAt(s string, p int) (imperativeMatch, bool) {
	end := min(len(s), p+imperativeWindow)
	// Blank space, list bullets, numbering, quotes and emphasis.
	for p < end {
		c := s[p]
		if c == ' ' || c == '\t' || c == '-' || c == '*' || c == '>' || c == '#' || c == '"' || c == '\'' || c == '_' || c == '(' || c >= '0' && c <= '9' || (c == '.' || c == ')') && p > 0 && s[p-1] >= '0' && s[p-1] <= '9' {
			p++
			continue
		}
		if strings.HasPrefix(s[p:], "•") {
			p += len("•")
			continue
		}
		break
	}
	if p >= end {
		return imperativeMatch{}, false
	}
	if s[p] < utf8.RuneSelf {
		low := s[p:end] // compared case-insensitively, never copied
		for again := true; again; {
			again = false
			for _, l := range imperativeLeadEN {
				if firstFold(low, l) && hasPrefixFold(low, l) {
					low, p, again = low[len(l):], p+len(l), true
					for len(low) > 0 && low[0] == ' ' {
						low, p = low[1:], p+1
					}
				}
			}
		}
		for _, v := range imperativeEN {
			if firstFold(low, v) && hasPrefixFold(low, v) && len(low) > len(v) && (low[len(v)] == ' ' || low[len(v)] == '\t') && !nounUseEN(asciiLower(wordAt(low[len(v)+1:]))) {
				return imperativeMatch{p, p + len(v), "imperative"}, true
			}
		}
		if hasPrefixFold(low, "run ") {
			rest := low[4:]
			for _, o := range runObjects {
				if hasPrefixFold(rest, o) {
					return imperativeMatch{p, p + 4 + len(o), "imperative"}, true
				}
			}
		}
		if hasPrefixFold(low, "send ") {
			rest := asciiLower(low[5:])
			stop := len(rest)
			for k := 0; k < len(rest); k++ {
				c := rest[k]
				if c == '\n' || c == '\r' || c == ';' || (c == '.' || c == '!' || c == '?') && (k+1 == len(rest) || rest[k+1] == ' ') {
					stop = k
					break
				}
			}
			if k := strings.Index(rest[:stop], " to "); k > 0 {
				return imperativeMatch{p, p + 5 + k + 4, "imperative"}, true
			}
		}
		return imperativeMatch{}, false
	}
	t := s[p:end]
	for again := true; again; {
		again = false
		for _, l := range imperativeLeadZH {
			if strings.HasPrefix(t, l) {
				t, p, again = t[len(l):], p+len(l), true
			}
		}
	}
	for _, v := range imperativeZH {
		if strings.HasPrefix(t, v) && !nounUseZH(t[len(v):]) {
			return imperativeMatch{p, p + len(v), "zh-imperative"}, true
		}
	}
	if strings.HasPrefix(t, "发送") {
		rest := t[len("发送"):]
		if stop := strings.IndexAny(rest, "。！？；\n"); stop >= 0 {
			rest = rest[:stop]
		}
		if k := strings.IndexAny(rest, "给到"); k > 0 {
			return imperativeMatch{p, p + len("发送") + k + len("给"), "zh-imperative"}, true
		}
	}
	return imperativeMatch{}, false
}

// isNounFollowerEN: the words after which a leading verb is a noun or an
// adjective ("Execute permission is missing", "Delete key", "Install
// size"), not an order.
func isNounFollowerEN(s string) bool {
	// A switch, not a map: nothing to build at start-up (issue 20).
	switch s {
	case "permission", "permissions", "bit", "bits", "time", "times", "access", "rights", "is", "are", "was",
		"were", "of", "button", "key", "log", "logs", "history", "date", "status", "result", "results", "speed",
		"size", "limit", "fee", "fees", "rate", "plan", "method", "step", "steps", "guide", "instructions", "link",
		"page", "failed", "succeeded", "completed", "location", "path", "folder", "directory":
		return true
	}
	return false
}

func nounUseEN(word string) bool { return isNounFollowerEN(word) }

// nounFollowersZH play the same part in Chinese ("执行结果见附件": the
// result of running, "下载链接": a download link).
var nounFollowersZH = []string{"结果", "情况", "时间", "过程", "记录", "日志", "权限", "状态", "速度", "方式", "方法",
	"计划", "失败", "成功", "完成", "包", "链接", "地址", "文件夹", "目录", "中", "后", "前", "了", "的", "环境", "步骤", "说明", "费", "金额"}

func nounUseZH(rest string) bool {
	for _, f := range nounFollowersZH {
		if strings.HasPrefix(rest, f) {
			return true
		}
	}
	return false
}

// firstFold is hasPrefixFold's first byte alone, for an ASCII s and a
// lower-case ASCII prefix: one compare that rules out most of the verbs at
// each sentence start before strings.EqualFold looks (issue 20: it was most
// of scanning text luggage). c|0x20 is a lower-case letter only for that
// letter in either case.
func firstFold(s, prefix string) bool {
	return len(s) > 0 && s[0]|0x20 == prefix[0]
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// wordAt is the word s starts with.
func wordAt(s string) string {
	if i := strings.IndexAny(s, " \t.,;:!?)\n"); i >= 0 {
		return s[:i]
	}
	return s
}
