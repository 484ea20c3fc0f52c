// Loaded with `node --require` before the reference implementation
// (task-passport 0.3.0) runs, so the packs it writes are reproducible:
// os.hostname() answers $REFGEN_HOST and the clock stands still at
// $REFGEN_NOW (packed_at, the store's timestamps and the ZIP entry times).
// It changes nothing else about how the reference behaves.
const os = require('os')
os.hostname = () => process.env.REFGEN_HOST || 'ref-studio'
const FIXED = Date.parse(process.env.REFGEN_NOW || '2026-09-03T14:20:00Z')
const RealDate = Date
class FixedDate extends RealDate {
  constructor (...args) {
    if (args.length === 0) super(FIXED)
    else super(...args)
  }

  static now () { return FIXED }
}
globalThis.Date = FixedDate
require('module').syncBuiltinESMExports()
