import json, os
here = os.path.dirname(os.path.abspath(__file__))
profiles = {
    "en": {"heading": "## Tasks", "label_open": "[", "label_close": "]",
           "labels": {"principal": "owner", "agent": "agent", "undecided": "undecided"},
           "label_separator": " ", "placeholder": "- (none)", "marker_render": " (waiting on owner: {key})",
           "marker_pattern": "\\(waiting on owner:\\s*([^\\s()]+)\\s*\\)\\s*$"},
    "zh-hant": {"heading": "## 待辦", "label_open": "〔", "label_close": "〕",
                "labels": {"principal": "{principal_tag}", "agent": "agent", "undecided": "待定"},
                "label_separator": "", "placeholder": "- (無)", "marker_render": "(等 {principal_tag}:{key})",
                "marker_pattern": "[(（]等 ?{principal_tag}[:：]\\s*([^()（）]+?)\\s*[)）]\\s*$"},
}
keys = ["task-garden-5e0c1d2b3a", "b", "Q-1.2", "0", "a_b", "A.", "z-", "k-0123456789abcdef0123", "x" * 128, "1.2.3-rc_4", "task-my.project_2-0000000000"]
with open(os.path.join(here, "..", "conformance", "profiles.json"), "w", encoding="utf-8") as f:
    json.dump({"profiles": profiles, "sample_keys": keys}, f, ensure_ascii=False, indent=2)
    f.write("\n")
print("profiles.json")
