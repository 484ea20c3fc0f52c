package scan

import "testing"

func TestIsTranscript(t *testing.T) {
	yes := []string{
		"User: can you fix the build?\nAssistant: Sure, run make.",
		"\n\nHuman: hello\n\nAssistant: hi there",
		"**User:** fix it\n**Assistant:** done",
		"**User**: fix it\n\n**ChatGPT**: done",
		"用户：帮我看看这个报错\n助手：好的，请贴出日志",
		"用户: 你好\n助手: 您好",
		"You said:\nwhat is the port?\nChatGPT said:\n8080",
		"## User\nwhat now?\n## Assistant\nrun the tests",
		"> User: a\n> AI: b",
		"[10:31] User: start\n[10:32] Claude: ok",
		"user: a\r\nassistant: b",
		"Human: x\nGPT-4: y",
		"System: you are helpful\nUser: hi\nAssistant: hello",
		"- User: first\n- Assistant: second",
		"ユーザー：こんにちは\nアシスタント：はい",
		"notes first\n\nUSER: q\nASSISTANT: a\nmore notes",
		"1. User: q\n2. Assistant: a",
	}
	no := []string{
		"User: Maria",
		"User: maria\nUser: bob",
		"System: Ubuntu 22.04\nUser: root",
		"Username: x\nAssistant manager: y",
		"The user: said hi; the assistant: replied",
		"Users: 5\nAIs: 3",
		"Assistant: on leave until May",
		"user_id: 7\nassistant_id: 8",
		"",
		"the human and the AI talked",
		"Customer: ACME\nAgent: tp",
	}
	for _, s := range yes {
		if !IsTranscript(s) {
			t.Errorf("IsTranscript(%q) = false, want true", s)
		}
	}
	for _, s := range no {
		if IsTranscript(s) {
			t.Errorf("IsTranscript(%q) = true, want false", s)
		}
	}
}
