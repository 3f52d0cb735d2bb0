#!/usr/bin/env node
// `npx advice-studio …`: runs the command-line tool (scripts/advice-cli.ts) with tsx as Node's loader, in a child
// process whose exit code becomes this one's.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../scripts/advice-cli.ts')
const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), script, ...process.argv.slice(2)], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0)
})
