// The MCP round trip as a task-passport harness drives it: raw JSON-RPC 2.0,
// one message a line, over the stdio of `tp mcp`, with task-passport 0.3.0's
// tool names, argument shapes and result reading (structuredContent for
// answers; isError with the message in content[0].text for failures).
//
// new → checkpoint (and a stale one) → pack on machine A; land on machine B
// (its own store); answer the ask; pack a receipt; land it back on A, where
// it merges into the passport that asked.
//
// Environment: TP_BIN (the tp binary), WORK (a scratch folder). When
// TP_REFERENCE_DIR names a task-passport checkout, tp's seven tools are also
// compared with the reference's own declarations (names, required
// arguments, argument names, annotations). Exit 0 when every check holds.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'

const { TP_BIN, WORK, TP_REFERENCE_DIR } = process.env
assert.ok(TP_BIN && WORK, 'TP_BIN and WORK must be set')

function server(name) {
  const env = {
    ...process.env,
    TP_STORE: join(WORK, name, 'store'),
    TASK_PASSPORT_STORE: '',
    TP_ACTS: join(WORK, name, 'acts'),
    HOME: join(WORK, name, 'home'),
    XDG_CACHE_HOME: join(WORK, name, 'cache'),
    XDG_DATA_HOME: join(WORK, name, 'data'),
    TP_MACHINE: `${name}-box`,
    TP_ACTOR: `agent-${name}`,
  }
  // The server is confined to its working directory (D25): WORK.
  const child = spawn(TP_BIN, ['mcp'], { env, cwd: WORK, stdio: ['pipe', 'pipe', 'inherit'] })
  const pending = new Map()
  const stray = []
  let next = 1
  createInterface({ input: child.stdout }).on('line', (line) => {
    // Every line on stdout is one JSON-RPC message: logs go to stderr.
    const message = JSON.parse(line)
    if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message)
      pending.delete(message.id)
    } else {
      stray.push(message)
    }
  })
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`)
  const request = (method, params) => new Promise((resolve) => {
    const id = next++
    pending.set(id, resolve)
    send({ jsonrpc: '2.0', id, method, params })
  })
  return {
    stray,
    request,
    notify: (method, params) => send({ jsonrpc: '2.0', method, params }),
    // A tool's answer as the reference's harnesses read it.
    async call(tool, args, { expectError = false } = {}) {
      const response = await request('tools/call', { name: tool, arguments: args })
      assert.equal(response.error, undefined, `${tool}: protocol error ${JSON.stringify(response.error)}`)
      const result = response.result
      if (expectError) {
        assert.equal(result.isError, true, `${tool} should fail: ${JSON.stringify(result)}`)
        return result.content[0].text
      }
      assert.notEqual(result.isError, true, `${tool}: ${result.content?.[0]?.text}`)
      assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${tool}: text and structuredContent differ`)
      assert.match(result.structuredContent.data_notice ?? '', /not instructions/, `${tool}: the result does not say its content is data`)
      return result.structuredContent
    },
    close: () => new Promise((resolve) => { child.on('close', resolve); child.stdin.end() }),
  }
}

async function initialize(s) {
  const init = await s.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'task-passport-harness', version: '0.3.0' },
  })
  assert.equal(init.result.protocolVersion, '2025-06-18')
  assert.ok(init.result.capabilities.tools, 'no tools capability')
  assert.notEqual(init.result.capabilities.tools.listChanged, true)
  s.notify('notifications/initialized', {})
  return init.result
}

const a = server('alice')
const b = server('bob')
await initialize(a)
await initialize(b)

// The seven tools, with the reference's annotations.
const { result: { tools } } = await a.request('tools/list', {})
const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
const seven = ['task_passport_list', 'task_passport_open', 'task_passport_new', 'task_passport_checkpoint',
  'task_passport_pack', 'task_passport_land', 'task_passport_conformance']
for (const name of seven) assert.ok(byName[name], `tool ${name} missing`)
if (TP_REFERENCE_DIR && existsSync(join(TP_REFERENCE_DIR, 'mcp.js'))) {
  const { passportTools } = await import(pathToFileURL(join(TP_REFERENCE_DIR, 'mcp.js')).href)
  for (const ref of passportTools) {
    const ours = byName[ref.name]
    assert.ok(ours, `the reference's ${ref.name} is missing`)
    assert.deepEqual(ours.inputSchema.required ?? [], ref.inputSchema.required ?? [], `${ref.name}: required`)
    // Every argument the reference takes, with tp's optional ones beside
    // (force, max_bytes): a client written for the reference runs unchanged.
    for (const k of Object.keys(ref.inputSchema.properties)) assert.ok(ours.inputSchema.properties[k], `${ref.name}: argument ${k} missing`)
    for (const k of Object.keys(ours.inputSchema.properties)) {
      assert.ok(ref.inputSchema.properties[k] || !(ours.inputSchema.required ?? []).includes(k), `${ref.name}: tp requires ${k}, which the reference does not take`)
    }
    assert.equal(ours.inputSchema.additionalProperties, false, `${ref.name}: additionalProperties`)
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
      assert.equal(ours.annotations[hint] ?? false, ref.annotations[hint] ?? false, `${ref.name}: ${hint}`)
    }
  }
  console.log(`compared with the reference's ${passportTools.length} tools`)
}

