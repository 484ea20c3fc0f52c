// Package a2a is TaskPack 0.1 §5, the A2A binding, as data: a pack as an
// A2A 0.3 Task and back, and the Agent Card's extension entry, in the A2A
// project's own Go types (github.com/a2aproject/a2a-go), so the JSON is what
// A2A clients parse. D23 records the mapping and its readings.
//
// | A2A            | the pack                                                |
// | Task.id        | lineage.root_id                                         |
// | Task.contextId | lineage.chain (ContextID: one reversible string)        |
// | artifacts      | the pack file itself, data/files/*, passport.artifacts  |
// | history        | nothing: transcripts do not travel                      |
// | metadata[URI]  | kind, asks with accept, landing checks, facts and seals |
//
// The package reads what it is given and writes nothing but the one file
// Import is asked for; the server that takes packs in over A2A is package
// a2a/server.
package a2a

import (
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/a2aproject/a2a-go/a2a"

	"github.com/tp-dev/tp/pack"
)

// ExtensionURI names the TaskPack extension (TaskPack 0.1 §5): declared in
// an Agent Card, negotiated with the A2A-Extensions header, and the key of
// the extension's data in every metadata map.
const ExtensionURI = "https://taskpack.org/a2a/ext/taskpack/v1"

// Media types of the two encodings (TaskPack 0.1 §2).
const (
	MediaBag  = "application/vnd.taskpack+zip"
	MediaFlat = "application/vnd.taskpack+json"
)

// PackArtifactID is the artifact that carries the pack file itself.
const PackArtifactID sdk.ArtifactID = "taskpack"

// Roles of the artifacts an exported Task carries, under
// metadata[ExtensionURI].role.
const (
	RolePack             = "taskpack"
	RoleLuggage          = "luggage"
	RolePassportArtifact = "passport-artifact"
	RoleReceipt          = "receipt"
)

// MediaType is the media type of a pack's encoding.
func MediaType(enc pack.Encoding) string {
	if enc == pack.EncodingBag {
		return MediaBag
	}
	return MediaFlat
}

// Extension is the AgentExtension entry for an Agent Card: what tp takes
// and gives (tp a2a card prints it). maxPackBytes is the largest pack a
// message may carry inline (0: DefaultMaxPackBytes).
func Extension(maxPackBytes int64) sdk.AgentExtension {
	if maxPackBytes <= 0 {
		maxPackBytes = DefaultMaxPackBytes
	}
	return sdk.AgentExtension{
		URI: ExtensionURI,
		Description: "TaskPack 0.1 (§5): hand work to a person as a pack. Send a message with one FilePart " +
			"holding a .taskpack or .taskpack.json; it is kept for the person to land, never landed or run on arrival. " +
			"The Task stays input-required until the person packs the receipt, which becomes its artifact.",
		Required: false,
		Params: map[string]any{
			"taskpack":                    "0.1",
			"spec":                        "task-passport-bag/0.1",
			"kinds":                       []any{"handoff", "receipt"},
			"encodings":                   []any{string(pack.EncodingBag), string(pack.EncodingFlat)},
			"media_types":                 []any{MediaBag, MediaFlat},
			"file_extensions":             []any{".taskpack", ".taskpack.json"},
			"max_inline_attachment_bytes": pack.MaxInlineBytes,
			"max_pack_bytes":              maxPackBytes,
			"accepts_exported_task":       true,
			"messages_are_instructions":   false,
		},
	}
}

// DefaultMaxPackBytes is the largest pack a message may carry (D23): A2A
// carries a file part inline, base64, in one JSON-RPC request.
const DefaultMaxPackBytes int64 = 64 << 20

// ContextID is the string form of lineage.chain (D23): the entries joined
// by ",", with "%" and "," inside an entry escaped as %25 and %2C. A chain
// of one entry is that entry. An empty chain has no form ("").
func ContextID(chain []string) string {
	parts := make([]string, len(chain))
	for i, e := range chain {
		parts[i] = strings.NewReplacer("%", "%25", ",", "%2C").Replace(e)
	}
	return strings.Join(parts, ",")
}

// ParseContextID reads ContextID's form back into a chain.
func ParseContextID(s string) ([]string, error) {
	if s == "" {
		return []string{}, nil
	}
	parts := strings.Split(s, ",")
	out := make([]string, len(parts))
	for i, p := range parts {
		e, err := url.PathUnescape(p)
		if err != nil {
			return nil, fmt.Errorf("contextId entry %d: %w", i+1, err)
		}
		out[i] = e
	}
	return out, nil
}
