package landing

import (
	"path/filepath"

	"github.com/tp-dev/tp/internal/packtest"
)

// file is one ZIP entry (or one piece of luggage): name and bytes.
type file = packtest.File

// refData is the reference implementation's fixtures, kept beside the
// format package.
var refData = filepath.Join("..", "pack", "testdata", "ref")