// new → open → checkpoint, as the reference's harness does it.
const created = await a.call('task_passport_new', { title: 'Q4 deck', goal: '12 slides the CFO signs', next_step: 'draft' })
assert.match(created.passport_id, /^TP-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
assert.equal(created.state_version, 1)
const id = created.passport_id
const listed = await a.call('task_passport_list', {})
assert.equal(listed.count, 1)
assert.equal(listed.passports[0].passport_id, id)
const opened = await a.call('task_passport_open', { passport_id: id })
assert.equal(opened.state_version, 1)
assert.equal(opened.state.id, id)
assert.equal(typeof opened.compiled_context, 'string')
const state = {
  ...opened.state,
  current_state: 'slides 1-9 drafted',
  facts: [
    { claim: 'Keynote 14 is installed', scope: 'machine', verified: true },
    { claim: 'the CFO wants 12 slides', scope: 'universal', verified: true },
  ],
  next_steps: ['draft slides 10-12', 'send for review'],
}
const saved = await a.call('task_passport_checkpoint', { state, expected_version: opened.state_version })
assert.equal(saved.state_version, 2)
assert.equal(saved.state.facts[0].verified_on, 'alice-box')
const stale = await a.call('task_passport_checkpoint', { state, expected_version: 1 }, { expectError: true })
assert.match(stale, /conflict/)

// pack with an ask and a landing check whose how must never run.
const ran = join(WORK, 'how-ran')
const handoff = join(WORK, 'deck.taskpack.json')
const notes = join(WORK, 'outline.md')
writeFileSync(notes, '# Q4 deck\n\n1. revenue by region\n')
const packed = await a.call('task_passport_pack', {
  passport_id: id,
  out: handoff,
  encoding: 'flat',
  actor: 'alice',
  note: 'over to you',
  files: [notes],
  asks: [{ what: 'the September close', accept: 'a CSV with EMEA, APAC, AMER revenue' }],
  landing_checks: [{ check: 'Keynote opens the template', how: `touch ${ran}`, required: true }],
})
assert.equal(packed.ok, true)
assert.equal(packed.encoding, 'flat')
assert.equal(packed.passport_id, id)
assert.equal(packed.asks, 1)
assert.equal(packed.landing_checks, 1)
assert.ok(Array.isArray(packed.warnings))
const judged = await a.call('task_passport_conformance', { path: handoff })
assert.equal(judged.ok, true)
assert.equal(judged.passed, judged.total)

// land on the other machine: dry run first, then for real.
const dry = await b.call('task_passport_land', { path: handoff, dry_run: true })
assert.equal(dry.ok, true)
assert.equal(dry.dry_run, true)
assert.deepEqual(dry.luggage, ['outline.md'])
assert.deepEqual(dry.asks.map((ask) => ask.accept), ['a CSV with EMEA, APAC, AMER revenue'])
assert.deepEqual(dry.landing_checks.map((check) => check.how), [`touch ${ran}`])
assert.equal((await b.call('task_passport_list', {})).count, 0)
const filesOut = join(WORK, 'bob-files')
const landed = await b.call('task_passport_land', { path: handoff, files_out: filesOut })
assert.equal(landed.ok, true)
assert.notEqual(landed.passport_id, id)
assert.equal(landed.lineage.root_id, id)
assert.equal(landed.needs_reverify, 1)
assert.equal(landed.landing_checks_required, 1)
assert.equal(landed.open_asks, 1)
assert.match(landed.handoff_prompt, new RegExp(landed.passport_id))
assert.deepEqual(landed.luggage, [join(filesOut, 'outline.md')])
assert.equal(readFileSync(join(filesOut, 'outline.md'), 'utf8'), readFileSync(notes, 'utf8'))
assert.equal(existsSync(ran), false, 'landing ran the sender\'s how')
const bid = landed.passport_id
const there = await b.call('task_passport_open', { passport_id: bid })
assert.equal(there.state.facts.find((f) => f.claim === 'Keynote 14 is installed').needs_reverify, true)
assert.notEqual(there.state.facts.find((f) => f.claim === 'the CFO wants 12 slides').needs_reverify, true)
assert.deepEqual(there.state.next_steps.slice(-2), ['draft slides 10-12', 'send for review'])

// answer, pack the receipt, land it home: it merges into the passport that asked.
await b.call('tp_asks_answer', { passport_id: bid, answers: [{ id: 'a1', answer: 'close.csv' }] })
const receipt = join(WORK, 'answers.taskpack')
const packedReceipt = await b.call('task_passport_pack', { passport_id: bid, out: receipt, kind: 'receipt' })
assert.equal(packedReceipt.encoding, 'bagit-zip')
const merged = await a.call('task_passport_land', { path: receipt })
assert.equal(merged.ok, true)
assert.equal(merged.passport_id, id)
assert.equal(merged.open_asks, 0)
const home = await a.call('task_passport_open', { passport_id: id })
assert.equal(home.state.asks[0].status, 'answered')
assert.equal(home.state.asks[0].answer, 'close.csv')
assert.equal(home.state.current_state, 'slides 1-9 drafted')
assert.equal((await a.call('task_passport_list', {})).count, 1)

// A call the reference's harness can get wrong: an error result, and the server still serves.
const unknown = await a.call('task_passport_open', { passport_id: id, extra: true }, { expectError: true })
assert.match(unknown, /unknown member "extra"/)
assert.equal((await a.call('task_passport_list', {})).count, 1)
const missing = await a.request('tools/call', { name: 'task_passport_frobnicate', arguments: {} })
assert.ok(missing.error || missing.result?.isError, 'an unknown tool answered')

assert.deepEqual(a.stray.filter((m) => m.method !== 'notifications/progress'), [])
await a.close()
await b.close()
console.log(`round trip ok: ${id} → ${bid} → receipt merged into ${id}`)
