// Trial (not a test): real Codex CLI through Ferry (started from this worktree) with its WebSocket transport.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakeOpenAI } from './test/helpers/fake-openai'
const repo = import.meta.dir
const fake = startFakeOpenAI({ name: 'codex-upstream' })
const dataDir = mkdtempSync(join(tmpdir(), 'ferry-trial-'))
const port = 40000 + Math.floor(Math.random() * 10000)
const ferry = Bun.spawn(['bun', 'src/main.ts'], { cwd: repo, env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdout: 'ignore', stderr: 'inherit' })
const base = `http://127.0.0.1:${port}`
for (let i = 0; i < 100; i++) { if ((await fetch(`${base}/api/status`).catch(() => undefined))?.ok) break; await Bun.sleep(100) }
const login = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: '123456' }) })
const cookie = login.headers.getSetCookie().map((l) => l.split(';')[0]).join('; ')
const admin = async (method: string, path: string, body?: unknown) => { const r = await fetch(`${base}${path}`, { method, headers: { cookie, 'new-api-user': '1', 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }); const j = await r.json() as any; if (!j.success) throw new Error(`${path}: ${j.message}`); return j.data }
await admin('PUT', '/api/option/', { key: 'PrivateUpstreamsEnabled', value: 'true' })
await admin('PUT', '/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'gpt-5-codex': 0.625 }) })
await admin('POST', '/api/channel/', { type: 1, name: 'openai', key: 'sk-oa-a', base_url: fake.url, models: 'gpt-5-codex', group: 'default' })
const [token] = await admin('POST', '/api/token/', { name: 'codex', unlimited_quota: true })
const home = mkdtempSync(join(tmpdir(), 'codex-home-'))
const work = mkdtempSync(join(tmpdir(), 'codex-work-'))
mkdirSync(join(home, '.codex'), { recursive: true })
const features = process.env.FEATURES ?? 'responses_websockets = true'
writeFileSync(join(home, '.codex', 'config.toml'), `model = "gpt-5-codex"\nmodel_provider = "ferry"\n\n[features]\n${features}\n\n[model_providers.ferry]\nname = "Ferry"\nbase_url = "${base}/v1"\nenv_key = "FERRY_API_KEY"\nwire_api = "responses"\nsupports_websockets = true\n`)
const env = { ...process.env, HOME: home, FERRY_API_KEY: token.key, CODEX_HOME: join(home, '.codex') }
const run = async (command: string[]) => { const child = Bun.spawn(command, { cwd: work, env, stdout: 'pipe', stderr: 'pipe' }); const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]); const code = await Promise.race([child.exited, Bun.sleep(120_000).then(() => { child.kill(); return -1 })]); console.log(`$ codex ${command.slice(1).join(' ')} → exit ${code}\n${out.slice(0, 600)}${err ? `\n[stderr] ${err.slice(0, 1500)}` : ''}`) }
const codex = '/tmp/clients/node_modules/.bin/codex'
await run([codex, 'exec', '--skip-git-repo-check', 'Say hello.'])
await run([codex, 'exec', '--skip-git-repo-check', 'resume', '--last', 'Say hello again.'])
console.log('\nupstream sockets:', fake.sockets.map((s) => `${s.kind} ${s.path} key=${s.key} beta=${s.headers['openai-beta'] ?? ''} events=${s.received.map((text) => JSON.parse(text).type).join(',')}`))
console.log('upstream http:', fake.requests.map((r) => `${r.method} ${r.path}`))
const logs = await admin('GET', '/api/log/?page_size=10')
console.log('consume logs:', logs.items.map((l: any) => `${l.type} ${l.model_name} ${l.prompt_tokens}/${l.completion_tokens} quota=${l.quota} stream=${l.is_stream}`))
ferry.kill(); await fake.stop()
