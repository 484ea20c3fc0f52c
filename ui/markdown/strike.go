package markdown

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Strikethrough (~~text~~ or ~text~, as GitHub reads it) is an inline
// parser of its own over goldmark's delimiter machinery, for the reason
// table.go gives: goldmark's extension package would be initialised by
// every tp command.

// kindStrike is the node kind of struck-through text.
var kindStrike = ast.NewNodeKind("Strike")

type strikeNode struct {
	ast.BaseInline
	tildes int // as written: ~ or ~~
}

func (n *strikeNode) Kind() ast.NodeKind { return kindStrike }

func (n *strikeNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// strikeDelims says which delimiter runs open and close struck text: runs
// of the same length, one or two tildes.
type strikeDelims struct{}

func (strikeDelims) IsDelimiter(b byte) bool { return b == '~' }

func (strikeDelims) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char && opener.OriginalLength == closer.OriginalLength
}

func (strikeDelims) OnMatch(consumes int) ast.Node { return &strikeNode{tildes: consumes} }

type strikeParser struct{}

func (strikeParser) Trigger() []byte { return []byte{'~'} }

func (strikeParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	before := block.PrecendingCharacter()
	line, seg := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, strikeDelims{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = seg.WithStop(seg.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}
