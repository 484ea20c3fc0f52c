//go:build !unix

package cputest

import "time"

func now() time.Duration { return 0 }
