package backend

import "time"

// nowUTC is the clock for answered_at; tests replace it.
var nowUTC = func() time.Time { return time.Now().UTC() }
